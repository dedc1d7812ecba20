// The profile table (bench/harness/profile.cpp): what quick promises (enough repetitions for compare's U test, a
// sweep that stops once DRAM is flat) and that full measures at least as much of everything, longer.
#include <gtest/gtest.h>

#include "roofline/regress/compare.hpp"
#include "roofline/harness/profile.hpp"

namespace roofline {
namespace {

const ProfileSettings& quick = profile_settings(Profile::quick);
const ProfileSettings& full = profile_settings(Profile::full);

TEST(Profile, QuickRecordsEnoughRepetitionsForTheUTest) {
  // compare judges a benchmark on its U test from kConfidentRepetitions repetitions on; fewer would mark
  // every row of a quick run "low confidence".
  for (const ProfileSettings* p : {&quick, &full}) {
    EXPECT_GE(p->bandwidth.repetitions, kConfidentRepetitions);
    EXPECT_GE(p->compute.repetitions, kConfidentRepetitions);
    EXPECT_GE(p->gemm.repetitions, kConfidentRepetitions);
    EXPECT_GE(p->bandwidth.spot_repetitions, 1);
    EXPECT_GE(p->gemm.long_call_repetitions, 1);
    EXPECT_LE(p->gemm.long_call_repetitions, p->gemm.repetitions);  // fewer for long calls, never more
  }
}

TEST(Profile, FullMeasuresAtLeastWhatQuickDoesAndLonger) {
  EXPECT_GT(full.bandwidth.sizes_per_octave, quick.bandwidth.sizes_per_octave);
  EXPECT_TRUE(full.bandwidth.sweep_every_kernel);
  EXPECT_FALSE(quick.bandwidth.sweep_every_kernel);
  EXPECT_GT(full.bandwidth.min_time_s, quick.bandwidth.min_time_s);
  EXPECT_GT(full.compute.min_time_s, quick.compute.min_time_s);
  EXPECT_GT(full.gemm.min_time_s, quick.gemm.min_time_s);
  EXPECT_TRUE(full.gemm.every_batch);
  EXPECT_FALSE(quick.gemm.every_batch);
  EXPECT_GE(full.gemm.repetitions, quick.gemm.repetitions);
}

TEST(Profile, EveryTimeIsPositive) {
  for (const ProfileSettings* p : {&quick, &full}) {
    EXPECT_GT(p->bandwidth.min_time_s, 0.0);
    EXPECT_GT(p->bandwidth.sizes_per_octave, 0);
    EXPECT_GT(p->compute.min_time_s, 0.0);
    EXPECT_GT(p->gemm.min_time_s, 0.0);
    EXPECT_GT(p->gemm.long_call_s, 0.0);
  }
}

}  // namespace
}  // namespace roofline
