// hold_at_least / iterations_to_hold: see measure.hpp. The harness times each call of a DeviceWork's run(1) with
// one event pair; a 20 us GEMV timed alone reads launch cost and event resolution as part of its time (15-40 %
// low), so every device-timed work is made to hold at least a millisecond per call, its counts scaled to match.
// Plain C++ (no CUDA), built in every configuration and tested with a fake work.
#include <algorithm>
#include <cmath>

#include "roofline/cuda/measure.hpp"

namespace roofline::cuda {

std::int64_t iterations_to_hold(double seconds_per_iteration, double min_seconds) {
  if (!(seconds_per_iteration > 0.0) || !std::isfinite(seconds_per_iteration)) return 1;
  const double k = std::ceil(min_seconds / seconds_per_iteration);
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::min(k, 1e9)));
}

void hold_at_least(Work& w, double min_seconds) {
  if (!w.run || !w.device_timed) return;
  (void)w.run(1);                       // warm-up: fills, first-touch, cuBLASLt's first call
  const double once = w.run(1);
  const std::int64_t k = iterations_to_hold(once, min_seconds);
  w.number_labels.emplace_back("iterations_per_call", static_cast<double>(k));
  if (k == 1) return;
  const auto scale = static_cast<double>(k);
  w.bytes *= scale;
  w.flop *= scale;
  w.op *= scale;
  w.run = [inner = std::move(w.run), k](std::int64_t iterations) { return inner(iterations * k); };
}

}  // namespace roofline::cuda
