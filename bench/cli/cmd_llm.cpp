// `roofline llm --config CONFIG`: LLM inference bounds from a results file's measured roofline (parameters,
// KV cache, decode tokens/s per batch and its bound, the batch where decode turns compute-bound, prefill
// time), as tables, --json or an --html page; --measure times one layer at the model's real shapes on
// this machine and sets the measured seconds beside the estimate. Every input is checked, and the
// destination too, before anything is measured or written.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>

#include <unistd.h>

#include <fmt/format.h>

#include "commands.hpp"
#include "roofline/common/atomic_file.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/analysis/results.hpp"
#include "roofline/bench/data_dir.hpp"
#include "roofline/bench/llm_chain.hpp"
#include "roofline/bench/machine.hpp"
#include "roofline/bench/memory.hpp"
#include "roofline/bench/pinning.hpp"
#include "roofline/bench/progress.hpp"
#include "roofline/bench/run_config.hpp"
#include "roofline/llm/html.hpp"
#include "roofline/llm/measured.hpp"
#include "roofline/llm/roofs.hpp"
#include "roofline/llm/summary.hpp"
#include "roofline/llm/tables.hpp"

namespace roofline::cli {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct LlmArgs {
  std::string config, results, weights = "bf16", kv = "bf16", batches = "1,8,64", context = "4096", prompt = "512";
  std::string threads, html, roof = "peak";
  bool json = false, measure = false, force = false;
};

Precision parse_llm_precision(const std::string& text, const char* flag) {
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

json measure(const llm::ModelConfig& config, const llm::LlmRequest& request, const llm::Roofs& roofs) {
  const MachineFacts machine = detect_machine();
  if (roofs.threads > machine.pus) {
    throw InputError(fmt::format("--measure: the estimate is at {} threads but this machine has {} PUs; pass --threads",
                                 roofs.threads, machine.pus));
  }
  ChainRequest chain;
  chain.config = config;
  chain.request = request;
  chain.threads = roofs.threads;
  chain.features = machine.isa;
  chain.pus = binding_plan(machine, roofs.threads, BindPolicy::compact);
  chain.budget_bytes = static_cast<double>(
      memory_budget(MemoryInfo{machine.memory_total_bytes, machine.memory_available_bytes, machine.memory_source}));
  Progress progress(isatty(fileno(stderr)) != 0);
  chain.progress = &progress;
  json out = llm::compare_measured(config, request, roofs, measure_chain(chain));
  progress.finish();
  out["threads"] = roofs.threads;
  out["budget_bytes"] = chain.budget_bytes;
  out["backends"] = {{"weights", chain_backend(request.precisions.weights)}, {"kv", chain_backend(request.precisions.kv)}};
  return out;
}

void run_llm(const LlmArgs& a) {
  llm::LlmRequest request;
  request.precisions.weights = parse_llm_precision(a.weights, "--weights");
  request.precisions.kv = parse_llm_precision(a.kv, "--kv");
  const std::vector<int> batches = parse_positive_list(a.batches, "--batches", 1 << 20);
  request.batches.assign(batches.begin(), batches.end());
  request.context = parse_single(a.context, "--context", 1 << 24);
  const std::vector<int> prompts = parse_positive_list(a.prompt, "--prompt", 1 << 20);
  request.prompts.assign(prompts.begin(), prompts.end());
  const int threads = a.threads.empty() ? 0 : static_cast<int>(parse_single(a.threads, "--threads", 1 << 16));
  const llm::RoofSource roof = parse_roof(a.roof);
  const Overwrite overwrite = a.force ? Overwrite::yes : Overwrite::no;
  if (!a.html.empty()) check_destination(a.html, overwrite, "--html");

  llm::ModelConfig config = llm::load_config(model_config_path(a.config));
  const fs::path results_path = a.results.empty() ? newest_results() : fs::path(a.results);
  const json results = load_results(results_path);
  const llm::Roofs roofs = llm::read_roofs(results, results_path.string(), threads,
                                           {request.precisions.weights, request.precisions.kv}, roof);
  json answer = llm::summarize(config, request, roofs, results_path.string());
  if (threads == 0) {
    answer["notes"].push_back(fmt::format("ceilings at {} threads: the largest thread count of {} with a DRAM roof "
                                          "(--threads chooses another)", roofs.threads, results_path.string()));
  }
  if (a.measure) answer["measured"] = measure(config, request, roofs);

  if (!a.html.empty()) write_file_atomically(a.html, llm::render_llm_page(answer), overwrite);
  if (a.json) {
    std::printf("%s\n", answer.dump(2).c_str());
  } else {
    std::fputs(llm::render_llm_text(answer).c_str(), stdout);
    if (!a.html.empty()) std::printf("html     %s\n", a.html.c_str());
  }
}

}  // namespace

void add_llm_command(CLI::App& app, CliState&) {
  auto* cmd = app.add_subcommand("llm", "LLM inference bounds (decode per batch, prefill) from a run's measured roofline");
  auto a = std::make_shared<LlmArgs>();
  cmd->add_option("--config", a->config, "A Hugging Face config.json, or a shipped model: llama-2-7b, llama-2-70b, "
                                         "llama-3-8b, llama-3.2-1b")->required();
  cmd->add_option("--results", a->results, "A results file of `roofline run` (default: the newest in results/)");
  cmd->add_option("--weights", a->weights, "Precision of the weights: bf16 (default), fp32, int8");
  cmd->add_option("--kv", a->kv, "Precision of the KV cache: bf16 (default), fp32, int8");
  cmd->add_option("--batches", a->batches, "Decode batches (sequences), e.g. 1,8,64 (default)");
  cmd->add_option("--context", a->context, "Tokens in each sequence's KV cache during decode (default 4096)");
  cmd->add_option("--prompt", a->prompt, "Prompt tokens for prefill, e.g. 512 (default) or 128,512");
  cmd->add_option("--threads", a->threads, "Thread count whose ceilings to use (default: the largest with a DRAM roof)");
  cmd->add_option("--roof", a->roof, "Compute roof: peak (FMA-kernel ceiling, default) or gemm (best GEMM the run attained)");
  cmd->add_option("--html", a->html, "Also write a self-contained HTML page here");
  cmd->add_flag("--json", a->json, "Print the answer as JSON instead of tables");
  cmd->add_flag("--measure", a->measure, "Time one layer at the model's shapes here and compare with the estimate");
  cmd->add_flag("--force", a->force, "Overwrite an existing --html file");
  cmd->callback([a] { run_llm(*a); });
}

}  // namespace roofline::cli
