// Setting what the --measure chain timed beside the estimate: per decode batch and per prefill prompt,
// each of one layer's operations and the layer, estimated_seconds vs measured_seconds (the median pass)
// and the residual (estimated - measured) / measured; also the fastest pass (measured_best_seconds,
// residual_best), the statistic the ceilings use (their best repetition), which a shared machine's
// preemptions disturb least. The chain repeats one layer, so its estimate places the operations
// against the level one layer's working set fits in (the whole model's estimate uses the model's).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "roofline/llm/answer.hpp"
#include "roofline/llm/config.hpp"
#include "roofline/llm/roofs.hpp"
#include "roofline/llm/summary.hpp"

namespace roofline::llm {

// What one timed step of the chain gave (filled by bench/drivers/llm_chain.cpp).
struct MeasuredStep {
  Phase phase = Phase::decode;
  std::int64_t batch = 1;    // decode
  std::int64_t context = 0;  // decode
  std::int64_t prompt = 0;   // prefill
  std::map<std::string, double> op_seconds;  // median per operation; an operation left out was not measured
  std::map<std::string, double> op_best_seconds;  // fastest pass per operation
  double layer_seconds = 0.0;                // median of the summed chain (0: not measured)
  double layer_best_seconds = 0.0;           // fastest pass of the chain (0: not measured)
  double step_seconds = 0.0;       // the quantized chain: layers x its layer + lm_head, median (0: not measured)
  double step_best_seconds = 0.0;  // the same, fastest pass
  double working_set_bytes = 0.0;  // what one chain iteration cycles through (0: one layer's bytes)
  int repetitions = 0;
  std::vector<std::string> implementations;  // what the libraries ran
  std::string note;                          // why something was not measured
};

// Whether --measure times the weights with the dequant-dot kernels (a quantized storage format, issue 48):
// that chain times lm_head too, and gives the model step beside the layer.
bool quantized_chain(const Precisions& p);

// The ops the chain runs for a step: one layer's (decode_ops or prefill_ops, per-layer ones only), and
// lm_head (once per model) in the quantized chain.
std::vector<Op> chain_ops(const ModelConfig& c, const Precisions& p, const MeasuredStep& step);

// One row per step: one layer's operations and the layer, estimated beside measured (an operation or a layer
// left out was not measured); the quantized chain's rows add the model step (layers x its layer + lm_head).
// A step's working set is its working_set_bytes when given (the quantized chain's rotated copies), else one
// layer's. to_json (answer.hpp) writes it as the answer's "measured".
MeasuredComparison compare_measured(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs,
                                    const std::vector<MeasuredStep>& steps);

// The roofs with the DRAM roof replaced by `bandwidth` (the read kernel measured beside the chain) and
// no GEMV bandwidth: the roofline of the moment.
Roofs at_memory_roof(const Roofs& roofs, double bandwidth);

// Sets beside each step and operation of `measured` (compare_measured against the results file's roofs)
// the estimate against the roof of the moment (`moment`: compare_measured of the same steps against
// at_memory_roof of the mean of `before` and `after`, measured just before and after the chain).
void add_moment(MeasuredComparison& measured, const MeasuredComparison& moment, double before, double after);

}  // namespace roofline::llm
