// LOCAL STUB of common/statistics.hpp (landing on main; this file is deleted at the merge): median,
// quantile, MAD and robust sigma of a sample. All throw std::invalid_argument on empty input.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace roofline {

inline double quantile(std::vector<double> v, double q) {
  if (v.empty()) throw std::invalid_argument("quantile of an empty sample");
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}
inline double median(std::vector<double> v) { return quantile(std::move(v), 0.5); }
inline double mad(std::vector<double> v) {
  const double m = median(v);
  for (double& x : v) x = std::fabs(x - m);
  return median(std::move(v));
}
inline double robust_sigma(std::vector<double> v) { return 1.4826 * mad(std::move(v)); }

}  // namespace roofline
