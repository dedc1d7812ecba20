// The Wilcoxon signed-rank test against a brute-force enumeration of the 2^n sign patterns (another
// algorithm than the counting one under test), with ties and zeros; and the normal quantile.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "roofline/regress/signed_rank.hpp"

namespace roofline {
namespace {

// P(W+ <= observed) by enumerating the signs over the average ranks of |d| (zeros dropped).
double brute_p_less(std::vector<double> d) {
  std::erase(d, 0.0);
  const std::size_t n = d.size();
  std::vector<double> rank(n);
  for (std::size_t i = 0; i < n; ++i) {
    double below = 0, equal = 0;
    for (std::size_t j = 0; j < n; ++j) {
      below += std::fabs(d[j]) < std::fabs(d[i]);
      equal += std::fabs(d[j]) == std::fabs(d[i]);
    }
    rank[i] = below + (equal + 1) / 2.0;
  }
  double observed = 0;
  for (std::size_t i = 0; i < n; ++i) observed += d[i] > 0 ? rank[i] : 0;
  int count = 0;
  for (unsigned mask = 0; mask < (1u << n); ++mask) {
    double w = 0;
    for (std::size_t i = 0; i < n; ++i) w += (mask >> i & 1u) ? rank[i] : 0;
    count += w <= observed + 1e-9;
  }
  return count / std::pow(2.0, static_cast<double>(n));
}

TEST(SignedRank, AgreesWithEnumerationWithTiesAndZeros) {
  for (const std::vector<double>& d : std::vector<std::vector<double>>{
           {1.5, -0.5, 2, 3, -1, 4}, {-0.2, -0.2, -0.1, 0.3, -0.4, 0, -0.5, 0.1}, {-1, -1, -1, -1, -1, -1, -1}, {2, -3}}) {
    const SignedRankResult r = signed_rank_test(d);
    EXPECT_NEAR(r.p_less, brute_p_less(d), 1e-12);
    std::vector<double> negated;
    for (double x : d) negated.push_back(-x);
    EXPECT_NEAR(r.p_greater, brute_p_less(negated), 1e-12);
  }
}

TEST(SignedRank, ExtremesAndEmpty) {
  const SignedRankResult all_negative = signed_rank_test(std::vector<double>(8, -0.1));
  EXPECT_EQ(all_negative.n, 8);
  EXPECT_DOUBLE_EQ(all_negative.p_less, 1.0 / 256);
  EXPECT_DOUBLE_EQ(all_negative.p_two_sided, 2.0 / 256);
  EXPECT_DOUBLE_EQ(all_negative.p_greater, 1.0);
  const SignedRankResult none = signed_rank_test(std::vector<double>{0.0, 0.0});
  EXPECT_EQ(none.n, 0);
  EXPECT_DOUBLE_EQ(none.p_two_sided, 1.0);
  EXPECT_THROW(signed_rank_test(std::vector<double>{NAN}), std::invalid_argument);
}

TEST(SignedRank, NormalQuantile) {
  EXPECT_NEAR(normal_quantile(0.975), 1.959963985, 1e-8);
  EXPECT_NEAR(normal_quantile(0.5), 0.0, 1e-12);
  EXPECT_NEAR(normal_quantile(1 - 0.05 / 20), 2.807033768, 1e-8);
  EXPECT_THROW(normal_quantile(1.0), std::invalid_argument);
}

}  // namespace
}  // namespace roofline
