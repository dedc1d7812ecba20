// The CPU's plan (issue 46, roofline/cpu/cpu_plan.hpp): fixed from the machine facts and the profile alone
// (the same text and hash twice), the sweep past 8x the largest plausible cache (8x 32 MiB a core where the last
// level's size is not plausible, 1 GiB when none is reported), the spot and 4 KiB-page sizes in DRAM by construction,
// the GEMM shapes from the plausible cache, every benchmark once.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "roofline/cpu/cpu_plan.hpp"
#include "roofline/harness/profile.hpp"

namespace roofline {
namespace {

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

// The 2-vCPU Zen 5 guest of issue 46: 48 KiB L1d and 1 MiB L2 per core, one 32 MiB L3 for both.
MachineFacts zen5_guest() {
  MachineFacts m;
  m.cores = 2;
  m.pus = 2;
  m.memory_total_bytes = 8 * GiB;
  m.caches = {{1, "data", 48 * KiB, 2, 1, "hwloc"}, {2, "unified", 1 * MiB, 2, 1, "hwloc"},
              {3, "unified", 32 * MiB, 1, 2, "hwloc"}};
  return m;
}

RunConfig quick_config() {
  RunConfig c;
  c.profile = Profile::quick;
  c.thread_counts = {1, 2};
  c.memory_budget_bytes = 4 * GiB;
  return c;
}

TEST(CpuPlan, SweepEndsAtEightTimesThePlausibleCache) {
  const BandwidthPlan p = plan_bandwidth(quick_config(), zen5_guest());
  ASSERT_EQ(p.per_threads.size(), 2u);
  for (const BandwidthThreadPlan& t : p.per_threads) {
    EXPECT_EQ(t.cache_bytes, 32 * MiB) << t.threads;
    EXPECT_GE(t.sweep.sizes.back(), 256 * MiB);
    EXPECT_LT(t.sweep.sizes[t.sweep.sizes.size() - 2], 256 * MiB);
    // The spot kernels' last size and the 4 KiB-page runs lie beyond every plausible cache, in DRAM's octaves.
    ASSERT_FALSE(t.spot_sizes.empty());
    EXPECT_GE(t.spot_sizes.back(), 4 * 32 * MiB);
    ASSERT_EQ(t.small_page_sizes.size(), 1u);
    EXPECT_GE(t.small_page_sizes.front(), 4 * 32 * MiB);
    EXPECT_LE(t.small_page_sizes.front(), 8 * 32 * MiB);
  }
}

TEST(CpuPlan, WithoutAPlausibleLastCacheThePlanAssumesTheMostARealCpuCaches) {
  MachineFacts m = zen5_guest();
  m.caches.back() = {3, "unified", 508 * MiB, 2, 1, "hwloc"};  // issue 32's guest: 508 MiB per core
  const BandwidthPlan p = plan_bandwidth(quick_config(), m);
  EXPECT_FALSE(p.implausible.empty());
  for (const BandwidthThreadPlan& t : p.per_threads) {
    // The L3 is ignored; the L2s stay plausible.
    EXPECT_EQ(t.cache_bytes, static_cast<std::uint64_t>(t.threads) * MiB);
    // But a last level exists whose size is unknown: the sweep goes to 8x the most a real CPU caches for these threads
    // (32 MiB a core), not to 8x the L2 (inside that L3) nor to a fixed gibibyte (issue 60).
    EXPECT_EQ(unknown_last_cache_bytes(t.threads), static_cast<std::uint64_t>(t.threads) * 32 * MiB);
    EXPECT_EQ(t.sweep.sizes.back(), kSweepEndCacheFactor * unknown_last_cache_bytes(t.threads));
    // The spot kernels' DRAM size and the 4 KiB-page runs lie beyond it too.
    ASSERT_FALSE(t.spot_sizes.empty());
    EXPECT_GE(t.spot_sizes.back(), 4 * unknown_last_cache_bytes(t.threads));
    ASSERT_FALSE(t.small_page_sizes.empty());
    EXPECT_GE(t.small_page_sizes.front(), 4 * unknown_last_cache_bytes(t.threads));
  }
  EXPECT_TRUE(last_cache_unknown(m));
  EXPECT_EQ(dram_threshold_bytes(m, 2, BindPolicy::compact), 64 * MiB);
  // The GEMV's DRAM shapes: 4x the assumed last level at the largest thread count, not 4x the L2.
  for (const GemmGroup& group : plan_cpu_gemm(quick_config(), m).groups) {
    if (group.compute_shape) continue;
    EXPECT_EQ(group.m, quick_gemm_side(double(unknown_last_cache_bytes(2)), group.precision));
    EXPECT_GE(double(group.m) * double(group.k) * gemm_operand_bytes(group.precision).a, 4.0 * double(unknown_last_cache_bytes(2)));
  }
  // The dequant GEMVs' weights: 4x that, not 4x the raw 508 MiB L3 (which made them 1 GiB).
  EXPECT_EQ(dequant_gemv_weight_bytes(quick_config(), m), 4 * 64 * MiB);
  EXPECT_EQ(dequant_gemv_weight_bytes(quick_config(), zen5_guest()), 128 * MiB);
  EXPECT_FALSE(last_cache_unknown(zen5_guest()));
  m.caches.clear();
  for (const BandwidthThreadPlan& t : plan_bandwidth(quick_config(), m).per_threads) {
    EXPECT_EQ(t.cache_bytes, 0u);
    EXPECT_EQ(t.sweep.sizes.back(), kSweepDefaultEndBytes);
  }
}

TEST(CpuPlan, MemoryBudgetCapsTheSweepAndSaysDramMayNotBeReached) {
  RunConfig c = quick_config();
  c.memory_budget_bytes = 64 * MiB;
  const BandwidthPlan p = plan_bandwidth(c, zen5_guest());
  EXPECT_TRUE(p.per_threads.front().sweep.capped);
  ASSERT_FALSE(p.notes.empty());
  EXPECT_NE(p.notes.front().find("DRAM may not be reached"), std::string::npos) << p.notes.front();
}

TEST(CpuPlan, TheSamePlanTwiceEveryBenchmarkOnce) {
  const CpuPlan a = plan_cpu(quick_config(), zen5_guest());
  const CpuPlan b = plan_cpu(quick_config(), zen5_guest());
  RunPlan ra{a.suites, {}}, rb{b.suites, {}};
  EXPECT_EQ(ra.text(), rb.text());
  EXPECT_EQ(ra.hash(), rb.hash());
  EXPECT_EQ(ra.hash().size(), 16u);
  std::set<std::string> names;
  for (const SuitePlan& s : a.suites) {
    EXPECT_FALSE(s.entries.empty()) << s.suite;
    for (const PlanEntry& e : s.entries) {
      EXPECT_TRUE(names.insert(e.name).second) << e.name;
      EXPECT_GT(e.estimate_s, 0.0) << e.name;
      EXPECT_GT(e.repetitions, 0) << e.name;
    }
  }
  EXPECT_GT(ra.estimated_seconds(), 0.0);
  // Another profile is another plan.
  RunConfig full = quick_config();
  full.profile = Profile::full;
  const RunPlan rf{plan_cpu(full, zen5_guest()).suites, {}};
  EXPECT_NE(rf.hash(), ra.hash());
}

// The compute suite's plan is its rows (issue 61, step 4: the suite measures these, with no list of its own): the
// clock and every runnable peak row at each thread count, the dequant-dot rows in L1 and L2, the DRAM GEMVs; quick
// measures each format's best dequant row and batch 1 at the largest thread count, full every row and batches 1-16.
TEST(CpuPlan, TheComputeSuitesEntriesAreItsPlansRows) {
  for (const Profile profile : {Profile::quick, Profile::full}) {
    RunConfig c = quick_config();
    c.profile = profile;
    const CpuPlan p = plan_cpu(c, zen5_guest());
    const ComputePlan& compute = p.compute;
    EXPECT_EQ(compute.threads, c.thread_counts);
    EXPECT_EQ(compute.dequant_levels, (std::vector<Level>{Level::L1, Level::L2}));
    const bool quick = profile == Profile::quick;
    EXPECT_EQ(compute.dequant, quick ? compute.dequant_best : compute.dequant_runnable);
    EXPECT_EQ(compute.gemv_threads, quick ? std::vector<int>{2} : c.thread_counts);
    EXPECT_EQ(compute.gemv_batches, quick ? std::vector<int>{1} : (std::vector<int>{1, 2, 4, 8, 16}));
    std::vector<std::string> rows;
    for (const int t : compute.threads) {
      rows.push_back(clock_spec_name(t));
      for (const PeakVariant* v : compute.peak.runnable) rows.push_back(peak_spec_name(*v, t));
    }
    for (const int t : compute.threads) {
      for (const Level level : compute.dequant_levels) {
        for (const QuantDotVariant* v : compute.dequant) rows.push_back(dequant_dot_spec_name(*v, level, t));
      }
    }
    for (const QuantDotVariant* v : compute.dequant_best) {
      for (const int t : compute.gemv_threads) {
        for (const int b : compute.gemv_batches) rows.push_back(dequant_gemv_spec_name(*v, b, t));
      }
    }
    const auto suite = std::find_if(p.suites.begin(), p.suites.end(), [](const SuitePlan& s) { return s.suite == "compute"; });
    ASSERT_NE(suite, p.suites.end());
    std::vector<std::string> planned;
    for (const PlanEntry& e : suite->entries) planned.push_back(e.name);
    EXPECT_EQ(planned, rows);
  }
}

TEST(CpuPlan, GemmShapesComeFromThePlausibleCache) {
  const GemmPlan g = plan_cpu_gemm(quick_config(), zen5_guest());
  ASSERT_FALSE(g.groups.empty());
  for (const GemmGroup& group : g.groups) {
    if (group.compute_shape) continue;  // the compute-bound batches' own shape (test_gemm_plan.cpp)
    EXPECT_EQ(group.m, quick_gemm_side(32.0 * MiB, group.precision));
    EXPECT_GE(double(group.m) * double(group.k) * gemm_operand_bytes(group.precision).a, 4.0 * 32 * MiB);
  }
}

TEST(CpuPlan, AGemmPlanOverItsBudgetKeepsEveryOtherBatchOfItsSweepsAndSaysSo) {
  // No ISA features (the slowest planning rates) and a 96 MiB L3 (DRAM shapes 3x the guest's): far over the quick
  // gemm budget.
  MachineFacts big = zen5_guest();
  big.memory_total_bytes = 256 * GiB;
  big.caches.back() = {3, "unified", 96 * MiB, 1, 2, "hwloc"};
  const CpuPlan p = plan_cpu(quick_config(), big);
  const SuitePlan& gemm = p.suites.back();
  ASSERT_EQ(gemm.suite, "gemm");
  // A sweep: every batch of one backend x precision x threads, over its DRAM- and compute-shape groups.
  std::map<std::tuple<std::string, Precision, int>, std::vector<int>> sweeps;
  for (const GemmGroup& g : p.gemm.groups) {
    std::vector<int>& all = sweeps[{std::string(g.backend->name()), g.precision, g.threads}];
    all.insert(all.end(), g.batches.begin(), g.batches.end());
  }
  bool sweep = false;
  for (auto& [key, all] : sweeps) {
    if (all.size() <= 2) continue;
    sweep = true;
    std::sort(all.begin(), all.end());
    EXPECT_EQ(all, (std::vector<int>{1, 4, 16, 64, 256, 1024}));
  }
  ASSERT_TRUE(sweep);  // the plan was thinned, not left whole
  bool said = false;
  for (const std::string& n : gemm.notes) said = said || n.find("every other batch") != std::string::npos;
  EXPECT_TRUE(said);
  // --batches is the work asked for: never thinned.
  RunConfig c = quick_config();
  c.batches = {1, 2, 4, 8};
  std::map<std::tuple<std::string, Precision, int>, std::size_t> asked;
  for (const GemmGroup& g : plan_cpu(c, zen5_guest()).gemm.groups) asked[{std::string(g.backend->name()), g.precision, g.threads}] += g.batches.size();
  for (const auto& [key, count] : asked) EXPECT_EQ(count, 4u);
}

TEST(CpuPlan, ABudgetTheSweepExceedsMakesItCoarserAndSaysSo) {
  // 1 GiB of L3 per thread count would take the sweep to 8 GiB: far over the quick budget at 2 sizes per octave.
  MachineFacts m = zen5_guest();
  m.memory_total_bytes = 256 * GiB;
  m.caches.back() = {3, "unified", 96 * MiB, 1, 2, "hwloc"};
  RunConfig c = quick_config();
  c.memory_budget_bytes = 64 * GiB;
  const CpuPlan p = plan_cpu(c, m);
  const SuitePlan& bw = p.suites.front();
  ASSERT_EQ(bw.suite, "bandwidth");
  if (p.bandwidth.per_octave == 1) {
    bool said = false;
    for (const std::string& n : bw.notes) said = said || n.find("1 size per octave") != std::string::npos;
    EXPECT_TRUE(said);
  } else {
    EXPECT_LE(bw.estimated_seconds(), bw.budget_s);
  }
}


// Every peak row of the table has a name of its own, whichever rows this CPU runs: the two AMX int8 tile rows (TDPBSSD
// and TDPBUSD: one precision, ISA and width) once shared one, so a machine with AMX measured one name twice and its
// run no longer matched its plan.
TEST(CpuPlan, EveryPeakRowHasANameOfItsOwn) {
  // Variants of one row (an FMA and its mul+add stand-in, best first) share its name; only one of them runs. Every
  // tile variant is a row that runs (peak.cpp's same_row).
  std::map<std::string, const PeakVariant*> seen;
  for (const PeakVariant& v : peak_variants()) {
    const std::string name = peak_spec_name(v, 2);
    const auto [it, inserted] = seen.emplace(name, &v);
    if (inserted) continue;
    const PeakVariant& w = *it->second;
    const bool one_row = v.op != PeakOp::tile && w.op != PeakOp::tile && v.precision == w.precision &&
                         v.isa == w.isa && v.vector_bits == w.vector_bits;
    if (!one_row) ADD_FAILURE() << name << ": " << w.name << " and " << v.name;
  }
  EXPECT_TRUE(seen.count("compute/tile/int8/amx/bits:8192/threads:2/tdpbssd") == 1 ||
              std::none_of(peak_variants().begin(), peak_variants().end(),
                           [](const PeakVariant& v) { return v.op == PeakOp::tile; }));
}
}  // namespace
}  // namespace roofline
