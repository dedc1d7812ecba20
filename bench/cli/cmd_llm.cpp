// `roofline llm --config CONFIG`: LLM inference bounds from a results file's measured roofline (parameters,
// KV cache, decode tokens/s per batch and its bound, the batch where decode turns compute-bound, prefill
// time), as tables, --json FILE or an --html FILE page (`-`: stdout); --list-models prints the shipped models; --measure times one layer at the model's real shapes on
// this machine through the harness (cmd_llm_measure.cpp), writes its results file and sets the measured
// seconds beside the estimate (--measured reads such a file back). Every input is checked, and the destinations
// too, before anything is measured or written.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <system_error>


#include <fmt/format.h>

#include "commands.hpp"
#include "conventions.hpp"
#include "llm_measure.hpp"
#include "roofline/common/atomic_file.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/results_document.hpp"
#include "roofline/harness/data_dir.hpp"
#include "roofline/harness/run_config.hpp"
#include "roofline/llm/html.hpp"
#include "roofline/llm/measured.hpp"
#include "roofline/llm/moe.hpp"
#include "roofline/llm/observed.hpp"
#include "roofline/llm/quant.hpp"
#include "roofline/llm/roofs.hpp"
#include "roofline/llm/target.hpp"
#include "roofline/llm/tensors.hpp"
#include "roofline/llm/summary.hpp"
#include "roofline/llm/tables.hpp"

