// Host-side tests of the CUDA target's plan of a run (issue 61, step 4), no GPU and no CUDA needed: every suite's
// benchmarks, named by the functions the prepared work names itself with (names.hpp), in run order, with the device
// budgets; --suites, --sizes and --batches; a plan made twice is the same plan (its hash). The hand-made H200
// properties are tests/data/cuda's (not measured).
#include <fstream>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "roofline/common/errors.hpp"
#include "roofline/cuda/facts.hpp"
#include "roofline/cuda/names.hpp"
#include "roofline/cuda/suite_plan.hpp"
#include "roofline/harness/profile.hpp"
#include "roofline/harness/target.hpp"

namespace roofline::cuda {
namespace {

constexpr std::uint64_t kMiB = 1ULL << 20U;

CudaPlanInput h200_input(bool quick) {
  std::ifstream in(std::string(ROOFLINE_TEST_DATA_DIR) + "/cuda/h200-sxm-properties-handmade.json");
  const CudaProperties p = cuda_properties_from_json(nlohmann::json::parse(in));
  return {quick, p.l2_bytes, p.memory_free_bytes, compute_capability(p)};
}

std::vector<std::string> names_of(const SuitePlan& s) {
  std::vector<std::string> out;
  for (const PlanEntry& e : s.entries) out.push_back(e.name);
  return out;
}

TEST(CudaSuitePlan, EverySuiteInRunOrderNamedAsItsWorkNamesIt) {
  for (bool quick : {true, false}) {
    RunConfig config;
    config.profile = quick ? Profile::quick : Profile::full;
    const CudaPlan plan = plan_cuda_run(h200_input(quick), config, "cuda:0");
    const std::vector<SuitePlan> suites = cuda_suite_plans(plan, config, "cuda:0");
    ASSERT_EQ(suites.size(), cuda_suites().size());
    for (std::size_t i = 0; i < suites.size(); ++i) {
      EXPECT_EQ(suites[i].suite, cuda_suites()[i]);
      EXPECT_EQ(suites[i].target, "cuda:0");
      EXPECT_EQ(suites[i].budget_s, suite_budget_seconds(config.profile, true, suites[i].suite));
    }
    std::vector<std::string> bandwidth;
    for (MemoryKernel k : kMemoryKernels) {
      for (std::uint64_t ws : plan.bandwidth_bytes) bandwidth.push_back(bandwidth_name(k, ws));
    }
    EXPECT_EQ(names_of(suites[0]), bandwidth);
    EXPECT_EQ(suites[0].notes, plan.notes);
    std::vector<std::string> compute;
    for (ComputeKind k : kComputeKinds) compute.push_back(fma_name(k));
    for (const std::string& p : plan.ceiling_precisions) {
      compute.push_back(gemm_name("compute", p, plan.ceiling_size, plan.ceiling_size, plan.ceiling_size));
    }
    EXPECT_EQ(names_of(suites[1]), compute);
    std::vector<std::string> gemm;
    for (const WeightShape& shape : plan.gemm_shapes) {
      for (const GemmSweep& sweep : plan.gemm_sweeps) {
        for (int n : sweep.batches) gemm.push_back(gemm_name("gemm", sweep.precision, shape.m, n, shape.k));
      }
    }
    EXPECT_EQ(names_of(suites[2]), gemm);
    EXPECT_EQ(names_of(suites[3]),
              (std::vector<std::string>{transfer_benchmark_name("host_to_device", "pinned", plan.transfer_bytes),
                                        transfer_benchmark_name("host_to_device", "pageable", plan.transfer_bytes),
                                        transfer_benchmark_name("device_to_host", "pinned", plan.transfer_bytes),
                                        transfer_benchmark_name("device_to_host", "pageable", plan.transfer_bytes)}));
    EXPECT_EQ(names_of(suites[4]), std::vector<std::string>{latency_benchmark_name()});
    std::set<std::string> unique;
    for (const SuitePlan& s : suites) {
      for (const PlanEntry& e : s.entries) {
        EXPECT_TRUE(unique.insert(e.name).second) << e.name;
        EXPECT_EQ(e.repetitions, DeviceWork{}.repetitions) << e.name;
        EXPECT_EQ(e.threads, 0) << e.name;
        EXPECT_GT(e.estimate_s, 0.0) << e.name;
      }
    }
  }
}

TEST(CudaSuitePlan, ABandwidthNameCountsTheKernelsWholeVectors) {
  // triad: three arrays of whole 16-byte vectors; read: one.
  EXPECT_EQ(bandwidth_name(MemoryKernel::triad, kMiB), "bandwidth/triad/bytes:1048560");
  EXPECT_EQ(bandwidth_counted_bytes(MemoryKernel::read, kMiB + 8), kMiB);
  EXPECT_EQ(bandwidth_words(MemoryKernel::copy, kMiB), kMiB / 8);
  EXPECT_EQ(fma_name(ComputeKind::fp16x2), "compute/fma/fp16x2");
  EXPECT_EQ(gemm_name("gemm", "fp16", 8192, 1, 8192), "gemm/cublaslt/fp16/m:8192/n:1/k:8192");
}

TEST(CudaSuitePlan, OnlyTheSuitesAskedForAndTheSameHashTwice) {
  RunConfig config;
  config.suites = {"gemm", "latency"};
  const CudaPlan plan = plan_cuda_run(h200_input(true), config, "cuda:0");
  RunPlan a;
  a.suites = cuda_suite_plans(plan, config, "cuda:0");
  RunPlan b;
  b.suites = cuda_suite_plans(plan_cuda_run(h200_input(true), config, "cuda:0"), config, "cuda:0");
  ASSERT_EQ(a.suites.size(), 2U);
  EXPECT_EQ(a.suites[0].suite, "gemm");
  EXPECT_EQ(a.suites[1].suite, "latency");
  EXPECT_EQ(a.hash(), b.hash());
}

TEST(CudaSuitePlan, SizesAndBatchesFromTheFlags) {
  RunConfig config;
  config.sizes = {100, 1000 * 1000};
  config.batches = {1, 4};
  const CudaPlan plan = plan_cuda_run(h200_input(true), config, "cuda:0");
  EXPECT_EQ(plan.bandwidth_bytes, (std::vector<std::uint64_t>{96, 999984}));
  for (const GemmSweep& s : plan.gemm_sweeps) EXPECT_EQ(s.batches, (std::vector<int>{1, 4}));
  config.sizes = {1ULL << 50U};
  try {
    (void)plan_cuda_run(h200_input(true), config, "cuda:0");
    FAIL() << "a size beyond the free memory was planned";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--sizes: the largest size does not fit cuda:0's free memory"), std::string::npos);
  }
}

}  // namespace
}  // namespace roofline::cuda
