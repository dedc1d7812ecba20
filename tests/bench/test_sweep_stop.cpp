// The bandwidth sweep's end from the curve (bench/harness/sweep_stop.hpp, issue 32) on made-up read curves: a
// staircase that reaches DRAM, one still on its L3 plateau or still falling, a noisy guest's DRAM, and too little.
#include <gtest/gtest.h>

#include <cmath>

#include "roofline/bench/bandwidth_plan.hpp"
#include "roofline/bench/sweep_stop.hpp"

namespace roofline {
namespace {

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB;

// L1 to 32 KiB, L2 to 1 MiB, L3 to 32 MiB, then DRAM: GB/s per size (sizes 2 per octave from 4 KiB).
double staircase(std::uint64_t bytes) {
  if (bytes <= 32 * KiB) return 200e9;
  if (bytes <= 1 * MiB) return 100e9;
  if (bytes <= 32 * MiB) return 50e9;
  if (bytes <= 64 * MiB) return 30e9;  // the slope down
  return 20e9;
}

// Five repetitions around `value`, spread +-`noise` (relative).
std::vector<double> reps(double value, double noise) {
  return {value * (1 - noise), value * (1 - noise / 2), value, value * (1 + noise / 2), value * (1 + noise)};
}

std::vector<SweepPoint> curve(std::uint64_t end, double noise, double (*bw)(std::uint64_t) = staircase) {
  std::vector<SweepPoint> out;
  for (std::uint64_t s : geometric_sizes(4 * KiB, end, 2)) out.push_back({s, reps(bw(s), noise)});
  return out;
}

TEST(SweepStop, StaircaseReachesDramOnceFlatForAnOctave) {
  const DramVerdict v = dram_reached(curve(256 * MiB, 0.005), 256 * MiB);
  ASSERT_TRUE(v.reached) << v.why;
  // The band starts at the first size past the slope (64 MiB is still on it at 30 GB/s).
  EXPECT_GT(v.from_bytes, 64 * MiB);
  EXPECT_LE(v.from_bytes, 128 * MiB);
  EXPECT_EQ(v.cache_end_bytes, 64 * MiB);
  EXPECT_NE(v.why.find("flat"), std::string::npos) << v.why;
}

TEST(SweepStop, NeverBelowTheLeastEnd) {
  // A flat L3 plateau (8 to 32 MiB) is flat and below L2: only the least end keeps it from passing for DRAM.
  const DramVerdict v = dram_reached(curve(32 * MiB, 0.005), 256 * MiB);
  EXPECT_FALSE(v.reached);
  EXPECT_NE(v.why.find("least end"), std::string::npos) << v.why;
  EXPECT_TRUE(dram_reached(curve(32 * MiB, 0.005), 0).reached);  // what the floor is there for
}

TEST(SweepStop, StillFallingIsNotFlat) {
  const auto falling = [](std::uint64_t bytes) {
    return bytes <= 1 * MiB ? 100e9 : 100e9 / std::sqrt(double(bytes) / double(MiB));
  };
  const DramVerdict v = dram_reached(curve(256 * MiB, 0.005, falling), 0);
  EXPECT_FALSE(v.reached);
  EXPECT_NE(v.why.find("not flat"), std::string::npos) << v.why;
}

TEST(SweepStop, NoisyDramCountsAsFlatWithinItsOwnRepetitions) {
  // A guest whose DRAM read flips between 35 and 63 GB/s: the medians move as much as the repetitions do.
  std::vector<SweepPoint> points = curve(64 * MiB, 0.005, [](std::uint64_t b) { return b <= 32 * MiB ? 100e9 : 60e9; });
  points.push_back({96 * MiB, {35e9, 63e9, 40e9, 60e9, 38e9}});
  points.push_back({128 * MiB, {62e9, 36e9, 58e9, 61e9, 37e9}});
  const DramVerdict v = dram_reached(points, 128 * MiB);
  EXPECT_TRUE(v.reached) << v.why;
  // A quiet machine's medians differing by 10% are not flat.
  std::vector<SweepPoint> quiet = curve(64 * MiB, 0.005, [](std::uint64_t b) { return b <= 32 * MiB ? 100e9 : 60e9; });
  quiet.push_back({96 * MiB, reps(55e9, 0.005)});
  quiet.push_back({128 * MiB, reps(50e9, 0.005)});
  EXPECT_FALSE(dram_reached(quiet, 128 * MiB).reached);
}

TEST(SweepStop, AFlatCurveThatNeverFellIsNotDram) {
  const DramVerdict v = dram_reached(curve(256 * MiB, 0.005, [](std::uint64_t) { return 50e9; }), 0);
  EXPECT_FALSE(v.reached);
  EXPECT_NE(v.why.find("not fallen"), std::string::npos) << v.why;
}

TEST(SweepStop, TooFewPointsOrLessThanAnOctave) {
  EXPECT_FALSE(dram_reached({}, 0).reached);
  EXPECT_FALSE(dram_reached({{4 * KiB, {1e9}}, {8 * KiB, {1e9}}}, 0).reached);
  // Three points, the last two a third of an octave apart, none at half the last size.
  EXPECT_FALSE(dram_reached({{4 * KiB, {9e9}}, {100 * MiB, {1e9}}, {128 * MiB, {1e9}}}, 0).reached);
  // Points without repetitions are left out, not read as zero.
  std::vector<SweepPoint> points = curve(256 * MiB, 0.005);
  points.push_back({512 * MiB, {}});
  EXPECT_TRUE(dram_reached(points, 256 * MiB).reached);
}

}  // namespace
}  // namespace roofline