namespace roofline::cli {
namespace fs = std::filesystem;

namespace {

struct LlmArgs {
  std::string config, results, weights = "bf16", kv = "bf16", batches = "1,8,64", context = "4096", prompt = "512";
  std::string threads, html, roof = "peak", keep, routing = "uniform", target = llm::kDefaultTarget, observed;
  std::string draft, accept, draft_tokens;
  std::string out, profile = "quick", bind = "compact", backends;  // --measure's
  std::string measured;  // --measured: a file --measure wrote, read back
  std::string json;      // --json FILE
  bool measure = false, force = false, measure_flags = false, list_models = false;
};

Precision parse_kv_precision(const std::string& text, const char* flag) {
  const auto p = parse_precision(text);
  if (!p || (*p != Precision::bf16 && *p != Precision::fp32 && *p != Precision::int8)) {
    throw InputError(fmt::format("{} '{}': expected bf16, fp32 or int8", flag, text));
  }
  return *p;
}

// One positive integer (the lists' parser with a single element allowed).
std::int64_t parse_single(const std::string& text, const std::string& flag, std::int64_t max) {
  if (text.find(',') != std::string::npos) throw InputError(fmt::format("{} '{}': expected one positive integer", flag, text));
  return parse_positive_list(text, flag, max).front();
}

// The newest results file in results/ (what `roofline run` writes by default).
fs::path newest_results() {
  std::error_code ec;
  fs::path best;
  fs::file_time_type best_time{};
  for (fs::directory_iterator it("results", ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".json" || !it->is_regular_file(ec)) continue;
    const auto t = it->last_write_time(ec);
    if (best.empty() || t > best_time) best = it->path(), best_time = t;
  }
  if (best.empty()) {
    throw InputError("no results file in results/: make one with `roofline run` (about a minute) or pass --results RUN.json");
  }
  return best;
}

// A config path as given, else a shipped model by name in any case ("Llama-3-8B" is llama-3-8b.json).
fs::path model_config_path(const std::string& name) {
  std::error_code ec;
  if (fs::is_regular_file(name, ec)) return name;
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return find_data_file("models", lower, "--config");
}

llm::RoofSource parse_roof(const std::string& text) {
  if (text == "peak") return llm::RoofSource::peak;
  if (text == "gemm") return llm::RoofSource::gemm;
  throw InputError(fmt::format("--roof '{}': expected peak or gemm", text));
}

// --keep embed=FORMAT,lm_head=FORMAT: tensors stored in another format than --weights.
std::map<std::string, llm::WeightFormat> parse_keep(const std::string& text) {
  std::map<std::string, llm::WeightFormat> keep;
  if (text.empty()) return keep;
  std::stringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    const auto eq = item.find('=');
    const std::string name = item.substr(0, eq);
    if (eq == std::string::npos || (name != "embed" && name != "lm_head") || keep.count(name) != 0) {
      throw InputError(fmt::format("--keep '{}': expected embed=FORMAT and/or lm_head=FORMAT, each once (e.g. lm_head=q6_k)", text));
    }
    keep[name] = llm::parse_weight_format(item.substr(eq + 1), "--keep " + name);
  }
  return keep;
}

// A number in (0, 1] for --accept.
double parse_accept(const std::string& text) {
  char* end = nullptr;
  const double v = text.empty() ? 0.0 : std::strtod(text.c_str(), &end);
  if (end == nullptr || *end != '\0' || !(v > 0.0 && v <= 1.0)) {
    throw InputError(fmt::format("--accept '{}': expected the draft's acceptance rate, a number in (0, 1]", text));
  }
  return v;
}

// The precisions every compute roof the estimate uses: the formats' and the KV cache's, fp32 for the
// vector units' dequantization rate.
std::vector<Precision> needed_precisions(const llm::Precisions& p) {
  std::vector<Precision> needed{p.stored().compute, p.kv};
  bool quantized = p.stored().quantized();
  for (const auto& [name, f] : p.keep) {
    needed.push_back(f.compute);
    quantized = quantized || f.quantized();
  }
  if (quantized) needed.push_back(Precision::fp32);
  return needed;
}

void set_precisions(const LlmArgs& a, llm::LlmRequest& request) {
  const llm::WeightFormat format = llm::parse_weight_format(a.weights, "--weights");
  request.precisions.weights = format.compute;
  if (format.quantized() || format.name == "fp8") request.precisions.format = format;
  request.precisions.kv = parse_kv_precision(a.kv, "--kv");
  request.precisions.keep = parse_keep(a.keep);
  request.precisions.routing = llm::parse_routing(a.routing);
}

// The draft of --draft/--accept/--draft-tokens: all three or none.
void set_speculative(const LlmArgs& a, llm::LlmRequest& request) {
  if (a.draft.empty() && a.accept.empty() && a.draft_tokens.empty()) return;
  if (a.draft.empty() || a.accept.empty() || a.draft_tokens.empty()) {
    throw InputError("--draft, --accept and --draft-tokens go together: a draft config, its acceptance rate, and K");
  }
  request.accept = parse_accept(a.accept);
  request.draft_tokens = parse_single(a.draft_tokens, "--draft-tokens", 64);
  request.draft = llm::load_config(model_config_path(a.draft));
}

// Checks that need the model: routing only for MoE, the formats' blocks, one batch and prompt per
// observed speed, and what --measure can time.
void check_request(const LlmArgs& a, const llm::ModelConfig& config, const llm::LlmRequest& r) {
  if (a.routing != "uniform" && !config.is_moe()) {
    throw InputError(fmt::format("--routing: {} is not a mixture of experts (it has no experts to route to)", config.name));
  }
  if (config.is_moe()) llm::check_routing(r.precisions.routing, config.moe.experts, config.moe.top_k);
  if (config.tied_embeddings && r.precisions.keep.count("lm_head") != 0) {
    throw InputError(fmt::format("--keep lm_head: {} ties lm_head to the embeddings; keep embed instead", config.name));
  }
  llm::check_blocks(config, r.precisions);
  if (r.draft) llm::check_blocks(*r.draft, r.precisions);
  if (r.draft && r.draft->is_moe()) llm::check_routing(r.precisions.routing, r.draft->moe.experts, r.draft->moe.top_k);
  if (r.observed.decode > 0.0 && r.batches.size() != 1) {
    throw InputError("--observed decode=: give the one batch it was measured at with --batches (e.g. --batches 1)");
  }
  if (r.observed.prefill > 0.0 && r.prompts.size() != 1) {
    throw InputError("--observed prefill=: give the one prompt length it was measured at with --prompt (e.g. --prompt 512)");
  }
  if (a.measure && !r.precisions.keep.empty()) {
    throw InputError("--keep: --measure times every weight in the one --weights format (drop --keep to measure)");
  }
  if (a.measure && a.target != llm::kDefaultTarget) {
    throw InputError(fmt::format("--measure runs on this machine's CPU, not on --target {}", a.target));
  }
}

void run_llm(const LlmArgs& a, CliState& state) {
  llm::LlmRequest request;
  set_precisions(a, request);
  const std::vector<int> batches = parse_positive_list(a.batches, "--batches", 1 << 20);
  request.batches.assign(batches.begin(), batches.end());
  request.context = parse_single(a.context, "--context", 1 << 24);
  const std::vector<int> prompts = parse_positive_list(a.prompt, "--prompt", 1 << 20);
  request.prompts.assign(prompts.begin(), prompts.end());
  const int threads = a.threads.empty() ? 0 : static_cast<int>(parse_single(a.threads, "--threads", 1 << 16));
  const llm::RoofSource roof = parse_roof(a.roof);
  if (!a.observed.empty()) request.observed = llm::parse_observed(a.observed);
  const Overwrite overwrite = a.force ? Overwrite::yes : Overwrite::no;
  const bool table = !stdout_taken({{"--html", a.html}, {"--json", a.json}});
  if (!a.html.empty()) check_output(a.html, overwrite, "--html");
  if (!a.json.empty()) check_output(a.json, overwrite, "--json");

  llm::ModelConfig config = llm::load_config(model_config_path(a.config));
  set_speculative(a, request);
  check_request(a, config, request);
  const fs::path results_path = a.results.empty() ? newest_results() : fs::path(a.results);
  const ResultsDocument results =
      llm::select_target(load_results_document(results_path), a.target, results_path.string());
  llm::Roofs roofs = llm::read_roofs(results, results_path.string(), threads, needed_precisions(request.precisions), roof);
  roofs.target = a.target;
  const llm::TargetMemory memory = llm::target_memory(results, a.target);
  roofs.memory_total_bytes = memory.total_bytes;
  roofs.memory_available_bytes = memory.available_bytes;
  roofs.memory_source = memory.source;
  llm::LlmAnswer answer = llm::summarize(config, request, roofs, results_path.string());
  if (threads == 0) {
    answer.notes.push_back(fmt::format("ceilings at {} threads: the largest thread count of {} with a DRAM roof "
                                          "(--threads chooses another)", roofs.threads, results_path.string()));
  }
  if (!a.measured.empty()) {
    if (a.measure || a.measure_flags) throw InputError("--measured reads back a file --measure wrote: not with --measure or its flags");
    answer.measured = read_measured_llm(a.measured, config, request, roofs);
  } else if (a.measure) {
    LlmMeasureArgs m{a.out, a.profile, a.bind, a.backends, results_path.string(), a.force};
    const LlmMeasurePlan plan = plan_llm_measure(m, config, request, roofs.threads);
    answer.measured = measure_llm(plan, config, request, roofs, state);
  } else if (a.measure_flags) {
    throw InputError("--out, --profile, --bind and --backends go with --measure (they say where and how the chain is measured)");
  }

  if (!a.html.empty()) write_output(a.html, llm::render_llm_page(answer), overwrite);
  if (!a.json.empty()) write_output(a.json, llm::to_json(answer).dump(2) + "\n", overwrite);
  if (table) {
    std::fputs(llm::render_llm_text(answer).c_str(), stdout);
    if (!a.html.empty()) std::printf("html     %s\n", a.html.c_str());
    if (!a.json.empty()) std::printf("json     %s\n", a.json.c_str());
    if (a.measure) std::printf("results  %s\n", answer.measured->run->results_file.c_str());
  }
}

}  // namespace

