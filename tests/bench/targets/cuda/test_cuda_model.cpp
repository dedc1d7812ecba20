// Host-side tests of the CUDA target (issue 23), run in every build, no GPU and no CUDA needed: the peak table
// (its rows, sources and the theoretical peaks they give), the plans, a device's TargetFacts from hand-made H200
// properties (tests/data/cuda: not measured), NVML's throttle-reason names, and the kernels' closed forms that the
// device validators compare with.
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "roofline/report/spec.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/cuda/facts.hpp"
#include "roofline/cuda/nvml.hpp"
#include "roofline/cuda/peak_table.hpp"
#include "roofline/cuda/plan.hpp"
#include "roofline/kernels/cuda/compute.hpp"
#include "roofline/kernels/cuda/gemm_cublaslt.hpp"
#include "roofline/kernels/cuda/memory.hpp"

namespace roofline::cuda {
namespace {

constexpr std::uint64_t kMiB = 1ULL << 20U;
constexpr std::uint64_t kGiB = 1ULL << 30U;

nlohmann::json read_json(const std::string& name) {
  std::ifstream in(std::string(ROOFLINE_TEST_DATA_DIR) + "/cuda/" + name);
  return nlohmann::json::parse(in);
}

CudaProperties h200() { return cuda_properties_from_json(read_json("h200-sxm-properties-handmade.json")); }

TEST(CudaPeakTable, HasEveryComputeCapabilityOfTheIssueWithASourcePerNumber) {
  for (auto [major, minor] : {std::pair{8, 0}, {8, 6}, {8, 9}, {9, 0}, {10, 0}}) {
    const ComputeCapabilityPeaks* row = find_peaks(major, minor);
    ASSERT_NE(row, nullptr) << major << "." << minor;
    for (const PeakRate& r : row->rates) {
      EXPECT_GT(r.ops_per_sm_per_clock, 0) << r.key;
      EXPECT_GT(r.source.size(), 20U) << r.key << " has no source";
    }
    EXPECT_GT(ops_per_sm_per_clock(*row, "fp32/vector"), 0);
    EXPECT_GT(ops_per_sm_per_clock(*row, "bf16/matrix"), 0);
    EXPECT_GT(ops_per_sm_per_clock(*row, "int8/matrix"), 0);
  }
  EXPECT_EQ(find_peaks(7, 5), nullptr);
  EXPECT_EQ(find_peaks(12, 0), nullptr);
}

TEST(CudaPeakTable, Fp8OnlyFromAda) {
  EXPECT_EQ(ops_per_sm_per_clock(*find_peaks(8, 0), "fp8/matrix"), 0);
  EXPECT_EQ(ops_per_sm_per_clock(*find_peaks(8, 6), "fp8/matrix"), 0);
  EXPECT_GT(ops_per_sm_per_clock(*find_peaks(8, 9), "fp8/matrix"), 0);
  EXPECT_GT(ops_per_sm_per_clock(*find_peaks(9, 0), "fp8/matrix"), 0);
}

// The table reproduces the datasheets' dense figures at the clocks they assume (within their rounding).
TEST(CudaPeakTable, ReproducesTheDatasheets) {
  const ComputeCapabilityPeaks& h100 = *find_peaks(9, 0);
  EXPECT_NEAR(theoretical_peak(h100, "bf16/matrix", 132, 1.83e9), 989.4e12, 1e12);
  EXPECT_NEAR(theoretical_peak(h100, "fp8/matrix", 132, 1.83e9), 1978.9e12, 2e12);
  EXPECT_NEAR(theoretical_peak(h100, "fp32/vector", 132, 1.98e9), 66.9e12, 0.1e12);
  EXPECT_NEAR(theoretical_peak(h100, "fp64/vector", 132, 1.98e9), 33.5e12, 0.1e12);
  const ComputeCapabilityPeaks& a100 = *find_peaks(8, 0);
  EXPECT_NEAR(theoretical_peak(a100, "bf16/matrix", 108, 1.41e9), 312e12, 0.5e12);
  EXPECT_NEAR(theoretical_peak(a100, "fp64/vector", 108, 1.41e9), 9.7e12, 0.1e12);
  const ComputeCapabilityPeaks& ada = *find_peaks(8, 9);
  EXPECT_NEAR(theoretical_peak(ada, "fp32/vector", 128, 2.52e9), 82.6e12, 0.1e12);
  EXPECT_NEAR(theoretical_peak(ada, "fp8/matrix", 142, 2.52e9), 733e12, 1e12);
  EXPECT_EQ(theoretical_peak(ada, "tf32/vector", 128, 2.52e9), 0);
}

TEST(CudaFacts, AnH200IsOneGpuTargetWithL2AndHbm) {
  const TargetFacts f = cuda_target_facts(h200());
  EXPECT_EQ(f.target, "cuda:0");
  EXPECT_EQ(f.kind, "gpu");
  EXPECT_EQ(f.api, "cuda");
  EXPECT_EQ(f.compute_units, 132);
  EXPECT_DOUBLE_EQ(f.clock_hz, 1.98e9);
  EXPECT_EQ(f.driver, "570.00.00 (CUDA 12.8)");
  ASSERT_EQ(f.memory_levels.size(), 2U);
  EXPECT_EQ(f.memory_levels[0].name, "L2");
  EXPECT_EQ(f.memory_levels[0].capacity_bytes, 62914560U);
  EXPECT_EQ(f.memory_levels[1].name, "HBM");
  EXPECT_EQ(f.memory_levels[1].capacity_bytes, 0U);
  EXPECT_EQ(f.peak_model, "units_clock");
  EXPECT_EQ(f.ops_per_unit_per_clock.at("bf16/matrix").get<double>(), 4096);
  EXPECT_EQ(f.ops_per_unit_per_clock.at("fp32/vector").get<double>(), 256);
  EXPECT_EQ(f.details.at("sms").get<int>(), 132);
}

TEST(CudaFacts, PropertiesRoundTripThroughJson) {
  const CudaProperties p = h200();
  const CudaProperties back = cuda_properties_from_json(to_json(p));
  EXPECT_EQ(back.name, p.name);
  EXPECT_EQ(back.major, 9);
  EXPECT_EQ(back.minor, 0);
  EXPECT_EQ(back.l2_bytes, p.l2_bytes);
  EXPECT_EQ(back.memory_total_bytes, p.memory_total_bytes);
  EXPECT_EQ(back.pci_bus_id, p.pci_bus_id);
}

TEST(CudaFacts, BadPropertiesAreOneLineNamingTheField) {
  nlohmann::json j = read_json("h200-sxm-properties-handmade.json");
  j.erase("sms");
  EXPECT_THROW(
      {
        try {
          cuda_properties_from_json(j);
        } catch (const InputError& e) {
          EXPECT_NE(std::string(e.what()).find("'sms'"), std::string::npos);
          throw;
        }
      },
      InputError);
  j = read_json("h200-sxm-properties-handmade.json");
  j["compute_capability"] = "9.0";
  EXPECT_THROW(cuda_properties_from_json(j), InputError);
}

TEST(CudaFacts, AComputeCapabilityOutsideTheTableHasNoTheoreticalModelAndSaysSo) {
  CudaProperties p = h200();
  p.major = 12;
  const TargetFacts f = cuda_target_facts(p);
  EXPECT_EQ(f.peak_model, "");
  EXPECT_TRUE(f.ops_per_unit_per_clock.empty());
  ASSERT_FALSE(f.notes.empty());
  EXPECT_NE(f.notes.front().find("not in the peak table"), std::string::npos);
}

TEST(CudaPlan, BandwidthSweepsFrom1MiBToEightL2AndFourGiB) {
  const CudaProperties p = h200();
  const CudaPlan plan = plan_cuda({true, p.l2_bytes, p.memory_free_bytes, 90});
  ASSERT_FALSE(plan.bandwidth_bytes.empty());
  EXPECT_LE(plan.bandwidth_bytes.front(), kMiB);
  EXPECT_GE(plan.bandwidth_bytes.front(), kMiB - 48);
  EXPECT_EQ(plan.bandwidth_target_bytes, 4 * kGiB);  // 8 x 60 MB is less than 4 GiB
  EXPECT_GE(static_cast<double>(plan.bandwidth_bytes.back()), 4.0 * kGiB * 0.999);
  EXPECT_TRUE(std::is_sorted(plan.bandwidth_bytes.begin(), plan.bandwidth_bytes.end()));
  for (std::uint64_t b : plan.bandwidth_bytes) EXPECT_EQ(b % 48, 0U) << b;
  EXPECT_TRUE(plan.notes.empty());
  const CudaPlan full = plan_cuda({false, p.l2_bytes, p.memory_free_bytes, 90});
  EXPECT_GT(full.bandwidth_bytes.size(), 3 * plan.bandwidth_bytes.size());
}

TEST(CudaPlan, ALargeL2PushesTheSweepToEightTimesIt) {
  const CudaPlan plan = plan_cuda({true, 1 * kGiB, 200 * kGiB, 100});
  EXPECT_EQ(plan.bandwidth_target_bytes, 8 * kGiB);
  EXPECT_GE(static_cast<double>(plan.bandwidth_bytes.back()), 8.0 * kGiB * 0.999);
}

TEST(CudaPlan, ASmallDeviceCapsTheSweepAndSaysSo) {
  const CudaPlan plan = plan_cuda({true, 6 * kMiB, 4 * kGiB, 86});
  EXPECT_LE(bandwidth_allocation_bytes(plan.bandwidth_bytes.back()), 4 * kGiB);
  ASSERT_FALSE(plan.notes.empty());
  EXPECT_NE(plan.notes.front().find("free memory"), std::string::npos);
}

// From the measured L2: an H200's 60 MB makes the CPU's 8192^2 (64 MiB in fp8/int8, just above the L2) too small
// to stand for HBM, so the one shape is 16384^2 (256 MiB, >= 4x); a 4 MiB L2 keeps the CPU's shape.
TEST(CudaPlan, GemmShapesComeFromTheMeasuredL2AtFourTimesIt) {
  const CudaProperties p = h200();
  const CudaPlan plan = plan_cuda({true, p.l2_bytes, p.memory_free_bytes, 90});
  ASSERT_EQ(plan.gemm_shapes.size(), 1U);
  EXPECT_EQ(plan.gemm_shapes[0].m, 16384);
  EXPECT_EQ(plan.gemm_shapes[0].k, 16384);
  for (const WeightShape& s : plan.gemm_shapes) {
    EXPECT_GE(static_cast<double>(s.m) * static_cast<double>(s.k), 4.0 * static_cast<double>(p.l2_bytes));  // 1-byte
  }
  const CudaPlan small = plan_cuda({true, 4 * kMiB, 8 * kGiB, 90});
  ASSERT_EQ(small.gemm_shapes.size(), 1U);
  EXPECT_EQ(small.gemm_shapes[0].m, 8192);
  const CudaPlan b200 = plan_cuda({true, 126 * 1000 * 1000, 170 * kGiB, 100});
  EXPECT_EQ(b200.gemm_shapes.back().m, 32768);
  std::vector<std::string> precisions;
  for (const GemmSweep& s : plan.gemm_sweeps) {
    precisions.push_back(s.precision);
    EXPECT_EQ(s.batches.front(), 1);
    EXPECT_EQ(s.batches.back(), 1024);
  }
  EXPECT_EQ(precisions, (std::vector<std::string>{"bf16", "fp16", "fp8", "int8", "fp32"}));
  EXPECT_EQ(plan.ceiling_precisions, (std::vector<std::string>{"bf16", "fp16", "tf32", "fp8", "int8"}));
  const CudaPlan full = plan_cuda({false, p.l2_bytes, p.memory_free_bytes, 90});
  EXPECT_EQ(full.gemm_sweeps.front().batches.size(), 11U);  // 1, 2, 4, ..., 1024
}

TEST(CudaPlan, NoFp8BeforeAda) {
  const CudaPlan plan = plan_cuda({true, 40 * kMiB, 70 * kGiB, 80});
  for (const GemmSweep& s : plan.gemm_sweeps) EXPECT_NE(s.precision, "fp8");
  EXPECT_EQ(plan.ceiling_precisions, (std::vector<std::string>{"bf16", "fp16", "tf32", "int8"}));
  ASSERT_FALSE(plan.notes.empty());
  EXPECT_NE(plan.notes.front().find("fp8"), std::string::npos);
}

// The advertised figures of the GPUs the issue names read back with the spec reader, bandwidth and bf16 stated.
TEST(CudaSpecs, EveryNvidiaSpecReads) {
  for (const char* name : {"nvidia-h100-sxm5.json", "nvidia-h200-sxm.json", "nvidia-a100-sxm4-80gb.json",
                           "nvidia-l40s.json", "nvidia-geforce-rtx-4090.json"}) {
    const std::string path = std::string(ROOFLINE_SOURCE_DIR) + "/analysis/specs/" + name;
    const Spec spec = load_spec(path);
    EXPECT_EQ(spec.kind, "accelerator") << name;
    EXPECT_GT(spec.memory_bandwidth, 0) << name;
    EXPECT_GT(spec.clock_hz, 0) << name;
    bool bf16 = false;
    for (const SpecPeak& p : spec.peaks) bf16 = bf16 || p.precision == "bf16";
    EXPECT_TRUE(bf16) << name;
  }
  const std::string h200 = std::string(ROOFLINE_SOURCE_DIR) + "/analysis/specs/nvidia-h200-sxm.json";
  EXPECT_DOUBLE_EQ(load_spec(h200).memory_bandwidth, 4.8e12);
}

TEST(CudaNvml, ThrottleReasonNames) {
  EXPECT_EQ(throttle_reason_names(0), (std::vector<std::string>{"none"}));
  EXPECT_EQ(throttle_reason_names(0x4), (std::vector<std::string>{"sw_power_cap"}));
  EXPECT_EQ(throttle_reason_names(0x1 | 0x40), (std::vector<std::string>{"gpu_idle", "hw_thermal"}));
  EXPECT_EQ(throttle_reason_names(0x1000), (std::vector<std::string>{"other"}));
}

TEST(CudaNvml, AbsentNvmlIsSaidNotFatal) {
  const Nvml nvml;  // no driver on a CI machine: not available, with a reason; on a GPU machine: available
  if (!nvml.available()) {
    EXPECT_FALSE(nvml.why_not().empty());
    EXPECT_FALSE(nvml.sample("0000:00:00.0").valid);
  }
}

TEST(CudaKernelClosedForms, ReadSumAndPatterns) {
  EXPECT_EQ(expected_read_sum(256), 32640U);
  EXPECT_EQ(expected_read_sum(0), 0U);
  std::uint64_t sum = 0;
  for (std::uint64_t i = 0; i < 1000; ++i) sum += memory_pattern(i);
  EXPECT_EQ(expected_read_sum(1000), static_cast<std::uint32_t>(sum));
  // 2^30 words (4 GiB): wraps mod 2^32 as the device's uint32 atomics do.
  EXPECT_EQ(expected_read_sum(1ULL << 30U), static_cast<std::uint32_t>((1ULL << 22U) * 32640ULL));
  EXPECT_LT(memory_pattern(12345) + kTriadScalar * triad_pattern(12345), 1 << 24);
}

// The memory kernels' rows are the one STREAM table's (roofline/common/stream_kernels.hpp): same names and counts.
TEST(CudaKernelClosedForms, MemoryRowsAreTheStreamTables) {
  struct Expected {
    MemoryKernel kernel;
    const char* name;
    int read, written;
  };
  const Expected rows[] = {{MemoryKernel::read, "read", 1, 0}, {MemoryKernel::copy, "copy", 1, 1},
                           {MemoryKernel::triad, "triad", 2, 1}, {MemoryKernel::write, "write", 0, 1}};
  ASSERT_EQ(std::size(rows), kMemoryKernels.size());
  for (const Expected& e : rows) {
    const MemoryKernelRow r = memory_row(e.kernel);
    EXPECT_EQ(r.kernel, e.kernel);
    EXPECT_EQ(std::string(r.name), e.name);
    EXPECT_EQ(r.arrays_read, e.read);
    EXPECT_EQ(r.arrays_written, e.written);
    EXPECT_EQ(stream_kernel_row(stream_kernel(e.kernel)).name, e.name);
  }
}

TEST(CudaKernelClosedForms, FmaChainReturnsToItsSeedEveryTwoSteps) {
  // seeds t % 8 + chain + lane; a = -1, b = 3
  EXPECT_EQ(expected_fma_output(0, 2, 1), 0 + 1 + 2 + 3 + 4 + 5 + 6 + 7);
  EXPECT_EQ(expected_fma_output(0, 1, 1), 8 * 3 - 28);
  EXPECT_EQ(expected_fma_output(9, 4, 2), expected_fma_output(1, 0, 2));
  EXPECT_DOUBLE_EQ(fma_flop(ComputeKind::fp16x2, 1000, 10, 2), 1000.0 * 10 * kChains * 2 * 2);
}

TEST(CudaKernelClosedForms, GemmOperandsAreSmallNonZeroIntegers) {
  for (std::int64_t i = 0; i < 4096; ++i) {
    for (int which = 0; which < 3; ++which) {
      const int v = gemm_operand_value(i, which);
      EXPECT_TRUE(v == -2 || v == -1 || v == 1 || v == 2) << v;
    }
  }
  // S = sum v^2 stays exact in fp32 at the largest planned k, and u x S fits int32.
  EXPECT_LT(gemm_inner_sum(16384) * 4, 1LL << 24U);
  EXPECT_GT(gemm_inner_sum(16384), 16384);
}

}  // namespace
}  // namespace roofline::cuda
