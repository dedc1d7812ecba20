// The llm suite (`roofline llm --measure`): one transformer layer built at the model's real shapes from the
// GEMM backends (Eigen fp32, oneDNN bf16 and int8 with weights packed once, as the GEMM suite runs them, or
// the first of --backends that runs the precision) and timed as a chain through the harness: per decode batch
// and per prefill prompt one BenchmarkSpec, run by Runner (Google Benchmark: its repetitions, min time and
// random interleaving, real time), whose every iteration runs the layer's operations in order (the
// projections and MLP over the layer's weights; attention as GEMMs over a KV cache of the given context, one
// per sequence and KV head; prefill in causal query blocks). Each operation is clocked inside the iteration
// too, so that an operation only some layers have counts for its share of the average layer
// (counter layer_seconds). Every product is validated after timing; a wrong one fails the entry
// (SkipWithError) and the run. What does not fit in the memory budget is left out and said so.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/facts/machine.hpp"
#include "roofline/harness/progress.hpp"
#include "roofline/harness/run_config.hpp"
#include "roofline/harness/runner.hpp"
#include "roofline/common/vocabulary.hpp"
#include "roofline/kernels/cpu/gemm.hpp"
#include "roofline/llm/measured.hpp"
#include "roofline/llm/summary.hpp"

namespace roofline {

struct SuiteOutput;

// What the llm suite measures besides the RunConfig (threads, binding, ISA, budget, backends, profile).
struct LlmSuiteInput {
  llm::ModelConfig config;
  llm::LlmRequest request;  // precisions, decode batches and context, prefill prompts
  // The estimate of each step's layer (step id "decode-b8", "prefill-p512": llm::compare_measured's ids),
  // stored beside the measurement as labels.estimated_seconds; steps without one carry none.
  std::map<std::string, double> estimated_seconds;
  Progress* progress = nullptr;  // shows the step being set up (optional; the Runner shows the timing)
};

// One step of the plan: decode at a batch or prefill of a prompt, and the layer's operations it runs.
struct LlmStepPlan {
  llm::MeasuredStep step;     // phase, batch, context, prompt (nothing measured yet)
  std::string id;             // "decode-b8", "prefill-p512"
  std::vector<llm::Op> ops;   // the layer's operations for this step (llm::chain_ops)
};

// The steps, decode batches then prefill prompts, and the weights operations prepared once for all of them:
// each as the step touching the most of its weights runs it (routed experts: the most experts).
struct LlmPlan {
  std::vector<LlmStepPlan> steps;
  std::vector<llm::Op> weight_ops;
  std::int64_t max_tokens = 1;  // the largest batch or prompt: the weights' problems are prepared for it
  std::vector<std::string> skipped;  // steps of the request the chain does not run, and why
};
LlmPlan plan_llm(const LlmSuiteInput& input);

// The name of one step's spec at `threads` (the benchmark's name in the results file, and in context.plan):
// "llm/<model>/<weights>/kv:<kv>/threads:<t>/decode/batch:<b>/context:<c>" or ".../prefill/prompt:<p>".
std::string llm_spec_name(const LlmSuiteInput& input, int threads, const LlmStepPlan& step);

// The backend the chain uses for a precision: the first of `allowed` (--backends; empty: eigen for fp32,
// onednn for bf16 and int8) built into this binary that runs it. Throws InputError otherwise, and for a
// name in `allowed` that is no backend.
std::string chain_backend(Precision p, const std::vector<std::string>& allowed = {});

// One operation of the chain as prepared: its problems (every instance of every call), how many of them
// this step runs (routed experts: the experts it touches), the batch each runs, its share of the average
// layer (operations only some layers have).
struct ChainStage {
  std::string name;
  std::vector<std::shared_ptr<GemmProblem>> problems;
  std::vector<std::int64_t> batches;  // per problem: the n select_batch gets
  std::size_t active = 0;
  double weight = 1.0;
  // How many times a model step runs it (the quantized chain, which times lm_head too: its layers for a per-layer
  // operation, 1 for lm_head); 0 everywhere: the chain writes no step_seconds.
  double step_weight = 0.0;
};

// The BenchmarkSpec of one step: its body selects each stage's batches and runs the chain once (setup:
// first-call effects), then in the timed loop runs the chain, clocking each stage; after the loop validates
// every active problem (SkipWithError "wrong product in <stage>: ..." on a mismatch) and sets the counters
// step_seconds (when a stage has a step_weight: the model step, sum of step_weight x the stage's seconds),
// layer_seconds (the weighted sum of the stages per iteration) and <stage>_seconds.
BenchmarkSpec chain_step_spec(const std::string& name, const nlohmann::json& labels, std::vector<ChainStage> stages,
                              int repetitions, double min_time_s);

// The suite: for every thread count of `config`, pins the team (config.bind), prepares the layer's weights
// once, and runs one spec per step through `runner` (each step's KV cache prepared before it, released after).
// Writes the plan, backends, budget and what was left out to out.context; notes to out.notes. Throws
// InputError for precisions no backend here runs.
void run_llm_suite(const RunConfig& config, const MachineFacts& machine, const LlmSuiteInput& input, Runner& runner,
                   SuiteOutput& out);

// Repetitions and minimum time per repetition of the llm suite's specs, per profile.
struct LlmProfile {
  int repetitions = 0;
  double min_time_s = 0.0;
};
LlmProfile llm_profile(Profile profile);

// The steps the suite measured at `threads`, read back from its benchmark entries (labels.suite "llm"):
// the median aggregates give the layer and operation seconds, the min aggregates the fastest repetition.
// What compare_measured sets beside the estimate; a step whose entry failed is absent.
std::vector<llm::MeasuredStep> measured_steps(const std::vector<nlohmann::json>& entries, int threads);

// The DRAM read roof of the moment, measured beside the chain: the best of `passes` passes of the read
// kernel (the kernel of the results file's memory ceilings) over `bytes` on `threads` threads pinned to `pus`
// (empty: not pinned), validated after timing (std::runtime_error on a wrong sum). 0 when the memory is not
// there now.
double measure_memory_roof(int threads, const std::vector<int>& pus, const IsaFeatures& features, std::uint64_t bytes,
                           int passes = 10);

}  // namespace roofline
