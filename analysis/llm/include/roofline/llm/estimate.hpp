// Placing each operation of a decode or prefill step on the measured roofline: compute time = FLOPs / the
// compute roof of its precision, memory time = bytes / the roof of the level its working set fits in,
// dequantization time = the element operations that unpack quantized weights / the vector units' element
// rate (half the fp32 FMA peak in FLOP/s), time = the largest of the three (what limits it), summed over
// the operations of a layer and over the model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "roofline/model/model.hpp"
#include "roofline/llm/ops.hpp"
#include "roofline/llm/roofs.hpp"

namespace roofline::llm {

// What limits an operation or a step: the memory roof, the compute roof, or unpacking quantized weights.
enum class Limit { memory, compute, dequant };
std::string_view to_string(Limit l);

struct OpEstimate {
  Op op;
  double ai = 0.0;           // FLOP/byte
  double compute_seconds = 0.0;
  double memory_seconds = 0.0;
  double dequant_seconds = 0.0;
  double seconds = 0.0;      // max(compute, memory, dequant)
  Bound bound = Bound::memory;  // of compute and memory, the larger (the roofline's two bounds)
  Limit limit = Limit::memory;  // of all three
  std::string level = "DRAM";  // the memory roof used (the target's level name)
  double bandwidth = 0.0;    // B/s of that roof
  double compute_roof = 0.0;  // FLOP/s (OP/s) of that roof
  // The dequantization roof used: "<family> dequant-dot <isa> <level>" (measured), "convention" (half the fp32
  // FMA peak: the file has no dequant-dot ceiling of the format), "" for native weights.
  std::string dequant_roof;
};

struct StepEstimate {
  std::vector<OpEstimate> ops;  // one layer's operations, then the once-per-model ones
  std::int64_t layers = 0;
  double layer_seconds = 0.0;   // one layer
  double seconds = 0.0;         // layers x layer + once-per-model operations
  double flops = 0.0;           // of the whole step
  double bytes = 0.0;
  double dequant_ops = 0.0;
  double memory_bound_seconds = 0.0;  // of `seconds`, spent in memory-bound operations
  double compute_bound_seconds = 0.0;
  double dequant_bound_seconds = 0.0;
  double memory_seconds = 0.0;   // every operation's memory time, summed (what the step takes at MBU 1)
  double compute_seconds = 0.0;  // every operation's compute time at its roof, summed
  double dequant_seconds = 0.0;
  Bound bound = Bound::memory;  // memory when memory-bound operations take at least half the time
  Limit limit = Limit::memory;  // the limit whose operations take the most time
  std::string level = "DRAM";   // where the working set lives (the target's level name)
  double mbu = 0.0;             // (bytes / seconds) / that level's roof
  double mfu = 0.0;             // (flops / seconds) / the weights precision's FMA peak
  double bandwidth = 0.0;       // B/s of the level's roof
  double peak = 0.0;            // FLOP/s (OP/s) of the weights precision's FMA peak
};

// Estimates a step of `layers` layers. `working_set` is the bytes touched between two uses of the same
// operand (a whole model step for inference; one layer's for the --measure chain, which repeats one layer).
StepEstimate estimate_step(const std::vector<Op>& ops, std::int64_t layers, const Roofs& roofs, double working_set,
                           Precision weights);

// Bytes one step moves over all layers (the working set of estimate_step for a whole model).
// `layer_seconds` of a step is its average layer: the step's per-layer time / layers.
double step_bytes(const std::vector<Op>& ops, std::int64_t layers);

}  // namespace roofline::llm
