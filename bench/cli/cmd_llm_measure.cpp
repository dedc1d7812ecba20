// `roofline llm --measure`: the llm suite (bench/drivers/suite_llm.cpp) as a target (roofline/drivers/llm_target.hpp)
// run by the harness's measure(), as `roofline run` runs its targets: a RunConfig (threads of the estimate, --bind,
// --backends, --profile), the environment guard sampled at the start and the end, Google Benchmark's repetitions,
// the run's context (context.targets, context.plan, context.suites.llm, ...); the roofline section derived as `run`
// derives it (measure_and_derive); the results file written atomically (never over an existing one without --force),
// so that `compare` and `history` gate it (key figures llm/...); then the measured steps set beside the estimate,
// with the DRAM read roof measured just before and after the chain (the roof of the moment).
#include <cstdio>
#include <memory>
#include <system_error>

#include <fmt/format.h>

#include "llm_measure.hpp"
#include "roofline/model/results.hpp"
#include "roofline/cpu/cpu_target.hpp"
#include "roofline/drivers/llm_chain.hpp"
#include "roofline/drivers/llm_quant.hpp"
#include "roofline/drivers/llm_target.hpp"
#include "roofline/harness/measure.hpp"
#include "roofline/facts/memory.hpp"
#include "roofline/harness/target.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/llm/measured.hpp"

namespace roofline::cli {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The estimate of every step the suite will measure, by step id (compare_measured on steps not yet timed).
std::map<std::string, double> step_estimates(const llm::ModelConfig& config, const llm::LlmRequest& request,
                                             const llm::Roofs& roofs) {
  LlmSuiteInput input{config, request, {}, nullptr};
  std::vector<llm::MeasuredStep> planned;
  for (const LlmStepPlan& s : plan_llm(input).steps) planned.push_back(s.step);
  std::map<std::string, double> out;
  const llm::MeasuredComparison estimate = llm::compare_measured(config, request, roofs, planned);
  for (const llm::MeasuredRow& row : estimate.steps) {
    out[row.id] = row.layer.estimated_seconds;
  }
  return out;
}

// The implementations and notes the suite recorded per step, set on the steps read back from its entries.
void add_step_facts(std::vector<llm::MeasuredStep>& steps, const json& suite, int threads) {
  for (llm::MeasuredStep& m : steps) {
    const std::string id = m.phase == llm::Phase::decode ? fmt::format("decode-b{}", m.batch) : fmt::format("prefill-p{}", m.prompt);
    for (const json& s : suite.value("steps", json::array())) {
      if (s.value("id", "") != id || s.value("threads", 0) != threads) continue;
      m.note = s.value("note", "");
      for (const json& i : s.value("implementations", json::array())) m.implementations.push_back(i.get<std::string>());
    }
  }
}

// The steps of an llm results file's entries at the estimate's threads set beside the estimate, with the roof
// of the moment the suite recorded (context.suites.llm.memory_roof_moment) and what the plan left out.
llm::MeasuredComparison compare_with_estimate(const llm::ModelConfig& config, const llm::LlmRequest& request,
                                              const llm::Roofs& roofs, const std::vector<json>& entries, const json& suite,
                                              const std::string& results_file) {
  std::vector<llm::MeasuredStep> steps = measured_steps(entries, roofs.threads);
  add_step_facts(steps, suite, roofs.threads);
  llm::MeasuredComparison out = llm::compare_measured(config, request, roofs, steps);
  for (const json& why : suite.value("skipped", json::array())) {
    if (why.is_string()) out.notes.push_back(why.get<std::string>());
  }
  if (llm::quantized_chain(request.precisions)) {
    out.working_set = "the quantized chain rotates each weight over copies (labels.weights_copies) streaming at least 4x "
                         "the last level cache per rotation: its estimate uses the level that working set fits in (DRAM)";
  }
  const json moment = suite.value("memory_roof_moment", json::object());
  const double before = moment.value("before", 0.0), after = moment.value("after", 0.0);
  if (before > 0.0 && after > 0.0) {
    llm::add_moment(out, llm::compare_measured(config, request, llm::at_memory_roof(roofs, (before + after) / 2.0), steps),
                    before, after);
  }
  // What the harness's figures are (compare_measured's wording is of single passes).
  out.residual = "(estimated - measured) / measured; measured = the median repetition (each the mean of its "
                    "iterations, at least the profile's min time; residual_best: the fastest repetition)";
  llm::MeasuredRun& run = out.run.emplace();
  run.threads = roofs.threads;
  if (const json budget = suite.value("budget_bytes", json(nullptr)); budget.is_number_unsigned()) {
    run.budget_bytes = budget.get<std::uint64_t>();
  }
  const json backends = suite.value("backends", json::object());
  for (const auto& [what, backend] : backends.items()) {
    if (backend.is_string()) run.backends[what] = backend.get<std::string>();
  }
  run.results_file = results_file;
  return out;
}

}  // namespace

