// The llm suite (issue 21): one transformer layer of a model timed as a chain of GEMMs through the harness,
// one BenchmarkSpec per decode batch and prefill prompt at every thread count: see llm_chain.hpp. Setup
// (allocation, first-touch fill by the pinned team, weight packing, primitive creation) happens before the
// specs run; the layer's weights are prepared once per thread count for every step, each step's KV cache
// before its spec and released after it. With quantized weights (issue 48) the weight operations and lm_head are
// our dequant-dot GEMVs (llm_quant.hpp), each weight rotated over copies, and the spec adds the model step.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "roofline/harness/benchmark_name.hpp"
#include "roofline/drivers/llm_chain.hpp"
#include "roofline/drivers/llm_quant.hpp"
#include "roofline/drivers/llm_target.hpp"  // kLlmSuite
#include "roofline/facts/pinning.hpp"
#include "roofline/harness/plausible_caches.hpp"
#include "roofline/harness/target.hpp"
#include "roofline/common/errors.hpp"

namespace roofline {
using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;

struct Setup {
  const RunConfig& config;
  const LlmSuiteInput& input;
  int threads = 1;
  std::string weights_backend, kv_backend;
  int copies = 1;  // quantized weights: instances each weight problem rotates over (llm_quant.hpp)
};

bool quantized_weights(const Setup& s, const llm::Op& op) {
  return op.weight_bytes > 0.0 && llm::quantized_chain(s.input.request.precisions);
}

const GemmBackend& backend_of(const Setup& s, const llm::Op& op) {
  const bool weights = op.weight_bytes > 0.0;
  return *find_gemm_backend(weights ? s.weights_backend : s.kv_backend);
}

GemmRequest request_for(const Setup& s, const llm::GemmCall& call, std::int64_t max_n, Precision p) {
  GemmRequest g;
  g.m = call.m;
  g.k = call.k;
  g.max_n = std::max(max_n, call.n);
  g.precision = p;
  g.threads = s.threads;
  g.features = s.config.features;
  return g;
}

// The quantized weights of `op` as dequant-dot GEMVs (llm_quant.hpp), every instance `copies` times over.
bool prepare_quant_stage(const Setup& s, const llm::Op& op, std::int64_t max_n, double& used, ChainStage& out) {
  const std::optional<QuantWeights> w = quant_weights_of(op.format);
  const QuantDotVariant* kernel = w ? best_quant_kernel(w->format, s.config.features) : nullptr;
  if (kernel == nullptr) throw InputError(fmt::format("--measure: no dequant-dot kernel runs {} ({}) here", op.format, op.name));
  double need = 0.0;
  for (const llm::GemmCall& call : op.calls) {
    need += static_cast<double>(call.count) * quant_problem_bytes(*w, call.m, call.k, std::max(max_n, call.n), s.copies);
  }
  if (used + need > static_cast<double>(s.config.memory_budget_bytes)) return false;
  used += need;
  out.name = op.name;
  std::uint64_t seed = 48;
  for (const llm::GemmCall& call : op.calls) {
    for (std::int64_t i = 0; i < call.count; ++i) {
      out.problems.push_back(prepare_quant_problem(*kernel, *w, call.m, call.k, std::max(max_n, call.n), s.threads, s.copies, seed++));
      out.batches.push_back(call.n);
    }
  }
  out.active = out.problems.size();
  return true;
}

// Prepares every instance of `op` unless that would take `used` past the budget; returns false then.
bool prepare_stage(const Setup& s, const llm::Op& op, std::int64_t max_n, double& used, ChainStage& out) {
  if (quantized_weights(s, op)) return prepare_quant_stage(s, op, max_n, used, out);
  const GemmBackend& backend = backend_of(s, op);
  double need = 0.0;
  for (const llm::GemmCall& call : op.calls) {
    need += static_cast<double>(call.count) * backend.footprint_bytes(request_for(s, call, max_n, op.precision));
  }
  if (used + need > static_cast<double>(s.config.memory_budget_bytes)) return false;
  used += need;
  out.name = op.name;
  for (const llm::GemmCall& call : op.calls) {
    for (std::int64_t i = 0; i < call.count; ++i) {
      out.problems.push_back(backend.prepare(request_for(s, call, max_n, op.precision)));
      out.batches.push_back(call.n);
    }
  }
  out.active = out.problems.size();
  return true;
}

double layer_share(const llm::Op& op, std::int64_t layers) { return llm::op_times(op, layers) / static_cast<double>(layers); }

std::string budget_text(const RunConfig& c) { return fmt::format("{:.3g} GB", static_cast<double>(c.memory_budget_bytes) / 1e9); }

// The stages of one step: the prepared weights (as many experts as it touches, at its batch) and its own
// attention over a KV cache prepared now; what does not fit is said in `note`.
std::vector<ChainStage> step_stages(const Setup& s, const LlmStepPlan& step, const std::vector<ChainStage>& weights,
                                    double used, std::string& note, bool& complete) {
  std::vector<ChainStage> stages;
  for (const llm::Op& op : step.ops) {
    ChainStage stage;
    if (op.weight_bytes > 0.0) {
      const auto w = std::find_if(weights.begin(), weights.end(), [&](const ChainStage& c) { return c.name == op.name; });
      if (w == weights.end()) continue;  // left out of the budget: said by the weights note
      stage = *w;
      const llm::GemmCall& call = op.calls.front();  // routed experts: `count` experts of n tokens each
      stage.active = std::min(stage.problems.size(), static_cast<std::size_t>(call.count));
      std::fill(stage.batches.begin(), stage.batches.end(), call.n);
    } else if (!prepare_stage(s, op, 0, used, stage)) {
      complete = false;
      note += fmt::format("{}{} not measured: its KV cache does not fit in the memory budget ({})", note.empty() ? "" : "; ",
                          op.name, budget_text(s.config));
      continue;
    }
    // A once-per-model operation (lm_head, timed by the quantized chain) is no share of the layer; it counts once
    // in the step.
    stage.weight = op.per_layer ? layer_share(op, s.input.config.layers) : 0.0;
    if (llm::quantized_chain(s.input.request.precisions)) stage.step_weight = llm::op_times(op, s.input.config.layers);
    stages.push_back(std::move(stage));
  }
  return stages;
}

// The weight bytes one chain iteration streams (every weight operation once: the layer's and lm_head).
double step_weight_bytes(const std::vector<llm::Op>& ops) {
  double bytes = 0.0;
  for (const llm::Op& op : ops) bytes += op.weight_bytes;
  return bytes;
}

json step_labels(const Setup& s, const LlmStepPlan& step, bool complete) {
  const llm::Precisions& p = s.input.request.precisions;
  json l = {{"suite", "llm"},
            {"kernel", "llm_layer"},
            {"model", s.input.config.name},
            {"step", step.id},
            {"phase", step.step.phase == llm::Phase::decode ? "decode" : "prefill"},
            {"threads", s.threads},
            {"precision", std::string(to_string(p.weights))},
            {"kv_precision", std::string(to_string(p.kv))},
            {"backend", s.weights_backend},
            {"kv_backend", s.kv_backend},
            {"complete", complete}};
  if (step.step.phase == llm::Phase::decode) {
    l["batch"] = step.step.batch;
    l["context"] = step.step.context;
  } else {
    l["prompt_tokens"] = step.step.prompt;
  }
  if (llm::quantized_chain(p)) {
    l["format"] = p.stored().name;
    l["weights_copies"] = s.copies;
    l["working_set_bytes"] = static_cast<double>(s.copies) * step_weight_bytes(step.ops);
  }
  const auto e = s.input.estimated_seconds.find(step.id);
  if (e != s.input.estimated_seconds.end()) l["estimated_seconds"] = e->second;
  return l;
}

}  // namespace