void add_llm_command(CLI::App& app, CliState& state) {
  auto* cmd = app.add_subcommand("llm", "LLM inference bounds (decode per batch, prefill) from a run's measured roofline");
  auto a = std::make_shared<LlmArgs>();
  cmd->add_option("--config", a->config, "A Hugging Face config.json, or the name of a shipped model (--list-models "
                                         "prints them)");
  cmd->add_flag("--list-models", a->list_models, "Print the names of the shipped model configs and exit");
  cmd->add_option("--results", a->results, "A results file of `roofline run` (default: the newest in results/)");
  cmd->add_option("--weights", a->weights, fmt::format("How the weights are stored (default bf16): {}; q* are llama.cpp's "
                                                       "blocks, int4-gG has one fp16 scale per G weights",
                                                       llm::weight_format_names()));
  cmd->add_option("--keep", a->keep, "Tensors stored in another format than --weights: embed=FORMAT,lm_head=FORMAT");
  cmd->add_option("--routing", a->routing, "Experts a MoE step touches per layer: uniform (default, E(1-(1-k/E)^T) for T "
                                           "tokens), best (k), worst (min(E, T k)), touched=N (measured)");
  cmd->add_option("--target", a->target, "The target whose ceilings to use, in a results file with several (default cpu)");
  cmd->add_option("--observed", a->observed, "Measured speeds, decode=TPS[,prefill=TPS] (tokens/s at the one --batches "
                                             "and --prompt): their MBU, MFU and nearest bound");
  cmd->add_option("--draft", a->draft, "Speculative decoding: the draft model's config (with --accept, --draft-tokens)");
  cmd->add_option("--accept", a->accept, "Speculative decoding: the probability a drafted token is accepted, a fraction "
                                         "in (0, 1] (0.7, not 70%)");
  cmd->add_option("--draft-tokens", a->draft_tokens, "Speculative decoding: tokens K drafted per target step");
  cmd->add_option("--kv", a->kv, "Precision of the KV cache: bf16 (default), fp32, int8");
  cmd->add_option("--batches", a->batches, "Decode batches (sequences), e.g. 1,8,64 (default)");
  cmd->add_option("--context", a->context, "Tokens in each sequence's KV cache during decode (default 4096)");
  cmd->add_option("--prompt", a->prompt, "Prompt tokens for prefill, e.g. 512 (default) or 128,512");
  cmd->add_option("--threads", a->threads, "Thread count whose ceilings to use (default: the largest with a DRAM roof)");
  cmd->add_option("--roof", a->roof, "Compute roof: peak (FMA-kernel ceiling, default) or gemm (best GEMM the run attained)");
  cmd->add_option("--html", a->html, "Write a self-contained HTML page to FILE (- : stdout, instead of the tables)")
      ->type_name("FILE");
  cmd->add_option("--json", a->json, "Write the answer as JSON to FILE (- : stdout, instead of the tables)")->type_name("FILE");
  cmd->add_flag("--measure", a->measure, "Time one layer at the model's shapes here and compare with the estimate");
  cmd->add_option("--out", a->out, "With --measure: the results file (default: results/llm/<model>_<host>_<date>_<revision>.json)")
      ->type_name("FILE");
  cmd->add_option("--profile", a->profile, "With --measure: quick (5 repetitions of 0.1 s per step) or full (10 of 0.5 s)");
  cmd->add_option("--bind", a->bind, "With --measure: thread binding, compact (default), spread or none");
  cmd->add_option("--backends", a->backends, "With --measure: GEMM backends to use, the first that runs each precision "
                                             "(default: eigen for fp32, onednn for bf16 and int8)");
  cmd->add_option("--measured", a->measured, "A results file of --measure (this model, --weights and --kv): its steps beside "
                                             "the estimate again, nothing measured");
  cmd->add_flag("--force", a->force, "Overwrite an existing --html, --json or --out file");
  cmd->callback([a, cmd, &state] {
    if (a->list_models) {
      for (const std::string& name : data_file_names("models")) std::printf("%s\n", name.c_str());
      return;
    }
    if (a->config.empty()) throw InputError("--config is required (a config.json or a shipped model: --list-models)");
    for (const char* flag : {"--out", "--profile", "--bind", "--backends"}) {
      const CLI::Option* opt = cmd->get_option(flag);
      if (opt->count() > 0 && opt->as<std::string>().find_first_not_of(' ') == std::string::npos) {
        throw InputError(fmt::format("{}: empty value", flag));
      }
      a->measure_flags = a->measure_flags || opt->count() > 0;
    }
    run_llm(*a, state);
  });
}

}  // namespace roofline::cli
