// The one resident-level rule (issue 47) that the CPU's placements (reach: where the bandwidth curve leaves a
// level) and every other target's (a measured level's largest size, else its capacity) share.
#include <gtest/gtest.h>

#include "roofline/model/resident_level.hpp"

namespace roofline {
namespace {

const std::vector<LevelReach> kCaches = {{"L1", 48e3}, {"L2", 2e6}, {"L3", 32e6}};

TEST(ResidentLevel, TheInnermostLevelThatHoldsTheWorkingSet) {
  EXPECT_EQ(resident_level(kCaches, "DRAM", 1e3).level, "L1");
  EXPECT_EQ(resident_level(kCaches, "DRAM", 1e6).level, "L2");
  EXPECT_EQ(resident_level(kCaches, "DRAM", 1e6).reach_bytes, 2e6);
  EXPECT_EQ(resident_level(kCaches, "DRAM", 30e6).level, "L3");
}

TEST(ResidentLevel, AReachHoldsAWorkingSetOfExactlyItsSize) {
  EXPECT_EQ(resident_level(kCaches, "DRAM", 2e6).level, "L2");
  EXPECT_EQ(resident_level(kCaches, "DRAM", 2e6 + 1).level, "L3");
}

TEST(ResidentLevel, MainMemoryWhenNoLevelHoldsIt) {
  const LevelReach r = resident_level(kCaches, "HBM", 64e6);
  EXPECT_EQ(r.level, "HBM");
  EXPECT_EQ(r.reach_bytes, 0.0);
  EXPECT_EQ(resident_level({}, "DRAM", 1.0).level, "DRAM");
}

TEST(ResidentLevel, AnUnknownReachHoldsNothing) {
  // A level whose curve or facts gave no size (0) is skipped, even for a working set of no bytes.
  const std::vector<LevelReach> levels = {{"L1", 0.0}, {"L2", -1.0}, {"L3", 32e6}};
  EXPECT_EQ(resident_level(levels, "DRAM", 1e3).level, "L3");
  EXPECT_EQ(resident_level(levels, "DRAM", 0.0).level, "L3");
}

TEST(ResidentLevel, TheFirstRowOfALevelListedTwiceThatHoldsItWins) {
  const std::vector<LevelReach> levels = {{"L2", 1e6}, {"L2", 3e6}, {"L3", 32e6}};
  const LevelReach r = resident_level(levels, "DRAM", 2e6);
  EXPECT_EQ(r.level, "L2");
  EXPECT_EQ(r.reach_bytes, 3e6);
}

TEST(ResidentLevel, TheIndexIsTheSameRule) {
  // resident_index: for callers that keep more per level (llm's roofs): main memory is inner.size().
  EXPECT_EQ(resident_index(kCaches, 1e3), 0u);
  EXPECT_EQ(resident_index(kCaches, 2e6), 1u);      // exactly the L2's reach
  EXPECT_EQ(resident_index(kCaches, 2e6 + 1), 2u);  // just past it
  EXPECT_EQ(resident_index(kCaches, 64e6), 3u);     // no level holds it: main memory
  EXPECT_EQ(resident_index({}, 1.0), 0u);
  const std::vector<LevelReach> unknown = {{"L1", 0.0}, {"L2", -1.0}};
  EXPECT_EQ(resident_index(unknown, 0.0), 2u);  // no size known: nothing holds even no bytes
}

}  // namespace
}  // namespace roofline
