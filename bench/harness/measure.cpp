// One measurement of this machine's targets: see measure.hpp. Moved out of the CLI (cli/cmd_run.cpp parses
// flags and writes files; this builds the run context and runs the suites).
#include "roofline/harness/measure.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <functional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "roofline/harness/environment.hpp"
#include "roofline/facts/pinning.hpp"
#include "roofline/harness/profile.hpp"
#include "roofline/harness/progress.hpp"
#include "roofline/harness/runner.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/common/huge_pages.hpp"
#include "roofline/common/schema_version.hpp"

namespace roofline {
using nlohmann::json;

json run_context(const RunConfig& c, const MachineFacts& m, const std::vector<std::string>& notes) {
  json pus = json::object();
  bool pinned = c.bind != BindPolicy::none;
  for (int t : c.thread_counts) pus[std::to_string(t)] = binding_plan(m, t, c.bind);
  json ctx = {{"schema_version", kSchemaVersion},
              {"roofline_version", ROOFLINE_VERSION},
              {"git_revision", m.git_revision},
              {"compiler", m.compiler},
              {"compiler_flags", m.compiler_flags},
              {"build_type", m.build_type},
              {"profile", to_string(c.profile)},
              {"threads", c.thread_counts},
              {"binding", {{"policy", to_string(c.bind)}, {"pus", pus}, {"pinned", pinned}}},
              {"max_isa", to_string(c.max_isa)},
              {"memory_budget_bytes", c.memory_budget_bytes},
              {"machine", to_json(m)},
              {"notes", notes}};
  return ctx;
}

namespace {

// Google Benchmark's context when no benchmark ran (e.g. every suite skipped): the same keys, from us.
json minimal_benchmark_context(const MachineFacts& m) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S%z", &tm);
  return {{"date", date}, {"host_name", m.hostname}, {"executable", "roofline"}, {"num_cpus", m.pus}};
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A device target (OpenCL, CUDA; a CPU device through PoCL too) gets the device budgets: anything but the host CPU.
bool is_device(const Target& target) { return target.facts().target != kCpuTargetId; }

// The suites of `target` this run measures, in its order.
std::vector<std::string> wanted_suites(const Target& target, const RunConfig& config) {
  std::vector<std::string> out;
  for (const std::string& suite : target.suites()) {
    if (config.wants_suite(suite)) out.push_back(suite);
  }
  return out;
}

// The seconds the timed loops of the entries from `first` on took (each repetition's time per iteration times its
// iterations): set against a suite's wall_seconds, what its set-up, first touch, validation and harness cost.
double timed_seconds(const std::vector<BenchmarkEntry>& entries, std::size_t first) {
  double total = 0.0;
  for (std::size_t i = first; i < entries.size(); ++i) {
    const BenchmarkEntry& e = entries[i];
    if (e.run_type.value_or("") != "iteration" || e.error_occurred.value_or(false)) continue;
    const std::string unit = e.time_unit.value_or("ns");
    const double scale = unit == "s" ? 1.0 : unit == "ms" ? 1e-3 : unit == "us" ? 1e-6 : 1e-9;
    total += e.real_time.value_or(0.0) * scale * static_cast<double>(e.iterations.value_or(0));
  }
  return total;
}

}  // namespace

json overhead_seconds(const PhaseClock& phases, double wall_s, double timed_s) {
  json out = json::object();
  double counted = timed_s;
  for (const Phase p : {Phase::calibration, Phase::setup, Phase::validation, Phase::probes, Phase::harness}) {
    out[std::string(phase_name(p))] = phases.seconds(p);
    counted += phases.seconds(p);
  }
  // A body's wall less its timed loop: warm-up calls, pinning, what the body does untimed and does not name.
  const double body_untimed = std::max(0.0, phases.seconds(Phase::body) - timed_s);
  out["body_untimed"] = body_untimed;
  counted += body_untimed;
  // The suite's own code outside every phase (its plans, context, what it frees).
  out["other"] = std::max(0.0, wall_s - counted);
  return out;
}

namespace {

// One target's suites, in its order, those `config` asks for, each under its budget (profile.hpp). Its suite
// contexts go under the suite's name prefixed like its benchmarks ("bandwidth" for the CPU, "opencl:0.0/bandwidth"
// for a device), with the budget and what it cut.
// `between(next suite)` runs before every suite but the run's first (the DRAM canary's checkpoints).
void run_target(Target& target, const RunConfig& config, const RunPlan& plan, Runner& runner, Progress& progress,
                json& suites_context, std::vector<std::string>& notes,
                const std::function<void(const std::string&)>& between) {
  const std::string prefix = target.benchmark_prefix();
  runner.set_target(target.facts().target, prefix);
  for (const std::string& suite : wanted_suites(target, config)) {
    if (!suites_context.empty()) between(prefix + suite);
    progress.begin_suite(prefix + suite);
    SuiteOutput out;
    const std::size_t first_entry = runner.records().size();
    const auto started = std::chrono::steady_clock::now();
    const SuiteBudget& budget = runner.begin_suite(suite_budget_seconds(config.profile, is_device(target), suite));
    runner.phases().reset();
    target.run_suite(suite, config, runner, out);
    const double seconds = seconds_since(started);
    const double timed = timed_seconds(runner.records(), first_entry);
    out.context["wall_seconds"] = seconds;
    out.context["timed_seconds"] = timed;
    out.context["overhead_seconds"] = overhead_seconds(runner.phases(), seconds, timed);
    out.context["budget_seconds"] = budget.seconds();
    out.context["budget_cuts"] = budget.cuts();
    for (const SuitePlan& p : plan.suites) {
      if (p.target != target.facts().target || p.suite != suite) continue;
      out.context["estimated_seconds"] = p.estimated_seconds();
      // Said, never acted on: a slow machine or a busy one measures the whole plan all the same.
      if (seconds > p.estimated_seconds()) {
        out.notes.push_back(fmt::format("{} {}: took {:.1f} s, longer than the plan's estimate of {:.1f} s (nothing "
                                        "was cut)", p.target, suite, seconds, p.estimated_seconds()));
      }
    }
    suites_context[prefix + suite] = out.context;
    notes.insert(notes.end(), out.notes.begin(), out.notes.end());
    progress.end_suite(prefix + suite, seconds);
  }
}

// The budgets of this run's suites, as the context records them and the progress line counts them down.
std::vector<std::pair<std::string, double>> suite_budgets(const std::vector<std::unique_ptr<Target>>& targets,
                                                          const RunConfig& config) {
  std::vector<std::pair<std::string, double>> out;
  for (const std::unique_ptr<Target>& t : targets) {
    for (const std::string& suite : wanted_suites(*t, config)) {
      out.emplace_back(t->benchmark_prefix() + suite, suite_budget_seconds(config.profile, is_device(*t), suite));
    }
  }
  return out;
}

}  // namespace

RunPlan plan_run(std::vector<std::unique_ptr<Target>>& targets, const RunConfig& config) {
  RunPlan plan;
  for (std::unique_ptr<Target>& t : targets) {
    std::vector<SuitePlan> suites = t->plan(config);
    if (suites.empty() && !wanted_suites(*t, config).empty()) {
      plan.notes.push_back(fmt::format("{}: its suites are planned as they run (they follow its own curve)",
                                       t->facts().target));
    }
    for (SuitePlan& s : suites) {
      s.target = t->facts().target;
      plan.suites.push_back(std::move(s));
    }
  }
  // The guard samples at the start, before every suite but the first (measure_canary_checkpoint), and at the end.
  std::size_t suites = 0;
  for (std::unique_ptr<Target>& t : targets) suites += wanted_suites(*t, config).size();
  plan.environment_s = kEnvironmentSampleSeconds * static_cast<double>(suites + 1);
  return plan;
}

std::vector<TargetFacts> available_targets(std::vector<std::string>& notes) {
  std::vector<TargetFacts> all;
  for (const TargetProvider& p : target_providers()) {
    for (TargetFacts& f : p.list(notes)) all.push_back(std::move(f));
  }
  return all;
}

std::vector<std::unique_ptr<Target>> open_targets(const std::vector<std::string>& requested, bool skip_cpu,
                                                  const RunConfig& config) {
  std::vector<std::string> notes;
  const std::vector<TargetFacts> available = available_targets(notes);
  std::vector<std::string> wanted;
  if (!skip_cpu) wanted.emplace_back(kCpuTargetId);
  wanted.insert(wanted.end(), requested.begin(), requested.end());
  if (wanted.empty()) throw InputError("--no-cpu: no --target left to measure");
  std::vector<std::unique_ptr<Target>> opened;
  for (const TargetFacts& facts : select_targets(wanted, available)) {
    for (const TargetProvider& p : target_providers()) {
      if (facts.api == p.api) opened.push_back(p.open(facts));
    }
  }
  for (const std::string& suite : config.suites) {
    const auto offers = [&](const std::unique_ptr<Target>& t) {
      const std::vector<std::string> s = t->suites();
      return std::find(s.begin(), s.end(), suite) != s.end();
    };
    if (std::none_of(opened.begin(), opened.end(), offers)) {
      throw InputError(fmt::format("--suites: no target of this run offers '{}'", suite));
    }
  }
  return opened;
}

Measured measure(const MachineFacts& machine, const RunConfig& config, std::vector<std::unique_ptr<Target>>& targets) {
  const auto started = std::chrono::steady_clock::now();
  std::vector<std::string> notes;  // machine.notes stay in context.machine.notes
  std::vector<std::string> lost;
  if (config.max_isa != Isa::amx) notes.push_back(fmt::format("ISA capped at {} (--max-isa)", to_string(config.max_isa)));
  if (!pin_openmp_threads(config.max_threads(), binding_plan(machine, config.max_threads(), config.bind)) &&
      config.bind != BindPolicy::none) {
    notes.push_back("hwloc could not bind threads here: threads run unpinned");
  }

  const RunPlan plan = plan_run(targets, config);  // fixed before the first measurement
  // Large buffers given back are kept for the next that fits, the pool's mappings within the memory budget
  // (roofline/common/huge_pages.hpp: first-touching fresh memory was most of the run's time outside the kernels); none kept on
  // several NUMA nodes, where the team that first touches a page places it.
  const std::uint64_t pool_limit = machine.numa_nodes > 1 ? 0 : config.memory_budget_bytes;
  set_mapping_pool_limit(pool_limit);
  // What the run kept goes back to the system when it ends, by an exception too (`llm --measure` goes on after it).
  struct KeepNothingAfter {
    ~KeepNothingAfter() { set_mapping_pool_limit(0); }
  } keep_nothing_after;
  const MappingPoolCounts pool_start = mapping_pool_counts();
  Progress progress(!config.quiet);
  const std::vector<std::pair<std::string, double>> budgets = suite_budgets(targets, config);
  progress.plan(budgets);
  progress.phase("environment");
  progress.update("canary");
  const EnvironmentSample env_start = sample_environment(machine, config);
  Runner runner(&progress);
  json suites_context = json::object();
  std::vector<CanaryCheckpoint> checkpoints;
  const auto checkpoint = [&](const std::string& next_suite) {
    progress.phase("environment");
    progress.update("canary");
    checkpoints.push_back(measure_canary_checkpoint(machine, config, next_suite, seconds_since(started)));
  };
  json target_facts = json::array();
  for (std::unique_ptr<Target>& target : targets) {
    target_facts.push_back(to_json(target->facts()));
    try {
      run_target(*target, config, plan, runner, progress, suites_context, notes, checkpoint);
    } catch (const TargetLost& e) {
      // The other targets' results are kept; this one is named, and the run exits 1.
      lost.push_back(fmt::format("target {} lost mid-run: {}", target->facts().target, e.what()));
      notes.push_back(lost.back());
    }
  }
  progress.phase("environment");
  progress.update("canary");
  const EnvironmentSample env_end = sample_environment(machine, config);
  progress.finish();
  const MappingPoolCounts pool_end = mapping_pool_counts();

  json context = runner.context().is_object() ? runner.context() : minimal_benchmark_context(machine);
  const json ours = run_context(config, machine, notes);
  for (auto it = ours.begin(); it != ours.end(); ++it) context[it.key()] = it.value();
  context["targets"] = target_facts;
  context["suites"] = suites_context;
  context["environment"] =
      environment_json(env_start, env_end, canary_bytes(machine, config), config.max_threads(), checkpoints);
  const double seconds = seconds_since(started);
  context["wall_seconds"] = seconds;
  context["plan"] = plan.to_json();
  context["mapping_pool"] = {{"limit_bytes", pool_limit},
                             {"fresh_bytes", pool_end.fresh_bytes - pool_start.fresh_bytes},
                             {"reused_bytes", pool_end.reused_bytes - pool_start.reused_bytes}};
  json budget = json::object();
  for (const auto& [suite, s] : budgets) budget[suite] = s;
  context["time_budget"] = {
      {"profile", to_string(config.profile)},
      {"seconds", budget},
      {"rule", "the budgets shape every target's plan before anything is measured (fewer sizes per octave, fewer "
               "batches, said in context.plan's notes); nothing of the plan is cut at run time, and a suite that takes "
               "longer than its estimate says so in the notes"}};

  // The records' one writer (issue 61): the typed entries as the runner built them; the context, not typed here yet,
  // as its fields. The caller derives its roofline section.
  ResultsDocument results;
  results.context.extra = std::move(context);
  results.benchmarks = runner.records();
  json doc = to_json(results);
  std::vector<std::string> failures = runner.failures();
  failures.insert(failures.end(), lost.begin(), lost.end());
  return {std::move(doc), failures, seconds};
}

}  // namespace roofline
