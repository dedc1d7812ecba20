// The roofline model itself: attainable = min(peak, bandwidth x arithmetic intensity); the ridge point is
// the intensity where both limits meet, peak / bandwidth. Pure functions, base units throughout
// (FLOP/s or OP/s, B/s, FLOP/byte).
#pragma once

#include <string_view>

namespace roofline {

enum class Bound { memory, compute };
std::string_view to_string(Bound b);

struct RoofEvaluation {
  double attainable = 0.0;  // FLOP/s (or OP/s)
  Bound bound = Bound::memory;
  double ridge_ai = 0.0;    // FLOP/byte
  bool at_ridge = false;    // exactly at the ridge both limits meet; reported as compute-bound
};

// Ridge point = peak / bandwidth. Throws InputError unless both are positive and finite.
double ridge_point(double peak, double bandwidth);

// Attainable performance and bound for a kernel of intensity `ai` under one compute and one memory ceiling.
// AI below the ridge is memory-bound; at or above it, compute-bound. Throws InputError on inputs that are
// zero, negative or not finite.
RoofEvaluation evaluate_roof(double peak, double bandwidth, double ai);

}  // namespace roofline
