// The one cache verdict (cache_verdict, roofline/common/reported_levels.hpp, issue 61 step 6) on hand-made caches: each
// rule that makes a cache or a level implausible, the levels as threads see them, and the DRAM threshold where the
// last level's size is unknown. tests/bench/drivers/test_cache_verdict.cpp holds the plan and the analysis to it on
// every recorded machine.
#include <gtest/gtest.h>

#include <vector>

#include "roofline/common/reported_levels.hpp"

namespace roofline {
namespace {

constexpr double KiB = 1024.0, MiB = 1024.0 * KiB, GiB = 1024.0 * MiB;

// A 2-core guest: per-core L1 and L2, one L3 of `l3` shared by both.
std::vector<ReportedCache> guest(double l3, int l3_instances = 1, int l3_sharing = 2) {
  return {{1, "data", 48 * KiB, 2, 1, "hwloc"}, {1, "instruction", 32 * KiB, 2, 1, "hwloc"},
          {2, "unified", 1 * MiB, 2, 1, "hwloc"}, {3, "unified", l3, l3_instances, l3_sharing, "hwloc"}};
}

TEST(CacheVerdict, APlausibleMachineIsBelievedWhole) {
  const CacheVerdict one = cache_verdict(guest(32 * MiB), 1, "compact", 24 * GiB);
  ASSERT_EQ(one.levels.size(), 3u);
  EXPECT_EQ(one.plausible_levels().size(), 3u);
  EXPECT_TRUE(one.implausible_caches.empty());
  EXPECT_FALSE(one.last_level_unknown);
  EXPECT_EQ(one.largest_plausible_bytes, 32 * MiB);
  EXPECT_EQ(one.dram_threshold_bytes, 32 * MiB);
  EXPECT_EQ(one.largest_plausible_instance_bytes, 32 * MiB);
  const CacheVerdict two = cache_verdict(guest(32 * MiB), 2, "compact", 24 * GiB);
  EXPECT_EQ(two.levels[0].bytes, 96 * KiB);  // per-core levels count once per thread
  EXPECT_EQ(two.levels[1].bytes, 2 * MiB);
  EXPECT_EQ(two.levels[2].bytes, 32 * MiB);  // the shared one once
}

TEST(CacheVerdict, AGuestsHostL3IsNotBelievedAndTheLastLevelIsUnknown) {
  const CacheVerdict v = cache_verdict(guest(508 * MiB, 2, 1), 2, "compact", 24 * GiB);
  ASSERT_EQ(v.levels.size(), 3u);
  EXPECT_FALSE(v.levels[2].plausible);
  EXPECT_NE(v.levels[2].why.find("508 MiB per core"), std::string::npos) << v.levels[2].why;
  ASSERT_EQ(v.implausible_caches.size(), 1u);
  EXPECT_NE(v.implausible_caches[0].find("hwloc reports an L3 of 508 MiB"), std::string::npos);
  EXPECT_TRUE(v.last_level_unknown);
  EXPECT_EQ(v.largest_plausible_bytes, 2 * MiB);
  EXPECT_EQ(v.dram_threshold_bytes, 64 * MiB);  // 32 MiB for each core the 2 threads use
  EXPECT_EQ(unknown_last_cache_bytes(2), 64ull << 20);
}

TEST(CacheVerdict, EachRuleMakesALevelImplausible) {
  std::vector<ReportedCache> l2 = guest(32 * MiB);
  l2[2].size_bytes = 12 * MiB;  // 12 MiB of L2 per core: more than kLargestCacheSharePerCore's 8 MiB
  const CacheVerdict big_l2 = cache_verdict(l2, 1, "compact", 24 * GiB);
  EXPECT_FALSE(big_l2.levels[1].plausible);
  EXPECT_FALSE(big_l2.last_level_unknown);  // the L3 beyond it is plausible
  // 64 L3s of 32 MiB on a 4 GiB machine: more than an eighth of the memory.
  const CacheVerdict memory = cache_verdict(guest(32 * MiB, 64, 1), 1, "compact", 4 * GiB);
  EXPECT_FALSE(memory.levels[2].plausible);
  EXPECT_NE(memory.implausible_caches.at(0).find("an eighth of the 4 GiB of memory"), std::string::npos);
  EXPECT_TRUE(cache_verdict(guest(32 * MiB, 64, 1), 1, "compact", 0.0).implausible_caches.empty());  // unknown
  // Unknown sharing: the whole instance counts per core.
  EXPECT_FALSE(cache_verdict(guest(96 * MiB, 1, 0), 1, "compact", 24 * GiB).levels[2].plausible);
  // Spread over per-core L2s of 16 MiB in all, a 12 MiB shared L3 is no larger than the level before it.
  std::vector<ReportedCache> small_l3 = guest(12 * MiB, 1, 16);
  small_l3[0].instances = small_l3[2].instances = 16;
  const CacheVerdict spread = cache_verdict(small_l3, 16, "spread", 24 * GiB);
  EXPECT_FALSE(spread.levels[2].plausible);
  EXPECT_TRUE(spread.implausible_caches.empty());
  EXPECT_FALSE(spread.last_level_unknown);
  EXPECT_EQ(spread.dram_threshold_bytes, 16 * MiB);
}

}  // namespace
}  // namespace roofline
