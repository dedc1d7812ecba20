// The gemm plan per profile: what each backend's quick plan runs (from the backend, not from names in the
// planner), every batch in full, and unknown or unbuilt backends refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "roofline/cpu/gemm_plan.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/harness/profile.hpp"

namespace roofline {
namespace {
RunConfig two_threads(Profile profile) {
  RunConfig c;
  c.profile = profile;
  c.thread_counts = {1, 2};
  return c;
}

const GemmGroup* find(const GemmPlan& plan, std::string_view backend, Precision p, int threads) {
  for (const GemmGroup& g : plan.groups) {
    if (g.backend->name() == backend && g.precision == p && g.threads == threads) return &g;
  }
  return nullptr;
}

// Every batch a backend x precision x threads runs, over its DRAM- and compute-shape groups.
std::vector<int> batches(const GemmPlan& plan, std::string_view backend, Precision p, int threads) {
  std::vector<int> out;
  for (const GemmGroup& g : plan.groups) {
    if (g.backend->name() == backend && g.precision == p && g.threads == threads) out.insert(out.end(), g.batches.begin(), g.batches.end());
  }
  std::sort(out.begin(), out.end());
  return out;
}

IsaFeatures avx512() {
  IsaFeatures f;
  f.avx2 = f.fma = f.avx512f = true;
  return f;
}
}  // namespace

TEST(GemmPlan, QuickFollowsEachBackendsQuickPlan) {
  const GemmPlan plan = plan_gemm(two_threads(Profile::quick));
  const GemmGroup* sweep = find(plan, "eigen", Precision::fp32, 2);
  ASSERT_NE(sweep, nullptr);
  EXPECT_EQ(batches(plan, "eigen", Precision::fp32, 2), default_gemm_batches());
  const GemmGroup* one = find(plan, "eigen", Precision::fp32, 1);
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(batches(plan, "eigen", Precision::fp32, 1), (std::vector<int>{1, 64}));
  EXPECT_EQ(find(plan, "eigen", Precision::fp64, 1), nullptr);  // only the fp32 curve runs at fewer threads
  ASSERT_NE(find(plan, "eigen", Precision::fp64, 2), nullptr);
  EXPECT_EQ(batches(plan, "eigen", Precision::fp64, 2), (std::vector<int>{1, 64}));
  if (find_gemm_backend("onednn") != nullptr) {
    ASSERT_NE(find(plan, "onednn", Precision::bf16, 2), nullptr);
    EXPECT_EQ(batches(plan, "onednn", Precision::bf16, 2), (std::vector<int>{1, 256}));
    EXPECT_EQ(batches(plan, "onednn", Precision::int8, 2), (std::vector<int>{1, 1024}));
  }
  if (find_gemm_backend("openblas") != nullptr) {
    EXPECT_NE(find(plan, "openblas", Precision::fp32, 2), nullptr);
    EXPECT_EQ(find(plan, "openblas", Precision::fp64, 2), nullptr);
  }
}

TEST(GemmPlan, FullRunsEveryBatchOfEveryGroup) {
  const GemmPlan plan = plan_gemm(two_threads(Profile::full));
  ASSERT_FALSE(plan.groups.empty());
  for (const GemmGroup& g : plan.groups) {
    EXPECT_EQ(batches(plan, g.backend->name(), g.precision, g.threads), default_gemm_batches());
  }
  EXPECT_NE(find(plan, "eigen", Precision::fp64, 1), nullptr);
}

// Issue 60: the batch-1 GEMV (and every memory-bound batch) at the DRAM shape, weights at least 4x the cache; the
// batches compute-bound by construction at a smaller compute shape whose largest call fills the cores for the
// profile's compute_fill_s at the planning rate; the same shapes in every plan of one machine.
TEST(GemmPlan, ShapesPerBatchFromWhatEachPointMustShow) {
  RunConfig c = two_threads(Profile::quick);
  c.features = avx512();
  const double cache = 32.0 * 1024 * 1024;
  const GemmPlan plan = plan_gemm(c, cache, "test");
  int compute_groups = 0;
  for (const GemmGroup& g : plan.groups) {
    const double ridge = planning_ops_per_thread(g.precision, c.features) * g.threads / kPlanningDramBytesPerSecond;
    if (!g.compute_shape) {
      EXPECT_GE(double(g.m) * double(g.k) * gemm_operand_bytes(g.precision).a, kGemmCacheFactor * cache);
      EXPECT_EQ(g.m, quick_gemm_side(cache, g.precision));
      // Where a compute shape was made, every batch left at the DRAM shape is memory-bound by the planning ridge.
      const bool split = std::any_of(plan.groups.begin(), plan.groups.end(), [&](const GemmGroup& o) {
        return o.compute_shape && o.backend == g.backend && o.precision == g.precision && o.threads == g.threads;
      });
      for (int n : g.batches) {
        if (n == 1 || !split) continue;
        EXPECT_LT(gemm_arithmetic_intensity(GemmShape{g.m, n, g.k}, g.precision), kComputeBoundRidgeFactor * ridge) << n;
      }
      continue;
    }
    ++compute_groups;
    EXPECT_EQ(g.batches.front() > 1, true);
    EXPECT_EQ(g.m % 512, 0);
    EXPECT_GE(g.m, 1024);
    EXPECT_LT(g.m, quick_gemm_side(cache, g.precision));
    const double fill = profile_settings(c.profile).gemm.compute_fill_s;
    EXPECT_GE(gemm_operations(GemmShape{g.m, g.batches.back(), g.k}), planning_ops_per_thread(g.precision, c.features) * g.threads * fill);
    for (int n : g.batches) EXPECT_GE(gemm_arithmetic_intensity(GemmShape{g.m, n, g.k}, g.precision), kComputeBoundRidgeFactor * ridge) << n;
    // Its DRAM-shape sibling runs batch 1 (the GEMV) of the same backend, precision and threads.
    const GemmGroup* dram = find(plan, g.backend->name(), g.precision, g.threads);
    ASSERT_NE(dram, nullptr);
    EXPECT_FALSE(dram->compute_shape);
    EXPECT_EQ(dram->batches.front(), 1);
  }
  EXPECT_GT(compute_groups, 0);
  // The eigen fp32 curve: 1..64 at the DRAM shape, 128..1024 at the compute shape.
  const GemmGroup* curve = find(plan, "eigen", Precision::fp32, 2);
  ASSERT_NE(curve, nullptr);
  EXPECT_EQ(curve->batches, (std::vector<int>{1, 2, 4, 8, 16, 32, 64}));
  EXPECT_EQ(batches(plan, "eigen", Precision::fp32, 2), default_gemm_batches());
  // The same plan twice: identical shapes.
  const GemmPlan again = plan_gemm(c, cache, "test");
  ASSERT_EQ(again.groups.size(), plan.groups.size());
  for (std::size_t i = 0; i < plan.groups.size(); ++i) {
    EXPECT_EQ(gemm_spec_name(again.groups[i], again.groups[i].batches.back()), gemm_spec_name(plan.groups[i], plan.groups[i].batches.back()));
  }
}

// The roof of the moment around a point is the plan's decision (issue 61, step 4), never this run's measured peak:
// batch 1 always, every batch at the DRAM shape of a split group (memory-bound by the planning ridge), no batch of a
// compute-shape group; the same points in every plan of one machine.
TEST(GemmPlan, RoofProbesAreDecidedByThePlan) {
  RunConfig c = two_threads(Profile::quick);
  c.features = avx512();
  const GemmPlan plan = plan_gemm(c, 32.0 * 1024 * 1024, "test");
  int probed = 0;
  for (const GemmGroup& g : plan.groups) {
    for (int n : g.batches) {
      const bool probe = gemm_roof_probe_planned(g, n, c.features);
      if (n == 1) {
        EXPECT_TRUE(probe);
      }
      if (g.compute_shape) {
        EXPECT_FALSE(probe) << gemm_spec_name(g, n);
      }
      probed += probe && n > 1;
    }
  }
  // The eigen fp32 curve at the DRAM shape (1..64) is probed throughout.
  const GemmGroup* curve = find(plan, "eigen", Precision::fp32, 2);
  ASSERT_NE(curve, nullptr);
  for (int n : curve->batches) EXPECT_TRUE(gemm_roof_probe_planned(*curve, n, c.features)) << n;
  EXPECT_GT(probed, 0);
  // A batch far past the ridge at a user's shape is not probed; the rule reads the ISA, not a measurement.
  GemmGroup user = *curve;
  user.m = user.k = 8192;
  EXPECT_FALSE(gemm_roof_probe_planned(user, 1024, c.features));
  EXPECT_TRUE(gemm_roof_probe_planned(user, 1, c.features));
}

TEST(GemmPlan, AUserShapeKeepsEveryBatch) {
  RunConfig c = two_threads(Profile::quick);
  c.features = avx512();
  c.gemm_m = 2048;
  c.gemm_k = 1024;
  const GemmPlan plan = plan_gemm(c, 32.0 * 1024 * 1024, "test");
  for (const GemmGroup& g : plan.groups) {
    EXPECT_FALSE(g.compute_shape);
    EXPECT_EQ(g.m, 2048);
    EXPECT_EQ(g.k, 1024);
  }
  EXPECT_EQ(batches(plan, "eigen", Precision::fp32, 2), default_gemm_batches());
}

TEST(GemmPlan, UnknownBackendIsRefused) {
  RunConfig c = two_threads(Profile::quick);
  c.backends = {"cublas"};
  try {
    plan_gemm(c);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'cublas' is not a GEMM backend"), std::string::npos) << e.what();
  }
}

// Issue 60: groups of one precision and shape run back to back (in the order of the first of them, those of one
// thread count together), each share spans them, sized for the largest batch and filled by the widest team; on a
// machine of several NUMA nodes, a share is of one thread count only.
TEST(GemmPlan, GroupsOfOneShapeRunBackToBackAndShareTheirOperands) {
  for (Profile profile : {Profile::quick, Profile::full}) {
    RunConfig c = two_threads(profile);
    c.features = avx512();
    GemmPlan plan = plan_gemm(c, 32.0 * 1024 * 1024, "test");
    const std::vector<GemmOperandShare> shares = gemm_operand_shares(plan);
    ASSERT_FALSE(shares.empty());
    std::size_t next = 0;
    std::vector<std::tuple<Precision, std::int64_t, std::int64_t>> seen;
    for (const GemmOperandShare& s : shares) {
      EXPECT_EQ(s.first, next);
      ASSERT_LE(s.last, plan.groups.size() - 1);
      next = s.last + 1;
      const GemmGroup& first = plan.groups[s.first];
      const std::tuple shape{first.precision, first.m, first.k};
      EXPECT_EQ(std::count(seen.begin(), seen.end(), shape), 0) << "a shape's groups are not back to back";
      seen.push_back(shape);
      std::int64_t max_n = 0;
      int threads = 0;
      for (std::size_t i = s.first; i <= s.last; ++i) {
        const GemmGroup& g = plan.groups[i];
        EXPECT_EQ(std::tuple(g.precision, g.m, g.k), shape);
        max_n = std::max<std::int64_t>(max_n, g.batches.back());
        threads = std::max(threads, g.threads);
      }
      EXPECT_EQ(s.max_n, max_n);
      EXPECT_EQ(s.threads, threads);
    }
    EXPECT_EQ(next, plan.groups.size());
    // The quick plan's fp32 DRAM shape is shared by eigen on 1 and 2 threads (and onednn, openblas where built).
    const GemmGroup* eigen1 = find(plan, "eigen", Precision::fp32, 1);
    ASSERT_NE(eigen1, nullptr);
    const auto shared = std::find_if(shares.begin(), shares.end(), [&](const GemmOperandShare& s) {
      return &plan.groups[s.first] == eigen1;
    });
    ASSERT_NE(shared, shares.end());
    EXPECT_GE(shared->last - shared->first + 1, 2u);
    EXPECT_EQ(shared->threads, 2);

    // Several NUMA nodes: the same order, each share of one thread count.
    plan.share_across_threads = false;
    for (const GemmOperandShare& s : gemm_operand_shares(plan)) {
      for (std::size_t i = s.first; i <= s.last; ++i) EXPECT_EQ(plan.groups[i].threads, s.threads);
    }
    EXPECT_GT(gemm_operand_shares(plan).size(), shares.size());
  }
}

}  // namespace roofline
