// Estimated vs measured for the --measure chain: see measured.hpp.
#include "roofline/llm/measured.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "roofline/llm/estimate.hpp"

namespace roofline::llm {
bool quantized_chain(const Precisions& p) { return p.stored().quantized(); }

std::vector<Op> chain_ops(const ModelConfig& c, const Precisions& p, const MeasuredStep& step) {
  std::vector<Op> all = step.phase == Phase::decode ? decode_ops(c, p, step.batch, step.context) : prefill_ops(c, p, step.prompt);
  const bool with_lm_head = quantized_chain(p);
  std::vector<Op> layer;
  for (Op& op : all) {
    if (op.per_layer || (with_lm_head && op.weight_bytes > 0.0 && !op.calls.empty())) layer.push_back(as_chain_runs(op));
  }
  return layer;
}

namespace {

std::optional<double> measured_if(double seconds) { return seconds > 0.0 ? std::optional<double>(seconds) : std::nullopt; }

std::optional<double> find_seconds(const std::map<std::string, double>& seconds, const std::string& op) {
  const auto it = seconds.find(op);
  return it != seconds.end() ? std::optional<double>(it->second) : std::nullopt;
}

MeasuredRow measured_row(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs, const MeasuredStep& m) {
  const std::vector<Op> ops = chain_ops(c, r.precisions, m);
  // The chain's layer is the model's average layer: operations only some layers have count for their share.
  const double working_set = m.working_set_bytes > 0.0 ? m.working_set_bytes : step_bytes(ops, c.layers) / static_cast<double>(c.layers);
  const StepEstimate e = estimate_step(ops, c.layers, roofs, working_set, r.precisions.weights);
  MeasuredRow row;
  row.phase = m.phase;
  if (m.phase == Phase::decode) {
    row.id = fmt::format("decode-b{}", m.batch);
    row.title = fmt::format("Measured: one layer, decode at batch {}, context {}", m.batch, m.context);
    row.batch = m.batch;
    row.context = m.context;
  } else {
    row.id = fmt::format("prefill-p{}", m.prompt);
    row.title = fmt::format("Measured: one layer, prefill of {} tokens", m.prompt);
    row.prompt_tokens = m.prompt;
  }
  row.level = e.level;
  row.layer = {e.layer_seconds, measured_if(m.layer_seconds), measured_if(m.layer_best_seconds), std::nullopt};
  row.repetitions = m.repetitions;
  row.implementations = m.implementations;
  row.note = m.note;
  for (const OpEstimate& oe : e.ops) {
    row.ops.push_back({oe, {oe.seconds, find_seconds(m.op_seconds, oe.op.name), find_seconds(m.op_best_seconds, oe.op.name),
                            std::nullopt}});
  }
  if (quantized_chain(r.precisions)) {
    // The model step of the quantized chain: layers x the layer + lm_head.
    row.format = r.precisions.stored().name;
    row.step = MeasuredModelStep{{e.seconds, measured_if(m.step_seconds), measured_if(m.step_best_seconds), std::nullopt},
                                 e.limit, e.memory_bound_seconds, e.dequant_bound_seconds, e.compute_bound_seconds};
  }
  return row;
}

}  // namespace

MeasuredComparison compare_measured(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs,
                                    const std::vector<MeasuredStep>& steps) {
  MeasuredComparison out;
  for (const MeasuredStep& m : steps) out.steps.push_back(measured_row(c, r, roofs, m));
  for (const MeasuredStep& m : steps) {
    if (m.phase != Phase::prefill) continue;
    // What the chain's blocks compute beyond the causal pairs the model counts.
    const double p = static_cast<double>(m.prompt), b = static_cast<double>(std::min(kCausalBlock, m.prompt));
    const double blocks = std::ceil(p / b);
    const double chain_pairs = b * b * blocks * (blocks + 1) / 2;  // upper bound when the last block is full
    out.notes.push_back(fmt::format("prefill of {} tokens: the chain computes causal attention in query blocks of {} (the "
                                    "diagonal block in full), up to {:.1f}% more score/value FLOPs than the P(P+1)/2 pairs "
                                    "the model counts", m.prompt, static_cast<long long>(b),
                                    100.0 * (chain_pairs / (p * (p + 1) / 2) - 1)));
  }
  for (const MeasuredStep& m : steps) {
    if (!quantized_chain(r.precisions) || m.phase != Phase::decode || m.batch <= 1) continue;
    out.notes.push_back(fmt::format("decode at batch {}: the chain's dequant-dot GEMV unpacks and multiplies every weight once per "
                                    "activation column ({} times, ggml's vec_dot path), the estimate once per step (a kernel that "
                                    "unpacks a tile once for the batch): the measured step can take up to {}x its dequant-bound time",
                                    m.batch, m.batch, m.batch));
  }
  out.residual = "(estimated - measured) / measured; measured = the median pass (residual_best: the fastest pass)";
  out.working_set = "the chain repeats one layer: its estimate uses the level one layer's working set fits in";
  return out;
}

Roofs at_memory_roof(const Roofs& roofs, double bandwidth) {
  Roofs moment = roofs;
  moment.levels.back().bandwidth = bandwidth;
  moment.gemv_bandwidth.clear();
  return moment;
}

void add_moment(MeasuredComparison& measured, const MeasuredComparison& moment, double before, double after) {
  for (std::size_t i = 0; i < measured.steps.size(); ++i) {
    MeasuredRow& row = measured.steps[i];
    const MeasuredRow& now = moment.steps[i];
    row.layer.estimated_seconds_moment = now.layer.estimated_seconds;
    if (row.step && now.step) row.step->time.estimated_seconds_moment = now.step->time.estimated_seconds;
    for (std::size_t k = 0; k < row.ops.size(); ++k) row.ops[k].time.estimated_seconds_moment = now.ops[k].time.estimated_seconds;
  }
  measured.notes.push_back(fmt::format(
      "DRAM read roof measured beside the chain: {:.3g} GB/s before, {:.3g} GB/s after ({:+.1f} %); the 'roof now' "
      "residuals use their mean in place of the results file's DRAM roof (levels the chain fits in are unchanged)",
      before / 1e9, after / 1e9, before > 0.0 ? 100.0 * (after - before) / before : 0.0));
  measured.memory_roof_moment = MemoryRoofMoment{before, after};
}

}  // namespace roofline::llm
