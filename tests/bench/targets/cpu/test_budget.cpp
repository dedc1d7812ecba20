// The time budgets (issue 32): the profile table's budgets (quick CPU within 30 s, a device within 60 s), a suite's
// budget clock and the notes of what it cut, the progress line a log gets, the reported caches the sweep believes,
// and the quick GEMM shapes sized from the target's largest cache.
#include <gtest/gtest.h>

#include <thread>

#include "roofline/cpu/bandwidth_plan.hpp"
#include "roofline/harness/budget.hpp"
#include "roofline/cpu/gemm_plan.hpp"
#include "roofline/harness/profile.hpp"
#include "roofline/harness/progress.hpp"
#include "roofline/common/gemm_count.hpp"

namespace roofline {
namespace {

constexpr double MiB = 1024.0 * 1024.0;

TEST(Budget, QuickFitsItsPromiseAndFullIsLonger) {
  // 30 s on the CPU with about a second of the environment guard's canaries; 60 s per device.
  EXPECT_LE(profile_budget_seconds(Profile::quick, false), 29.0);
  EXPECT_LE(profile_budget_seconds(Profile::quick, true), 60.0);
  for (const char* suite : {"bandwidth", "compute", "gemm"}) {
    EXPECT_GT(suite_budget_seconds(Profile::quick, false, suite), 0.0) << suite;
    EXPECT_GE(suite_budget_seconds(Profile::full, false, suite), suite_budget_seconds(Profile::quick, false, suite));
  }
  for (const char* suite : {"bandwidth", "compute", "gemm", "transfer", "latency"}) {
    EXPECT_GT(suite_budget_seconds(Profile::quick, true, suite), 0.0) << suite;
    EXPECT_GE(suite_budget_seconds(Profile::full, true, suite), suite_budget_seconds(Profile::quick, true, suite));
  }
  EXPECT_EQ(suite_budget_seconds(Profile::quick, false, "llm"), 0.0);  // not in the table: no budget
  // The quick sweep never reaches 8 GiB (issue 32 saw it there), whatever the caches say.
}

TEST(Budget, AllowsWorkThatEndsInsideAndNamesWhatItCut) {
  SuiteBudget none;
  EXPECT_FALSE(none.bounded());
  EXPECT_TRUE(none.allows(1e9));
  SuiteBudget b(0.05);
  EXPECT_TRUE(b.allows(0.01));
  EXPECT_FALSE(b.allows(1.0));
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  EXPECT_LT(b.left(), 0.0);
  EXPECT_FALSE(b.allows(0.0));
  const std::string note = b.cut("gemm", "onednn bf16 threads:2 batches 256");
  EXPECT_NE(note.find("gemm: the time budget (0 s)"), std::string::npos) << note;
  EXPECT_NE(note.find("onednn bf16 threads:2 batches 256 (not measured"), std::string::npos) << note;
  EXPECT_EQ(b.cuts(), (std::vector<std::string>{"onednn bf16 threads:2 batches 256"}));
}

TEST(Progress, ALogGetsOneLinePerSuiteWithWhatIsLeft) {
  Progress p(true, false);  // stderr not a terminal
  p.plan({{"bandwidth", 12.0}, {"compute", 7.0}, {"gemm", 9.0}});
  p.begin_suite("bandwidth");
  const std::string line = p.suite_line("bandwidth", 11.5);
  EXPECT_NE(line.find("bandwidth done in 11.5 s (budget 12 s); next compute, gemm, about 16 s left"), std::string::npos)
      << line;
  EXPECT_NEAR(p.estimated_left(), 28.0, 0.5);
  p.begin_suite("compute");
  p.begin_suite("gemm");
  EXPECT_NE(p.suite_line("gemm", 8.0).find("the last suite"), std::string::npos);
  Progress unknown(true, false);
  unknown.plan({{"bandwidth", 0.0}});
  EXPECT_LT(unknown.estimated_left(), 0.0);  // no budget: no estimate, never a made-up one
}

TEST(BandwidthPlan, ImplausibleReportedCachesAreNamed) {
  MachineFacts m;
  m.memory_total_bytes = 24ull << 30;
  // This KVM guest's hwloc: an L3 of 508 MiB per core, two instances.
  m.caches = {{1, "data", 48 * 1024, 2, 1, "hwloc"}, {2, "unified", 1 << 20, 2, 1, "hwloc"},
              {3, "unified", 508ull << 20, 2, 1, "hwloc"}};
  const std::vector<std::string> why = implausible_caches(m);
  ASSERT_EQ(why.size(), 1u);
  EXPECT_NE(why.front().find("hwloc reports an L3 of 508 MiB"), std::string::npos) << why.front();
  // A real one: 32 MiB shared by 8 cores.
  m.caches.back() = {3, "unified", 32ull << 20, 1, 8, "hwloc"};
  EXPECT_TRUE(implausible_caches(m).empty());
  // 64 instances of 32 MiB on a 4 GiB machine: more than an eighth of its memory.
  m.memory_total_bytes = 4ull << 30;
  m.caches.back() = {3, "unified", 32ull << 20, 64, 1, "cpuid"};
  EXPECT_EQ(implausible_caches(m).size(), 1u);
}

TEST(GemmPlan, QuickShapesExceedTheCacheFourTimesAndNoMore) {
  for (Precision p : {Precision::fp64, Precision::fp32, Precision::bf16, Precision::int8}) {
    for (double cache : {2.0 * MiB, 32.0 * MiB, 96.0 * MiB}) {
      const std::int64_t side = quick_gemm_side(cache, p);
      const double a = gemm_operand_bytes(p).a;
      EXPECT_EQ(side % 512, 0);
      ASSERT_LT(side, kMaxQuickGemmSide) << to_string(p) << " " << cache;  // the cap is for nonsense caches only
      EXPECT_GE(double(side) * double(side) * a, kGemmCacheFactor * cache) << to_string(p) << " " << cache;
      if (side > 1024) {  // one step smaller would not be enough
        EXPECT_LT(double(side - 512) * double(side - 512) * a, kGemmCacheFactor * cache) << to_string(p);
      }
    }
  }
  EXPECT_EQ(quick_gemm_side(0.0, Precision::fp32), kDefaultGemmM);  // nothing known: the default
  EXPECT_EQ(quick_gemm_side(1e12, Precision::fp32), kMaxQuickGemmSide);

  RunConfig c;
  c.profile = Profile::quick;
  c.thread_counts = {1, 2};
  const GemmPlan plan = plan_gemm(c, 32.0 * MiB, "the bandwidth curve");
  ASSERT_FALSE(plan.groups.empty());
  for (const GemmGroup& g : plan.groups) {
    // The compute-bound batches' group: a smaller shape of its own (gemm_plan.hpp, issue 60).
    if (g.compute_shape) EXPECT_LT(g.m, quick_gemm_side(32.0 * MiB, g.precision));
    else EXPECT_EQ(g.m, quick_gemm_side(32.0 * MiB, g.precision));
    EXPECT_EQ(g.k, g.m);
  }
  EXPECT_NE(plan.shape_source.find("the bandwidth curve"), std::string::npos);
  c.gemm_m = 4096;
  c.gemm_k = 2048;
  for (const GemmGroup& g : plan_gemm(c, 32.0 * MiB, "x").groups) EXPECT_EQ(std::make_pair(g.m, g.k), std::make_pair(std::int64_t{4096}, std::int64_t{2048}));
  c.gemm_m = c.gemm_k = 0;
  c.profile = Profile::full;
  // full: the default shape, larger where 4x the cache needs it (int8: 11776^2 bytes > 4 x 32 MiB).
  for (const GemmGroup& g : plan_gemm(c, 32.0 * MiB, "x").groups) {
    if (g.compute_shape) continue;
    EXPECT_EQ(g.m, std::max(kDefaultGemmM, quick_gemm_side(32.0 * MiB, g.precision))) << to_string(g.precision);
  }
}

}  // namespace
}  // namespace roofline
