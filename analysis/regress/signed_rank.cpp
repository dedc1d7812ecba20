// Wilcoxon signed-rank test with the exact conditional distribution, and the normal quantile. See
// signed_rank.hpp.
#include "roofline/regress/signed_rank.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace roofline {

SignedRankResult signed_rank_test(std::span<const double> differences) {
  std::vector<double> d;
  for (double x : differences) {
    if (std::isnan(x)) throw std::invalid_argument("signed_rank_test: NaN difference");
    if (x != 0.0) d.push_back(x);
  }
  SignedRankResult r;
  r.n = static_cast<int>(d.size());
  if (d.empty()) return r;
  std::vector<std::size_t> order(d.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return std::fabs(d[a]) < std::fabs(d[b]); });
  // Doubled average ranks are integers, so the null distribution is a count over integer sums.
  std::vector<int> rank2(d.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && std::fabs(d[order[j + 1]]) == std::fabs(d[order[i]])) ++j;
    const int doubled = static_cast<int>(i + j + 2);  // 2 x average of ranks i+1 .. j+1
    for (std::size_t k = i; k <= j; ++k) rank2[order[k]] = doubled;
    i = j + 1;
  }
  int observed = 0, total = 0;
  for (std::size_t i = 0; i < d.size(); ++i) {
    total += rank2[i];
    if (d[i] > 0) observed += rank2[i];
  }
  // counts[s]: sign patterns whose positive doubled ranks sum to s (as fractions of 2^n, in long double).
  std::vector<long double> counts(static_cast<std::size_t>(total) + 1, 0.0L);
  counts[0] = 1.0L;
  for (int rk : rank2) {
    for (int s = total; s >= rk; --s) counts[static_cast<std::size_t>(s)] += counts[static_cast<std::size_t>(s - rk)];
  }
  const long double all = std::pow(2.0L, static_cast<long double>(d.size()));
  long double le = 0.0L, ge = 0.0L;
  for (int s = 0; s <= total; ++s) {
    if (s <= observed) le += counts[static_cast<std::size_t>(s)];
    if (s >= observed) ge += counts[static_cast<std::size_t>(s)];
  }
  r.w_plus = observed / 2.0;
  r.p_less = static_cast<double>(le / all);
  r.p_greater = static_cast<double>(ge / all);
  r.p_two_sided = std::min(1.0, 2.0 * std::min(r.p_less, r.p_greater));
  return r;
}

double normal_quantile(double p) {
  if (!(p > 0.0 && p < 1.0)) throw std::invalid_argument("normal_quantile: p must be in (0, 1)");
  // Bisection on the CDF 0.5 * erfc(-x / sqrt 2): 200 halvings of [-40, 40] reach double precision.
  double lo = -40.0, hi = 40.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2.0;
    (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? lo : hi) = mid;
  }
  return (lo + hi) / 2.0;
}

}  // namespace roofline
