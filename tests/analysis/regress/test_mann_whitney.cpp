// The Mann-Whitney U test against scipy: every expected value below was computed with
// scipy.stats.mannwhitneyu(x, y, alternative='two-sided') (default method='auto', the call Google
// Benchmark 1.7.1's tools/gbench/report.py makes) using scipy 1.10.1 from Debian bookworm's
// python3-scipy. They cover the exact branch (a sample <= 8, no ties), the normal approximation with
// tie and continuity correction (ties, or both samples > 8), and the clipping at p = 1.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "roofline/regress/mann_whitney.hpp"

namespace roofline {
namespace {

struct ScipyCase {
  std::vector<double> x, y;
  double u1, p;
};

const std::vector<ScipyCase> kScipyCases = {
    // exact: complete separation 3 vs 3 is 2/20, 5 vs 5 is 2/252, 2 vs 2 is 2/6, 7 vs 7 is 2/3432
    {{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}, 0.0, 0.1},
    {{1.0, 2.0, 3.0, 4.0, 5.0}, {6.0, 7.0, 8.0, 9.0, 10.0}, 0.0, 0.007936507936507936},
    {{1.0, 2.0}, {3.0, 4.0}, 0.0, 0.3333333333333333},
    {{10.181, 10.337, 11.009, 9.972, 8.87, 11.356, 10.43}, {14.724, 13.176, 14.601, 13.005, 12.521, 11.563, 14.298}, 0.0,
     0.0005827505827505828},
    // exact, U = n1*n2/2 + 0.5 side: p clipped to 1
    {{1.0, 2.5, 3.1, 4.7, 5.2}, {1.5, 2.0, 3.9, 4.1, 6.0}, 12.0, 1.0},
    {{1.0}, {2.0}, 0.0, 1.0},
    // exact with one small and one large sample
    {{8.902, 9.959, 9.08, 9.649, 10.298, 9.492, 8.385, 10.521},
     {9.091, 9.456, 10.573, 11.714, 10.62, 11.301, 11.869, 11.348, 10.41, 12.058, 13.941, 10.015, 10.96, 9.918, 9.205,
      12.226, 10.988, 12.654, 10.832, 11.889},
     21.0, 0.0016878451661060355},
    {{10.239, 10.592, 9.84, 9.032},
     {9.692, 9.474, 8.979, 9.383, 10.071, 8.704, 9.578, 10.82, 9.622, 9.374, 9.765, 11.643, 9.105, 9.716, 11.701, 8.485,
      8.908, 9.793, 11.125, 9.775, 9.719, 7.879, 9.163, 8.629, 9.195, 10.772, 9.805, 8.414, 8.512, 9.405},
     82.0, 0.2618164567879938},
    {{11.0645}, {12.4548, 11.7622, 11.3257, 10.7745, 12.9276, 11.9, 13.2114, 11.1853, 11.3851, 12.3966}, 1.0,
     0.36363636363636365},
    // asymptotic because both samples > 8 (no ties)
    {{7.63, 9.105, 9.779, 8.1, 9.458, 10.752, 10.908, 9.033, 9.913},
     {10.554, 11.977, 11.401, 10.724, 11.737, 11.903, 8.943, 11.074, 11.454}, 11.0, 0.010444271101370226},
    {{11.1, 7.751, 9.614, 12.507, 10.392, 9.061, 9.969, 11.519, 8.711, 9.646},
     {13.113, 10.19, 9.951, 9.143, 10.498, 10.643, 10.629, 9.606, 9.945, 9.526, 10.635, 11.78}, 48.0, 0.44827886220819},
    // asymptotic because of ties (tie-corrected variance), small samples
    {{1.0, 2.0, 2.0, 3.0}, {2.0, 3.0, 4.0, 5.0}, 2.5, 0.1366582477381475},
    {{5.0, 5.0, 5.0}, {5.0, 5.0, 5.0}, 4.5, 1.0},
    {{10.0, 13.0, 11.0, 11.0, 11.0}, {10.0, 11.0, 10.0, 9.0, 9.0}, 21.5, 0.062566916316966},
    {{10.0, 10.0, 10.0, 13.0, 11.0}, {13.0, 11.0, 13.0, 11.0, 13.0}, 4.5, 0.09694463109083364},
    {{11.0, 9.0, 9.0}, {12.0, 12.0, 12.0, 12.0, 11.0, 10.0, 8.0, 11.0, 10.0}, 6.0, 0.18282792394786296},
    {{9.0, 10.0, 11.0, 11.0, 10.0, 10.0, 9.0, 11.0},
     {12.0, 11.0, 11.0, 13.0, 12.0, 13.0, 12.0, 12.0, 12.0, 10.0, 12.0, 12.0, 11.0, 13.0, 14.0, 13.0, 12.0, 11.0, 12.0,
      11.0},
     12.0, 0.0003948105808146623},
    {{8.0, 8.0, 10.0, 9.0, 10.0, 9.0, 8.0, 12.0, 10.0}, {10.0, 10.0, 12.0, 11.0, 9.0, 12.0, 10.0, 11.0, 9.0}, 20.5,
     0.07639892694902266},
    {{10.0, 9.0, 10.0, 11.0, 9.0, 11.0, 10.0, 10.0, 10.0, 9.0, 10.0, 11.0}, {11.0, 13.0, 12.0, 12.0, 12.0, 13.0, 13.0},
     1.5, 0.0005234896464969604},
};

TEST(MannWhitney, AgreesWithScipy) {
  for (std::size_t i = 0; i < kScipyCases.size(); ++i) {
    const ScipyCase& c = kScipyCases[i];
    const MannWhitneyResult r = mann_whitney_u(c.x, c.y);
    EXPECT_DOUBLE_EQ(r.u1, c.u1) << "case " << i;
    EXPECT_NEAR(r.p_value, c.p, 1e-12 * std::max(c.p, 1e-3)) << "case " << i;
  }
}

TEST(MannWhitney, ChoosesMethodLikeScipyAuto) {
  const std::vector<double> a{1, 2, 3, 4, 5, 6, 7, 8, 9}, b{10, 11, 12, 13, 14, 15, 16, 17, 18};
  EXPECT_EQ(mann_whitney_u(a, b).method, UTestMethod::asymptotic);  // both > 8
  const std::vector<double> a8(a.begin(), a.begin() + 8);
  EXPECT_EQ(mann_whitney_u(a8, b).method, UTestMethod::exact);       // one <= 8, no ties
  const std::vector<double> tied{1, 1, 2};
  EXPECT_EQ(mann_whitney_u(tied, b).method, UTestMethod::asymptotic);  // ties
}

TEST(MannWhitney, IsSymmetricInItsSamples) {
  const std::vector<double> x{3.1, 4.2, 5.5, 1.0, 2.2}, y{6.0, 2.5, 7.7, 8.1, 9.3, 4.0};
  const auto xy = mann_whitney_u(x, y);
  const auto yx = mann_whitney_u(y, x);
  EXPECT_DOUBLE_EQ(xy.p_value, yx.p_value);
  EXPECT_DOUBLE_EQ(xy.u1 + yx.u1, 30.0);  // U1 + U2 = n1 * n2
}

TEST(MannWhitney, ExactTailsSumToOneOverTheDistribution) {
  // 5 vs 5, no ties: the two-sided p of complete separation is 2 / C(10, 5); shifting one value across
  // moves U by one, adding 2 orderings each side (P(U <= 1) = 2/252).
  const std::vector<double> x{1, 2, 3, 4, 6}, y{5, 7, 8, 9, 10};
  EXPECT_NEAR(mann_whitney_u(x, y).p_value, 4.0 / 252.0, 1e-15);
}

TEST(MannWhitney, RejectsEmptyOrNaN) {
  const std::vector<double> empty, one{1.0}, nan{std::nan("")};
  EXPECT_THROW(mann_whitney_u(empty, one), std::invalid_argument);
  EXPECT_THROW(mann_whitney_u(one, nan), std::invalid_argument);
}

}  // namespace
}  // namespace roofline
