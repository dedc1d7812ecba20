// The one median, quantile and MAD: values against hand-computed ones, and empty samples refused.
#include <gtest/gtest.h>

#include <stdexcept>

#include "roofline/common/statistics.hpp"

namespace roofline {

TEST(Statistics, MedianOddEvenAndUnsorted) {
  EXPECT_DOUBLE_EQ(median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_DOUBLE_EQ(median({7.0}), 7.0);
}

TEST(Statistics, QuantileInterpolatesLikeNumpy) {
  const std::vector<double> v{1.0, 2.0, 3.0, 4.0, 10.0};
  EXPECT_DOUBLE_EQ(quantile(v, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(quantile(v, 1.0), 10.0);
  EXPECT_DOUBLE_EQ(quantile(v, 0.5), 3.0);
  EXPECT_DOUBLE_EQ(quantile(v, 0.25), 2.0);
  EXPECT_DOUBLE_EQ(quantile(v, 0.9), 7.6);  // numpy.quantile([1,2,3,4,10], 0.9)
  EXPECT_THROW(quantile(v, 1.5), std::invalid_argument);
}

TEST(Statistics, MadAndRobustSigma) {
  // |x - 3| = 2 1 0 1 7 -> median 1.
  EXPECT_DOUBLE_EQ(mad({1.0, 2.0, 3.0, 4.0, 10.0}), 1.0);
  EXPECT_DOUBLE_EQ(robust_sigma({1.0, 2.0, 3.0, 4.0, 10.0}), 1.4826);
  EXPECT_DOUBLE_EQ(mad({5.0, 5.0, 5.0}), 0.0);
}

TEST(Statistics, RateSpreadIsTheFastestOverTheSlowestRate) {
  // Two workers, equal shares, one twice as slow: rates 100 and 50, spread 1.
  EXPECT_DOUBLE_EQ(rate_spread({100.0, 100.0}, {1.0, 2.0}), 1.0);
  // Unequal shares at one rate: no spread (the rates, not the times, are compared).
  EXPECT_DOUBLE_EQ(rate_spread({60.0, 40.0}, {0.6, 0.4}), 0.0);
  // A worker without work or time is left out; fewer than two rates: 0.
  EXPECT_DOUBLE_EQ(rate_spread({100.0, 0.0, 90.0}, {1.0, 1.0, 1.0}), 100.0 / 90.0 - 1.0);
  EXPECT_DOUBLE_EQ(rate_spread({100.0, 100.0}, {1.0, 0.0}), 0.0);
  EXPECT_DOUBLE_EQ(rate_spread({}, {}), 0.0);
}

TEST(Statistics, EmptySamplesAreRefused) {
  EXPECT_THROW(median({}), std::invalid_argument);
  EXPECT_THROW(quantile({}, 0.5), std::invalid_argument);
  EXPECT_THROW(mad({}), std::invalid_argument);
  EXPECT_THROW(max_of({}), std::invalid_argument);
  EXPECT_THROW(min_of({}), std::invalid_argument);
  EXPECT_DOUBLE_EQ(max_of({1.0, 3.0, 2.0}), 3.0);
  EXPECT_DOUBLE_EQ(min_of({1.0, 3.0, 2.0}), 1.0);
}

}  // namespace roofline