std::string llm_spec_name(const LlmSuiteInput& input, int threads, const LlmStepPlan& step) {
  const llm::Precisions& p = input.request.precisions;
  const std::string weights = llm::quantized_chain(p) ? p.stored().name : std::string(to_string(p.weights));
  // The harness's key (benchmark_name.hpp): kv before threads and the step after them, as every llm file has it.
  BenchmarkKey key(kLlmSuite, {input.config.name, weights, name_segment("kv", to_string(p.kv))});
  key.threads = threads;
  if (step.step.phase == llm::Phase::decode) {
    key.tail = {"decode", name_segment("batch", step.step.batch), name_segment("context", step.step.context)};
  } else {
    key.tail = {"prefill", name_segment("prompt", step.step.prompt)};
  }
  return benchmark_name(key);
}

namespace {

// The weights of the layer at one thread count, prepared once for every step; `note` says what did not fit.
std::vector<ChainStage> prepare_weights(const Setup& s, const LlmPlan& plan, double& used, std::string& note) {
  std::vector<ChainStage> weights;
  for (const llm::Op& op : plan.weight_ops) {
    ChainStage stage;
    if (!prepare_stage(s, op, plan.max_tokens, used, stage)) {
      note = fmt::format("the layer does not fit in the memory budget ({}): {} and later projections not measured",
                         budget_text(s.config), op.name);
      break;
    }
    weights.push_back(std::move(stage));
  }
  return weights;
}

void run_at_threads(Setup& s, const MachineFacts& machine, const LlmPlan& plan, Runner& runner, SuiteOutput& out) {
  if (s.config.bind != BindPolicy::none) pin_openmp_threads(s.threads, binding_plan(machine, s.threads, s.config.bind));
  const LlmProfile profile = llm_profile(s.config.profile);
  if (llm::quantized_chain(s.input.request.precisions)) {
    // Enough copies that one rotation streams at least 4x what the threads may cache (the plausible caches, or the
    // most a real CPU caches where the last level's size is not: dram_threshold_bytes): the weights come from memory.
    const double iteration = step_weight_bytes(plan.weight_ops);
    const double cache = static_cast<double>(dram_threshold_bytes(machine, s.threads, s.config.bind));
    s.copies = iteration > 0.0 ? std::max(1, static_cast<int>(std::ceil(kQuantChainCacheFactor * cache / iteration))) : 1;
  }
  double used = 0.0;
  std::string weights_note;
  const auto started = Clock::now();
  const std::vector<ChainStage> weights = prepare_weights(s, plan, used, weights_note);
  out.context["prepare_seconds"][std::to_string(s.threads)] = std::chrono::duration<double>(Clock::now() - started).count();
  if (!weights_note.empty()) out.notes.push_back(fmt::format("llm: {} threads: {}", s.threads, weights_note));
  for (const LlmStepPlan& step : plan.steps) {
    if (s.input.progress != nullptr) s.input.progress->update(fmt::format("{} threads {}: preparing", step.id, s.threads));
    std::string note = weights_note;
    bool complete = weights_note.empty();
    std::vector<ChainStage> stages = step_stages(s, step, weights, used, note, complete);
    json implementations = json::array();
    for (ChainStage& stage : stages) {
      for (std::size_t k = 0; k < stage.active; ++k) stage.problems[k]->select_batch(stage.batches[k]);
      if (stage.active > 0) implementations.push_back(stage.name + ": " + stage.problems.front()->implementation());
    }
    out.context["steps"].push_back({{"id", step.id}, {"threads", s.threads}, {"implementations", implementations},
                                    {"complete", complete}, {"note", note}});
    if (!note.empty()) out.notes.push_back(fmt::format("llm: {} at {} threads: {}", step.id, s.threads, note));
    runner.run({chain_step_spec(llm_spec_name(s.input, s.threads, step), step_labels(s, step, complete), std::move(stages), profile.repetitions,
                                profile.min_time_s)});
  }
}

}  // namespace

