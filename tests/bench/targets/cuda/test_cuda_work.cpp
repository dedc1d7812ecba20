// Host-side tests of issue 34's CUDA fixes, run in every build (no GPU, no CUDA): which CUDA errors lose the target
// and which fail one entry; the SM clock measured during a work reaching DeviceWork::clock_hz and the theoretical
// peak taken at it (the datasheet's bf16 989 TFLOP/s at 1.83 GHz, not 1070 at the reported 1.98); the datasheet's
// clock per row; a call held at a millisecond with its counts scaled; NVML samples under load summarized; 16-bit
// GEMM outputs exactly representable at every planned k.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "roofline/model/results.hpp"
#include "roofline/model/roofline_section.hpp"
#include "roofline/cuda/device_work.hpp"
#include "roofline/cuda/facts.hpp"
#include "roofline/cuda/nvml.hpp"
#include "roofline/cuda/peak_table.hpp"
#include "roofline/cuda/plan.hpp"
#include "roofline/kernels/cuda/check.hpp"
#include "roofline/kernels/cuda/gemm_cublaslt.hpp"
#include "support/typed_results.hpp"

#include <fstream>

namespace roofline::cuda {
namespace {
using nlohmann::json;

CudaProperties h200() {
  std::ifstream in(std::string(ROOFLINE_TEST_DATA_DIR) + "/cuda/h200-sxm-properties-handmade.json");
  return cuda_properties_from_json(json::parse(in));
}

TEST(CudaErrors, OnlyAContextLosingErrorIsSticky) {
  // cudaErrorMemoryAllocation 2, InvalidValue 1, LaunchOutOfResources 701, NoKernelImageForDevice 209: one entry.
  for (int status : {1, 2, 701, 209}) EXPECT_FALSE(is_sticky_cuda_error(status)) << status;
  // IllegalAddress 700, LaunchFailure 719, ECCUncorrectable 214, Assert 710, Unknown 999: the context is gone.
  for (int status : {700, 719, 214, 710, 999}) EXPECT_TRUE(is_sticky_cuda_error(status)) << status;
  EXPECT_FALSE(is_sticky_cuda_error(0));
}

TEST(CudaErrors, ACudaErrorCarriesItsStatusAndWhetherItIsSticky) {
  const CudaError oom("cudaMalloc gemm D: out of memory", 2, is_sticky_cuda_error(2));
  EXPECT_FALSE(oom.sticky());
  EXPECT_EQ(oom.status(), 2);
  const CudaError lost("memory kernel: an illegal memory access was encountered", 700, is_sticky_cuda_error(700));
  EXPECT_TRUE(lost.sticky());
  EXPECT_FALSE(CudaError("cuBLASLt status 7").sticky());  // a cuBLASLt error with a healthy device
}

TEST(CudaClock, TheDatasheetStatesItsClockPerRow) {
  const ComputeCapabilityPeaks* hopper = find_peaks(9, 0);
  ASSERT_NE(hopper, nullptr);
  EXPECT_DOUBLE_EQ(datasheet_clock_hz(*hopper, "bf16/matrix"), 1.83e9);
  EXPECT_DOUBLE_EQ(datasheet_clock_hz(*hopper, "fp8/matrix"), 1.83e9);
  EXPECT_DOUBLE_EQ(datasheet_clock_hz(*hopper, "fp32/vector"), 1.98e9);
  EXPECT_DOUBLE_EQ(datasheet_clock_hz(*hopper, "fp64/matrix"), 1.98e9);  // 67 TFLOPS = 132 x 256 x 1.98 GHz
  // At its own clock each row gives the datasheet's figure back.
  EXPECT_NEAR(theoretical_peak(*hopper, "bf16/matrix", 132, datasheet_clock_hz(*hopper, "bf16/matrix")), 989.4e12, 0.5e12);
  EXPECT_NEAR(theoretical_peak(*hopper, "fp32/vector", 132, datasheet_clock_hz(*hopper, "fp32/vector")), 66.9e12, 0.1e12);
  for (const ComputeCapabilityPeaks& row : peak_table()) {
    for (const PeakRate& rate : row.rates) EXPECT_GT(datasheet_clock_hz(row, rate.key), 1e9) << rate.key;
  }
  const json details = cuda_target_facts(h200()).details;
  EXPECT_DOUBLE_EQ(details["peak_table"]["datasheet_clock_hz"]["bf16/matrix"].get<double>(), 1.83e9);
}

// A Work's clock (the SM clock measured during its timed calls) reaches the harness's DeviceWork.
TEST(CudaClock, AWorksMeasuredClockReachesTheDeviceWork) {
  Work w;
  w.name = "compute/cublaslt/bf16/m:8192/n:8192/k:8192";
  w.text_labels = {{"suite", "compute"}, {"precision", "bf16"}, {"engine", "matrix"}};
  w.number_labels = {{"m", 8192}};
  w.flop = 2.0 * 8192 * 8192 * 8192;
  w.run = [](std::int64_t n) { return 1e-3 * static_cast<double>(n); };
  w.clock_hz = [] { return 1.83e9; };
  const DeviceWork d = to_device_work(std::move(w));
  ASSERT_TRUE(d.clock_hz);
  EXPECT_DOUBLE_EQ(d.clock_hz(), 1.83e9);
  EXPECT_EQ(d.labels["engine"], "matrix");
  EXPECT_DOUBLE_EQ(d.flop, 2.0 * 8192 * 8192 * 8192);
}

// The entry's clock_hz counter (what DeviceWork::clock_hz writes) is the clock of the theoretical peak: an H200's
// bf16 tensor peak at 1.83 GHz is the datasheet's 989 TFLOP/s; at the reported 1.98 GHz it would read 1070.
TEST(CudaClock, TheTheoreticalPeakIsTakenAtTheMeasuredSmClock) {
  json doc = load_json_file(std::string(ROOFLINE_TEST_DATA_DIR) + "/targets/two_targets.json");
  TargetFacts facts = cuda_target_facts(h200());
  facts.target = "test:0";  // the recorded file's second target, its entries kept
  for (json& t : doc["context"]["targets"]) {
    if (t["target"] == "test:0") t = to_json(facts);
  }
  json with_clock = doc;
  for (json& e : with_clock["benchmarks"]) {
    const json& l = e["labels"];
    if (l.value("target", "") == "test:0" && l.value("suite", "") == "compute" && l.value("precision", "") == "bf16" &&
        l.value("engine", "") == "matrix") {
      e["clock_hz"] = 1.83e9;
    }
  }
  const auto bf16_matrix = [](const json& roofline) {
    for (const json& c : roofline["compute_ceilings"]) {
      if (c["target"] == "test:0" && c["precision"] == "bf16" && c["engine"] == "matrix") return c;
    }
    return json();
  };
  const json measured = bf16_matrix(testing::derived_section(with_clock));
  ASSERT_TRUE(measured.is_object());
  EXPECT_NEAR(measured["theoretical"].get<double>(), 132 * 4096 * 1.83e9, 1e6);  // 989.4 TFLOP/s
  EXPECT_EQ(measured["clock_source"], "measured");
  const json reported = bf16_matrix(testing::derived_section(doc));
  EXPECT_NEAR(reported["theoretical"].get<double>(), 132 * 4096 * 1.98e9, 1e6);  // 1070.5: the reported maximum
  EXPECT_EQ(reported["clock_source"], "reported");
}

TEST(CudaHold, EveryCallHoldsAtLeastAMillisecond) {
  EXPECT_EQ(iterations_to_hold(20e-6, 1e-3), 50);  // a 20 us GEMV: 50 per call
  EXPECT_EQ(iterations_to_hold(8e-3, 1e-3), 1);    // an 8 ms FMA launch: one
  EXPECT_EQ(iterations_to_hold(0.0, 1e-3), 1);     // nothing measured: one, never a division by zero
  EXPECT_EQ(iterations_to_hold(3e-4, 1e-3), 4);
}

TEST(CudaHold, AHeldWorkRunsKPerCallWithItsCountsScaled) {
  std::int64_t launched = 0;
  Work w;
  w.bytes = 100;
  w.flop = 10;
  w.working_set_bytes = 100;
  w.run = [&launched](std::int64_t n) {
    launched += n;
    return 25e-6 * static_cast<double>(n);
  };
  hold_at_least(w, 1e-3);
  EXPECT_EQ(launched, 2);  // warm-up and the one timed
  EXPECT_DOUBLE_EQ(w.run(3), 3 * 40 * 25e-6);
  EXPECT_EQ(launched, 2 + 3 * 40);
  EXPECT_DOUBLE_EQ(w.bytes, 4000);
  EXPECT_DOUBLE_EQ(w.flop, 400);
  EXPECT_DOUBLE_EQ(w.working_set_bytes, 100);  // the working set is what one iteration touches
  ASSERT_FALSE(w.number_labels.empty());
  EXPECT_EQ(w.number_labels.back(), (std::pair<std::string, double>{"iterations_per_call", 40}));
  Work host;
  host.device_timed = false;  // launch latency: the host clock per launch is the figure itself
  host.run = [](std::int64_t) { return 1e-6; };
  hold_at_least(host, 1e-3);
  EXPECT_TRUE(host.number_labels.empty());
}

TEST(CudaNvml, SamplesUnderLoadAreSummarized) {
  NvmlSample a;
  a.valid = true;
  a.sm_clock_hz = 1.98e9;
  a.throttle_reasons = 0;
  a.power_w = 500;
  a.temperature_c = 50;
  NvmlSample b = a;
  b.sm_clock_hz = 1.74e9;
  b.throttle_reasons = 0x4;  // sw_power_cap
  b.power_w = 700;
  NvmlSample invalid;
  const NvmlSummary s = summarize({a, b, invalid});
  EXPECT_EQ(s.samples, 2);
  EXPECT_DOUBLE_EQ(s.sm_clock_hz_min, 1.74e9);
  EXPECT_DOUBLE_EQ(s.sm_clock_hz_max, 1.98e9);
  EXPECT_DOUBLE_EQ(s.sm_clock_hz_mean, 1.86e9);
  EXPECT_EQ(s.throttle_names, (std::vector<std::string>{"sw_power_cap"}));
  EXPECT_DOUBLE_EQ(s.power_w_max, 700);
  EXPECT_EQ(summarize({}).samples, 0);
}

// bf16 and fp16 GEMMs write 16-bit outputs +-k (unit operands): exact at every k the plans use.
TEST(CudaGemm, SixteenBitOutputsAreExactAtEveryPlannedK) {
  EXPECT_EQ(gemm_inner_sum(8192, true), 8192);
  for (std::int64_t i = 0; i < 1000; ++i) EXPECT_EQ(std::abs(gemm_operand_value(i, 1, true)), 1);
  EXPECT_TRUE(exactly_representable(16384, 8, 3.4e38));
  EXPECT_FALSE(exactly_representable(16385, 8, 3.4e38));
  EXPECT_FALSE(exactly_representable(65536, 11, 65504));  // fp16's largest finite value is 65504
  for (std::uint64_t l2 : {4ULL << 20U, 40ULL << 20U, 60ULL << 20U, 126000000ULL}) {
    const CudaPlan plan = plan_cuda({false, l2, 80ULL << 30U, 90});
    std::vector<std::int64_t> ks{plan.ceiling_size};
    for (const WeightShape& s : plan.gemm_shapes) ks.push_back(s.k);
    for (std::int64_t k : ks) {
      EXPECT_TRUE(exactly_representable(k, 8, 3.4e38)) << "bf16, k " << k;
      EXPECT_TRUE(exactly_representable(k, 11, 65504)) << "fp16, k " << k;
    }
  }
}

}  // namespace
}  // namespace roofline::cuda
