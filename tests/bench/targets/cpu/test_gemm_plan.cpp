// The gemm plan per profile: what each backend's quick plan runs (from the backend, not from names in the
// planner), every batch in full, and unknown or unbuilt backends refused.
#include <gtest/gtest.h>

#include <algorithm>

#include "roofline/cpu/gemm_plan.hpp"
#include "roofline/common/errors.hpp"

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
}  // namespace

TEST(GemmPlan, QuickFollowsEachBackendsQuickPlan) {
  const GemmPlan plan = plan_gemm(two_threads(Profile::quick));
  const GemmGroup* sweep = find(plan, "eigen", Precision::fp32, 2);
  ASSERT_NE(sweep, nullptr);
  EXPECT_EQ(sweep->batches, default_gemm_batches());
  const GemmGroup* one = find(plan, "eigen", Precision::fp32, 1);
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->batches, (std::vector<int>{1, 64}));
  EXPECT_EQ(find(plan, "eigen", Precision::fp64, 1), nullptr);  // only the fp32 curve runs at fewer threads
  ASSERT_NE(find(plan, "eigen", Precision::fp64, 2), nullptr);
  EXPECT_EQ(find(plan, "eigen", Precision::fp64, 2)->batches, (std::vector<int>{1, 64}));
  if (find_gemm_backend("onednn") != nullptr) {
    ASSERT_NE(find(plan, "onednn", Precision::bf16, 2), nullptr);
    EXPECT_EQ(find(plan, "onednn", Precision::bf16, 2)->batches, (std::vector<int>{1, 256}));
    EXPECT_EQ(find(plan, "onednn", Precision::int8, 2)->batches, (std::vector<int>{1, 1024}));
  }
  if (find_gemm_backend("openblas") != nullptr) {
    EXPECT_NE(find(plan, "openblas", Precision::fp32, 2), nullptr);
    EXPECT_EQ(find(plan, "openblas", Precision::fp64, 2), nullptr);
  }
}

TEST(GemmPlan, FullRunsEveryBatchOfEveryGroup) {
  const GemmPlan plan = plan_gemm(two_threads(Profile::full));
  ASSERT_FALSE(plan.groups.empty());
  for (const GemmGroup& g : plan.groups) EXPECT_EQ(g.batches, default_gemm_batches());
  EXPECT_NE(find(plan, "eigen", Precision::fp64, 1), nullptr);
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

}  // namespace roofline
