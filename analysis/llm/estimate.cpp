// Placing LLM operations on the measured roofline: see estimate.hpp.
#include "roofline/llm/estimate.hpp"

#include <algorithm>

namespace roofline::llm {

double step_bytes(const std::vector<Op>& ops, std::int64_t layers) {
  double bytes = 0.0;
  for (const Op& op : ops) bytes += op.bytes() * (op.per_layer ? static_cast<double>(layers) : 1.0);
  return bytes;
}

StepEstimate estimate_step(const std::vector<Op>& ops, std::int64_t layers, const Roofs& roofs, double working_set,
                           Precision weights) {
  StepEstimate s;
  s.layers = layers;
  const MemoryRoof& level = roofs.level_for(working_set);
  s.level = level.level;
  double compute_bound_seconds = 0.0;
  for (const Op& op : ops) {
    OpEstimate e;
    e.op = op;
    e.level = level.level;
    e.bandwidth = roofs.bandwidth(level, op.precision);
    e.compute_roof = roofs.compute.at(op.precision).value;
    e.ai = op.bytes() > 0.0 ? op.flops / op.bytes() : 0.0;
    e.compute_seconds = op.flops / e.compute_roof;
    e.memory_seconds = op.bytes() / e.bandwidth;
    e.bound = e.compute_seconds >= e.memory_seconds && op.flops > 0.0 ? Bound::compute : Bound::memory;
    e.seconds = std::max(e.compute_seconds, e.memory_seconds);
    const double times = op.per_layer ? static_cast<double>(layers) : 1.0;
    if (op.per_layer) s.layer_seconds += e.seconds;
    s.seconds += times * e.seconds;
    s.flops += times * op.flops;
    s.bytes += times * op.bytes();
    (e.bound == Bound::memory ? s.memory_bound_seconds : compute_bound_seconds) += times * e.seconds;
    s.ops.push_back(std::move(e));
  }
  s.bound = s.memory_bound_seconds >= compute_bound_seconds ? Bound::memory : Bound::compute;
  s.mbu = s.seconds > 0.0 ? s.bytes / s.seconds / level.bandwidth : 0.0;
  s.mfu = s.seconds > 0.0 ? s.flops / s.seconds / roofs.compute.at(weights).peak : 0.0;
  return s;
}

}  // namespace roofline::llm
