// The roofline model: see model.hpp.
#include "roofline/model/model.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"

namespace roofline {
namespace {
void require_positive(double v, std::string_view what) {
  if (!std::isfinite(v) || v <= 0.0) {
    throw InputError(fmt::format("{} must be a positive finite number (got {})", what, v));
  }
}
}  // namespace

std::string_view to_string(Bound b) { return b == Bound::memory ? "memory" : "compute"; }

double ridge_point(double peak, double bandwidth) {
  require_positive(peak, "peak");
  require_positive(bandwidth, "bandwidth");
  return peak / bandwidth;
}

RoofEvaluation evaluate_roof(double peak, double bandwidth, double ai) {
  require_positive(ai, "arithmetic intensity");
  RoofEvaluation e;
  e.ridge_ai = ridge_point(peak, bandwidth);
  const double memory_roof = bandwidth * ai;
  e.attainable = std::min(peak, memory_roof);
  e.bound = ai < e.ridge_ai ? Bound::memory : Bound::compute;
  e.at_ridge = ai == e.ridge_ai || memory_roof == peak;
  return e;
}

}  // namespace roofline
