// The profile table (bench/harness/profile.cpp): what quick promises (enough repetitions for compare's U test, a
// sweep that stops once DRAM is flat) and that full measures at least as much of everything, longer.
#include <gtest/gtest.h>

#include "roofline/regress/compare.hpp"
#include "roofline/harness/profile.hpp"

namespace roofline {
namespace {

const ProfileSettings& quick = profile_settings(Profile::quick);
const ProfileSettings& full = profile_settings(Profile::full);
const ProfileSettings& gate = profile_settings(Profile::gate);

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

// The gate profile (issue 59): the paired rounds are its repetitions, so each run measures quick's points once more
// cheaply: the same sweep density (the same levels), fewer repetitions, shorter calls and a smaller budget.
TEST(Profile, GateMeasuresQuicksPointsMoreCheaply) {
  EXPECT_EQ(gate.bandwidth.sizes_per_octave, quick.bandwidth.sizes_per_octave);
  EXPECT_EQ(gate.bandwidth.sweep_every_kernel, quick.bandwidth.sweep_every_kernel);
  EXPECT_EQ(gate.gemm.every_batch, quick.gemm.every_batch);
  EXPECT_GE(gate.bandwidth.repetitions, 2);  // a median of a point's repetitions needs two
  EXPECT_LT(gate.bandwidth.repetitions, quick.bandwidth.repetitions);
  EXPECT_LT(gate.compute.repetitions, quick.compute.repetitions);
  EXPECT_LT(gate.gemm.repetitions, quick.gemm.repetitions);
  EXPECT_LE(gate.gemm.long_call_repetitions, gate.gemm.repetitions);
  EXPECT_LT(gate.bandwidth.min_time_s, quick.bandwidth.min_time_s);
  EXPECT_LT(profile_budget_seconds(Profile::gate, false), profile_budget_seconds(Profile::quick, false));
  EXPECT_LT(profile_budget_seconds(Profile::gate, true), profile_budget_seconds(Profile::quick, true));
}

TEST(Profile, EveryTimeIsPositive) {
  for (const ProfileSettings* p : {&quick, &full, &gate}) {
    EXPECT_GT(p->bandwidth.min_time_s, 0.0);
    EXPECT_GT(p->bandwidth.sizes_per_octave, 0);
    EXPECT_GT(p->compute.min_time_s, 0.0);
    EXPECT_GT(p->gemm.min_time_s, 0.0);
    EXPECT_GT(p->gemm.long_call_s, 0.0);
  }
}

}  // namespace
}  // namespace roofline
