// The two-sided Mann-Whitney U test with scipy's method='auto' semantics: see mann_whitney.hpp.
// Written here because no Debian-packaged C++ library has it (Boost.Math 1.74 and GSL offer no U test),
// and compare must agree with compare.py/scipy to the last digit, exact distribution included.
#include "roofline/regress/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace roofline {
namespace {

// Above this many orderings (n1+n2 choose n1) the exact counts would not fit in 128-bit integers; scipy
// would still go exact there (one sample <= 8, the other in the hundreds of thousands), we fall back to
// the normal approximation, which at that size agrees to many digits. No benchmark has that many
// repetitions.
constexpr long double kMaxExactOrderings = 1e36L;

// Average ranks (1-based) of the concatenation of x and y, as scipy.stats.rankdata(method='average').
std::vector<double> average_ranks(const std::vector<double>& xy) {
  std::vector<std::size_t> order(xy.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return xy[a] < xy[b]; });
  std::vector<double> ranks(xy.size());
  std::size_t i = 0;
  while (i < order.size()) {
    std::size_t j = i;
    while (j + 1 < order.size() && xy[order[j + 1]] == xy[order[i]]) ++j;
    const double rank = (static_cast<double>(i + 1) + static_cast<double>(j + 1)) / 2.0;
    for (std::size_t k = i; k <= j; ++k) ranks[order[k]] = rank;
    i = j + 1;
  }
  return ranks;
}

// sum over groups of tied values of (t^3 - t), scipy's _tie_term.
double tie_term(std::vector<double> ranks) {
  std::sort(ranks.begin(), ranks.end());
  double term = 0.0;
  std::size_t i = 0;
  while (i < ranks.size()) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[i]) ++j;
    const double t = static_cast<double>(j - i + 1);
    term += t * t * t - t;
    i = j + 1;
  }
  return term;
}

bool has_ties(std::vector<double> xy) {
  std::sort(xy.begin(), xy.end());
  return std::adjacent_find(xy.begin(), xy.end()) != xy.end();
}

long double orderings(int m, int n) {
  long double c = 1.0L;
  for (int i = 1; i <= std::min(m, n); ++i) c = c * static_cast<long double>(std::max(m, n) + i) / i;
  return c;
}

// Null distribution of U for samples of sizes m and n, as counts of orderings: counts[k] = number of the
// (m+n choose m) equally likely orderings with U = k. These are the coefficients of the Gaussian binomial
// [m+n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i); every partial product is itself a
// polynomial, so integer arithmetic stays exact. Cost O(m * m * n) with m the smaller size.
std::vector<__int128> u_null_counts(int m, int n) {
  if (m > n) std::swap(m, n);
  const std::size_t degree = static_cast<std::size_t>(m) * static_cast<std::size_t>(n);
  std::vector<__int128> c(degree + static_cast<std::size_t>(m) + 1, 0);
  c[0] = 1;
  std::size_t current = 0;  // degree of the polynomial held in c
  for (int i = 1; i <= m; ++i) {
    const std::size_t up = static_cast<std::size_t>(n + i);
    const std::size_t top = current + up;
    for (std::size_t k = top; k >= up; --k) c[k] -= c[k - up];  // times (1 - q^(n+i))
    const std::size_t down = static_cast<std::size_t>(i);
    for (std::size_t k = down; k <= top; ++k) c[k] += c[k - down];  // divided by (1 - q^i)
    current = static_cast<std::size_t>(i) * static_cast<std::size_t>(n);
  }
  c.resize(degree + 1);
  return c;
}

}  // namespace

MannWhitneyResult mann_whitney_u(std::span<const double> x, std::span<const double> y) {
  if (x.empty() || y.empty()) throw std::invalid_argument("mann_whitney_u: empty sample");
  std::vector<double> xy(x.begin(), x.end());
  xy.insert(xy.end(), y.begin(), y.end());
  for (double v : xy) {
    if (std::isnan(v)) throw std::invalid_argument("mann_whitney_u: NaN in sample");
  }
  const int n1 = static_cast<int>(x.size());
  const int n2 = static_cast<int>(y.size());
  const double n1d = n1;
  const double n2d = n2;

  const std::vector<double> ranks = average_ranks(xy);
  const double r1 = std::accumulate(ranks.begin(), ranks.begin() + n1, 0.0);
  MannWhitneyResult result;
  result.u1 = r1 - n1d * (n1d + 1.0) / 2.0;
  const double u2 = n1d * n2d - result.u1;
  const double u = std::max(result.u1, u2);

  const bool exact = (n1 <= 8 || n2 <= 8) && !has_ties(xy) && orderings(n1, n2) <= kMaxExactOrderings;
  if (exact) {
    result.method = UTestMethod::exact;
    const std::vector<__int128> counts = u_null_counts(n1, n2);
    // P(U >= u) = P(U <= n1*n2 - u) by symmetry; both tails include the mass at the bound.
    const auto bound = static_cast<std::size_t>(std::llround(n1d * n2d - u));
    __int128 tail = 0;
    __int128 total = 0;
    for (std::size_t k = 0; k < counts.size(); ++k) {
      total += counts[k];
      if (k <= bound) tail += counts[k];
    }
    const long double p = 2.0L * static_cast<long double>(tail) / static_cast<long double>(total);
    result.p_value = static_cast<double>(std::min(p, 1.0L));
    return result;
  }

  result.method = UTestMethod::asymptotic;
  const double n = n1d + n2d;
  const double s = std::sqrt(n1d * n2d / 12.0 * ((n + 1.0) - tie_term(ranks) / (n * (n - 1.0))));
  const double numerator = u - n1d * n2d / 2.0 - 0.5;  // continuity correction
  if (s == 0.0) {  // every value equal: scipy's z is -inf, its p clips to 1
    result.p_value = 1.0;
    return result;
  }
  const double z = numerator / s;
  // two-sided: 2 * normal survival function of z
  result.p_value = std::clamp(std::erfc(z / std::sqrt(2.0)), 0.0, 1.0);
  return result;
}

}  // namespace roofline
