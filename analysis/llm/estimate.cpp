// Placing LLM operations on the measured roofline: see estimate.hpp.
#include "roofline/llm/estimate.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "roofline/llm/quant.hpp"

namespace roofline::llm {

std::string_view to_string(Limit l) {
  switch (l) {
    case Limit::memory: return "memory";
    case Limit::compute: return "compute";
    case Limit::dequant: return "dequant";
  }
  return "memory";
}

double step_bytes(const std::vector<Op>& ops, std::int64_t layers) {
  double bytes = 0.0;
  for (const Op& op : ops) bytes += op.bytes() * op_times(op, layers);
  return bytes;
}

namespace {

OpEstimate estimate_op(const Op& op, const Roofs& roofs, const MemoryRoof& level) {
  OpEstimate e;
  e.op = op;
  e.level = level.level;
  e.bandwidth = roofs.bandwidth(level, op.precision);
  e.compute_roof = roofs.compute.at(op.precision).value;
  e.ai = op.bytes() > 0.0 ? op.flops / op.bytes() : 0.0;
  e.compute_seconds = op.flops / e.compute_roof;
  e.memory_seconds = op.bytes() / e.bandwidth;
  if (op.dequant_ops > 0.0) {
    const std::string family = dequant_family(op.format);
    const auto measured = roofs.dequant.find(family);
    if (!family.empty() && measured != roofs.dequant.end() && op.dequant_weights > 0.0) {
      // The measured kernel: unpack and multiply each weight once per step (a tile kernel for every token of it).
      e.dequant_seconds = op.dequant_weights / measured->second.weights_per_second;
      e.dequant_roof = fmt::format("{} dequant-dot {} {}", family, measured->second.isa, measured->second.level);
    } else {
      // read_roofs sets the rate whenever a quantized format is asked for (it needs the fp32 ceiling).
      if (roofs.dequant_rate <= 0.0) throw std::logic_error("llm: a quantized operation without a dequantization rate");
      e.dequant_seconds = op.dequant_ops / roofs.dequant_rate;
      e.dequant_roof = "convention";
    }
  }
  e.bound = e.compute_seconds >= e.memory_seconds && op.flops > 0.0 ? Bound::compute : Bound::memory;
  e.limit = e.bound == Bound::compute ? Limit::compute : Limit::memory;
  e.seconds = std::max(e.compute_seconds, e.memory_seconds);
  if (e.dequant_seconds > e.seconds) {
    e.limit = Limit::dequant;
    e.seconds = e.dequant_seconds;
  }
  return e;
}

}  // namespace

StepEstimate estimate_step(const std::vector<Op>& ops, std::int64_t layers, const Roofs& roofs, double working_set,
                           Precision weights) {
  StepEstimate s;
  s.layers = layers;
  const MemoryRoof& level = roofs.level_for(working_set);
  s.level = level.level;
  for (const Op& op : ops) {
    OpEstimate e = estimate_op(op, roofs, level);
    const double times = op_times(op, layers);
    if (op.per_layer) s.layer_seconds += times * e.seconds / static_cast<double>(layers);
    s.seconds += times * e.seconds;
    s.flops += times * op.flops;
    s.bytes += times * op.bytes();
    s.dequant_ops += times * op.dequant_ops;
    s.memory_seconds += times * e.memory_seconds;
    s.compute_seconds += times * e.compute_seconds;
    s.dequant_seconds += times * e.dequant_seconds;
    (e.limit == Limit::memory ? s.memory_bound_seconds
                              : e.limit == Limit::compute ? s.compute_bound_seconds : s.dequant_bound_seconds) +=
        times * e.seconds;
    s.ops.push_back(std::move(e));
  }
  s.bound = s.memory_bound_seconds >= s.compute_bound_seconds ? Bound::memory : Bound::compute;
  s.limit = s.bound == Bound::memory ? Limit::memory : Limit::compute;
  if (s.dequant_bound_seconds > std::max(s.memory_bound_seconds, s.compute_bound_seconds)) s.limit = Limit::dequant;
  s.bandwidth = level.bandwidth;
  s.peak = roofs.compute.at(weights).peak;
  s.mbu = s.seconds > 0.0 ? s.bytes / s.seconds / level.bandwidth : 0.0;
  s.mfu = s.seconds > 0.0 ? s.flops / s.seconds / s.peak : 0.0;
  return s;
}

}  // namespace roofline::llm