llm::MeasuredComparison read_measured_llm(const fs::path& file, const llm::ModelConfig& config, const llm::LlmRequest& request,
                       const llm::Roofs& roofs) {
  const json doc = load_results(file);
  const json* suite = &doc;
  for (const char* key : {"context", "suites", "llm"}) {
    suite = suite->is_object() && suite->contains(key) ? &(*suite)[key] : nullptr;
    if (suite == nullptr) throw InputError(fmt::format("--measured {}: not a results file of `roofline llm --measure`", file.string()));
  }
  const std::string weights = suite->value("weights_format", suite->value("weights", std::string()));
  const std::string kv = suite->value("kv", std::string());
  const llm::Precisions& p = request.precisions;
  if (suite->value("model", std::string()) != config.name || weights != p.stored().name || kv != to_string(p.kv)) {
    throw InputError(fmt::format("--measured {}: it measured {} with {} weights and a {} KV cache; pass --config, --weights "
                                 "and --kv to match", file.string(), suite->value("model", std::string("?")), weights, kv));
  }
  const std::vector<json> entries = doc.value("benchmarks", json::array()).get<std::vector<json>>();
  if (measured_steps(entries, roofs.threads).empty()) {
    throw InputError(fmt::format("--measured {}: no measured step at {} threads; pass --threads with the count it measured at",
                                 file.string(), roofs.threads));
  }
  return compare_with_estimate(config, request, roofs, entries, *suite, file.string());
}

LlmMeasurePlan plan_llm_measure(const LlmMeasureArgs& a, const llm::ModelConfig& config, const llm::LlmRequest& request,
                                int threads) {
  LlmMeasurePlan p;
  p.machine = detect_machine();
  if (threads > p.machine.pus) {
    throw InputError(fmt::format("--measure: the estimate is at {} threads but this machine has {} PUs; pass --threads",
                                 threads, p.machine.pus));
  }
  RunConfig& c = p.config;
  c.profile = parse_profile(a.profile);
  c.bind = parse_bind_policy(a.bind);
  c.thread_counts = {threads};
  c.features = p.machine.isa;
  const MachineFacts& m = p.machine;
  c.memory_budget_bytes = memory_budget(MemoryInfo{m.memory_total_bytes, m.memory_available_bytes, m.memory_source});
  if (!a.backends.empty()) c.backends = parse_name_list(a.backends, "--backends");
  c.suites = {"llm"};
  // A format or precision nothing here runs fails now, before anything is measured.
  if (request.precisions.format) {
    check_quant_measure(request.precisions.stored().name, c.features);  // our dequant-dot kernels (llm_quant.hpp)
  } else {
    chain_backend(request.precisions.weights, c.backends);
  }
  chain_backend(request.precisions.kv, c.backends);
  p.overwrite = a.force ? Overwrite::yes : Overwrite::no;
  p.out = a.out;
  if (p.out.empty()) {
    std::error_code ec;
    fs::create_directories(fs::path("results") / "llm", ec);  // beside, not in, results/: not a ceilings file
    p.out = fs::path("results") / "llm" / (config.name + "_" + default_results_name(p.machine));
  }
  check_destination(p.out, p.overwrite, "--out");
  p.estimate_from = a.estimate_from;
  return p;
}

llm::MeasuredComparison measure_llm(const LlmMeasurePlan& p, const llm::ModelConfig& config, const llm::LlmRequest& request,
                 const llm::Roofs& roofs, CliState& state) {
  // The chain as a target the harness runs like any other (llm_target.hpp): measure() samples the environment
  // guard, runs the suite (the roof of the moment before and after it) and writes the run's context; the roofline
  // section is derived as `roofline run` derives it.
  std::vector<std::unique_ptr<Target>> targets;
  targets.push_back(make_llm_target(cpu_target_facts(p.machine), p.machine,
                                    LlmSuiteInput{config, request, step_estimates(config, request, roofs), nullptr},
                                    p.estimate_from));
  const Measured m = measure_and_derive(p.machine, p.config, targets);
  write_file_atomically(p.out, m.doc.dump(2) + "\n", p.overwrite);
  const std::vector<json> entries = m.doc.at("benchmarks").get<std::vector<json>>();
  const json suite = m.doc.at("context").at("suites").value(kLlmSuite, json::object());
  llm::MeasuredComparison out = compare_with_estimate(config, request, roofs, entries, suite, p.out.string());
  for (const std::string& f : m.failures) std::fprintf(stderr, "roofline: FAILED %s\n", f.c_str());
  if (!m.failures.empty()) {
    std::fprintf(stderr, "roofline: %zu benchmark(s) failed validation; their entries are marked in %s\n",
                 m.failures.size(), p.out.string().c_str());
    state.exit_code = 1;
  }
  return out;
}

}  // namespace roofline::cli