BenchmarkSpec chain_step_spec(const std::string& name, const json& labels, std::vector<ChainStage> stages, int repetitions,
                              double min_time_s) {
  BenchmarkSpec spec;
  spec.name = name;
  spec.labels = labels;
  spec.repetitions = repetitions;
  spec.min_time_s = min_time_s;
  const bool complete = labels.value("complete", true);
  auto chain = std::make_shared<std::vector<ChainStage>>(std::move(stages));
  spec.body = [chain, complete](benchmark::State& state) {
    std::vector<ChainStage>& st = *chain;
    try {
      for (ChainStage& s : st) {  // setup: the batch each problem runs, then one call each (page mapping, JIT caches)
        for (std::size_t k = 0; k < s.active; ++k) s.problems[k]->select_batch(s.batches[k]);
        for (std::size_t k = 0; k < s.active; ++k) s.problems[k]->run();
      }
    } catch (const std::exception& ex) {
      state.SkipWithError(ex.what());
      return;
    }
    std::vector<double> seconds(st.size(), 0.0);
    for (auto _ : state) {
      for (std::size_t i = 0; i < st.size(); ++i) {
        const auto t0 = Clock::now();
        for (std::size_t k = 0; k < st[i].active; ++k) st[i].problems[k]->run();
        seconds[i] += std::chrono::duration<double>(Clock::now() - t0).count();
      }
    }
    for (const ChainStage& s : st) {
      for (std::size_t k = 0; k < s.active; ++k) {
        const GemmCheck check = s.problems[k]->validate();
        if (!check.ok) {
          state.SkipWithError(fmt::format("wrong product in {}: {}", s.name, check.message).c_str());
          return;
        }
      }
    }
    using benchmark::Counter;
    double layer = 0.0;
    for (std::size_t i = 0; i < st.size(); ++i) {
      state.counters[st[i].name + "_seconds"] = Counter(seconds[i], Counter::kAvgIterations);
      layer += st[i].weight * seconds[i];
    }
    // A layer with operations left out (budget) is no layer time: only its operations' times are written.
    if (complete) state.counters["layer_seconds"] = Counter(layer, Counter::kAvgIterations);
    double step = 0.0;
    for (std::size_t i = 0; i < st.size(); ++i) step += st[i].step_weight * seconds[i];
    if (complete && step > 0.0) state.counters["step_seconds"] = Counter(step, Counter::kAvgIterations);
  };
  return spec;
}

