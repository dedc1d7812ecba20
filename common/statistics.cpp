// Median, quantiles, MAD: the one implementation of each (see statistics.hpp).
#include "roofline/common/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace roofline {
namespace {
void require_values(const std::vector<double>& values, const char* what) {
  if (values.empty()) throw std::invalid_argument(std::string(what) + " of an empty sample");
}
}  // namespace

double median(std::vector<double> values) {
  require_values(values, "median");
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2.0;
}

double quantile(std::vector<double> values, double q) {
  require_values(values, "quantile");
  if (!(q >= 0.0 && q <= 1.0)) throw std::invalid_argument("quantile outside [0, 1]");
  std::sort(values.begin(), values.end());
  const double position = q * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return values[below] + fraction * (values[above] - values[below]);
}

double mad(std::vector<double> values) {
  require_values(values, "MAD");
  const double centre = median(values);
  for (double& v : values) v = std::fabs(v - centre);
  return median(std::move(values));
}

double robust_sigma(std::vector<double> values) { return 1.4826 * mad(std::move(values)); }

double max_of(const std::vector<double>& values) {
  require_values(values, "maximum");
  return *std::max_element(values.begin(), values.end());
}

double min_of(const std::vector<double>& values) {
  require_values(values, "minimum");
  return *std::min_element(values.begin(), values.end());
}

double rate_spread(const std::vector<double>& work, const std::vector<double>& seconds) {
  std::vector<double> rates;
  for (std::size_t i = 0; i < std::min(work.size(), seconds.size()); ++i) {
    if (work[i] > 0.0 && seconds[i] > 0.0) rates.push_back(work[i] / seconds[i]);
  }
  if (rates.size() < 2) return 0.0;
  return max_of(rates) / min_of(rates) - 1.0;
}

}  // namespace roofline
