// The roofline calculator: attainable = min(peak, bw x AI), ridge = peak / bw.
#include <gtest/gtest.h>

#include <limits>

#include "roofline/common/errors.hpp"
#include "roofline/model/model.hpp"

namespace roofline {

TEST(Model, IssueExample) {
  const RoofEvaluation e = evaluate_roof(100e12, 2e12, 10);
  EXPECT_DOUBLE_EQ(e.attainable, 20e12);
  EXPECT_EQ(e.bound, Bound::memory);
  EXPECT_DOUBLE_EQ(e.ridge_ai, 50.0);
  EXPECT_FALSE(e.at_ridge);
}

TEST(Model, ComputeBoundAboveRidge) {
  const RoofEvaluation e = evaluate_roof(100e12, 2e12, 500);
  EXPECT_DOUBLE_EQ(e.attainable, 100e12);
  EXPECT_EQ(e.bound, Bound::compute);
}

TEST(Model, ExactlyAtRidgeBothLimitsMeet) {
  const RoofEvaluation e = evaluate_roof(100e12, 2e12, 50);
  EXPECT_DOUBLE_EQ(e.attainable, 100e12);
  EXPECT_TRUE(e.at_ridge);
  EXPECT_EQ(e.bound, Bound::compute);
}

TEST(Model, JustBelowRidgeIsMemoryBound) {
  const RoofEvaluation e = evaluate_roof(100e12, 2e12, 49.999);
  EXPECT_EQ(e.bound, Bound::memory);
  EXPECT_LT(e.attainable, 100e12);
}

TEST(Model, RejectsNonPositiveAndNonFinite) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (double bad : {0.0, -1.0, inf, nan}) {
    EXPECT_THROW(evaluate_roof(bad, 1e9, 1), InputError);
    EXPECT_THROW(evaluate_roof(1e9, bad, 1), InputError);
    EXPECT_THROW(evaluate_roof(1e9, 1e9, bad), InputError);
    EXPECT_THROW(ridge_point(bad, 1.0), InputError);
  }
  EXPECT_DOUBLE_EQ(ridge_point(1e12, 1e11), 10.0);
}

}  // namespace roofline