void run_llm_suite(const RunConfig& config, const MachineFacts& machine, const LlmSuiteInput& input, Runner& runner,
                   SuiteOutput& out) {
  const bool quantized = llm::quantized_chain(input.request.precisions);
  Setup s{config, input, 1, quantized ? std::string(kQuantChainBackend) : chain_backend(input.request.precisions.weights, config.backends),
          chain_backend(input.request.precisions.kv, config.backends)};
  const LlmPlan plan = plan_llm(input);
  const LlmProfile profile = llm_profile(config.profile);
  json& ctx = out.context;
  ctx["model"] = input.config.name;
  ctx["weights"] = std::string(to_string(input.request.precisions.weights));
  ctx["kv"] = std::string(to_string(input.request.precisions.kv));
  ctx["backends"] = {{"weights", s.weights_backend}, {"kv", s.kv_backend}};
  ctx["budget_bytes"] = config.memory_budget_bytes;
  ctx["repetitions"] = profile.repetitions;
  ctx["min_time_s"] = profile.min_time_s;
  ctx["timing"] = "one spec per step, run by Google Benchmark (real time); each iteration runs the layer's operations in "
                  "order, each clocked; layer_seconds = the sum of the operations' times per iteration, each weighted by "
                  "its share of the average layer; one call of every operation before timing";
  ctx["validation"] = "every product after timing (check_gemm: column sums and sampled dot products, exact)";
  ctx["steps"] = json::array();
  if (quantized) {
    ctx["weights_format"] = input.request.precisions.stored().name;
    ctx["quantized"] = fmt::format("every weight GEMM of the layer and lm_head as our dequant-dot GEMV (one activation column "
                                   "after another, batch 1-{}), its weights rotated over copies streaming at least {}x the "
                                   "caches the threads use (the plausible ones, or 32 MiB a core where the last level's "
                                   "size is not plausible); attention on the KV backend; step_seconds = layers x the layer + lm_head",
                                   kQuantChainMaxBatch, kQuantChainCacheFactor);
    ctx["validation"] = "every quantized GEMV after timing against the double-precision dequantized reference (every row, "
                        "every 61st of a matrix above 1M weights); every KV product by check_gemm";
  }
  ctx["skipped"] = plan.skipped;
  for (const std::string& why : plan.skipped) out.notes.push_back("llm: " + why);
  for (int threads : config.thread_counts) {
    s.threads = threads;
    run_at_threads(s, machine, plan, runner, out);
  }
}

}  // namespace roofline
