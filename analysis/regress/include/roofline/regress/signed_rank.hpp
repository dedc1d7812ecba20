// The Wilcoxon signed-rank test of paired differences, for paired A/B rounds (`compare --base-bin A
// --new-bin B`): each round's log ratio new/base is one difference. Zeros are dropped (Wilcoxon's
// convention, scipy's zero_method='wilcox'); ties get average ranks and the p-value comes from the exact
// permutation distribution of the signs given those ranks (2^n equally likely sign patterns), so it is
// exact with ties too. Written by hand, like mann_whitney.hpp: no Debian-packaged C++ library has it
// (GSL and Boost.Math give distributions, not this test).
#pragma once

#include <span>

namespace roofline {

struct SignedRankResult {
  int n = 0;                // non-zero differences
  double w_plus = 0.0;      // sum of the ranks of the positive differences
  double p_less = 1.0;      // one-sided: differences tend to be negative
  double p_greater = 1.0;   // one-sided: differences tend to be positive
  double p_two_sided = 1.0;
};

// Throws std::invalid_argument on NaN. n = 0 gives p = 1 everywhere.
SignedRankResult signed_rank_test(std::span<const double> differences);

// The standard normal quantile (inverse CDF) for p in (0, 1); used to turn a family-wise alpha into a
// number of robust standard deviations.
double normal_quantile(double p);

}  // namespace roofline
