// The CUDA target's kernels and cuBLASLt problems on the first CUDA device (issue 23), each run and validated:
// memory kernels at L2 and HBM sizes, every FMA chain, every GEMM type at small and GEMV shapes, transfers, the SM
// clock. Built where nvcc exists; every test skips, saying why, where there is no device (CI, the build machine),
// and runs in scripts/device-check's bundle on a GPU machine. Asserts correctness, never speed.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include "roofline/cuda/measure.hpp"
#include "roofline/kernels/cuda/check.hpp"

namespace roofline::cuda {
namespace {

class CudaDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<std::string> notes;
    devices_ = discover_cuda_devices(notes);
    if (devices_.empty()) GTEST_SKIP() << (notes.empty() ? "no CUDA device" : notes.front());
  }
  const CudaProperties& device() const { return devices_.front(); }
  std::vector<CudaProperties> devices_;
};

void run_and_validate(Work& w) {
  const double seconds = w.run(2);
  EXPECT_GT(seconds, 0) << w.name;
  EXPECT_EQ(w.validate(), "") << w.name;
}

TEST_F(CudaDevice, MemoryKernelsValidateAtL2AndHbmSizes) {
  const std::uint64_t large = std::max<std::uint64_t>(8 * device().l2_bytes, 256ULL << 20U) / 48 * 48;
  for (Work& w : bandwidth_works(device(), {1ULL << 20U, large})) run_and_validate(w);
}

TEST_F(CudaDevice, FmaChainsValidate) {
  for (Work& w : fma_works(device())) run_and_validate(w);
}

TEST_F(CudaDevice, EveryGemmTypeValidatesOrIsUnsupported) {
  LtContext lt;
  for (GemmType t : kGemmTypes) {
    if (compute_capability(device()) < gemm_type_row(t).min_compute_capability) continue;
    for (std::int64_t n : {1, 16, 256}) {
      try {
        Work w = gemm_work(lt, t, 512, n, 1024, "gemm");
        run_and_validate(w);
      } catch (const Unsupported& e) {
        EXPECT_TRUE(n == 1) << e.what();  // only GEMV may lack an algorithm (fp8 at n = 1)
      }
    }
  }
}

TEST_F(CudaDevice, TensorCoresAreChosenForBf16AndFp32PedanticIsNot) {
  LtContext lt;
  LtGemm bf16(lt, GemmType::bf16, 1024, 1024, 1024);
  EXPECT_TRUE(bf16.tensor_core()) << bf16.algorithm();
  LtGemm fp32(lt, GemmType::fp32, 1024, 1024, 1024);
  EXPECT_FALSE(fp32.tensor_core()) << fp32.algorithm();
}

TEST_F(CudaDevice, TransfersValidateBothWays) {
  for (bool to_device : {true, false}) {
    for (bool pinned : {true, false}) {
      Work w = transfer_work(to_device, pinned, 16ULL << 20U);
      run_and_validate(w);
    }
  }
}

// Issue 34: each FMA work measures the SM clock of its own timed launches, for the theoretical peak.
TEST_F(CudaDevice, FmaWorksMeasureTheirOwnClock) {
  for (Work& w : fma_works(device())) {
    ASSERT_TRUE(w.clock_hz) << w.name;
    EXPECT_GT(w.run(1), 0) << w.name;
    EXPECT_GT(w.clock_hz(), 0.2e9) << w.name;
    EXPECT_LT(w.clock_hz(), 1.2 * device().max_sm_clock_hz + 1e8) << w.name;
  }
}

// Issue 34: a failed allocation is one failed call (not sticky), and the device goes on working.
TEST_F(CudaDevice, AFailedAllocationFailsOneCallAndLeavesTheDeviceUsable) {
  void* p = nullptr;
  try {
    check_cuda(cudaMalloc(&p, 1ULL << 60U), "cudaMalloc 1 EiB");
    ADD_FAILURE() << "a 1 EiB allocation succeeded";
  } catch (const CudaError& e) {
    EXPECT_FALSE(e.sticky()) << e.what();
  }
  (void)cudaGetLastError();
  Work w = launch_work();
  EXPECT_GT(w.run(2), 0);
  for (Work& m : bandwidth_works(device(), {1ULL << 20U})) run_and_validate(m);
}

// Issue 34: a tensor ceiling with NVML samples its clock during the timed calls.
TEST_F(CudaDevice, ATensorCeilingWithNvmlReadsItsClockDuringTheWork) {
  const Nvml nvml;
  if (!nvml.available()) GTEST_SKIP() << nvml.why_not();
  LtContext lt;
  Work w = gemm_work(lt, GemmType::bf16, 2048, 2048, 2048, "compute", &nvml, device().pci_bus_id);
  ASSERT_TRUE(w.clock_hz);
  EXPECT_GT(w.run(2), 0);
  EXPECT_GT(w.clock_hz(), 0.2e9);
  EXPECT_FALSE(w.samples->empty());
  EXPECT_EQ(w.validate(), "");
}

TEST_F(CudaDevice, SmClockUnderLoadIsPlausible) {
  const double hz = measure_sm_clock_hz(device());
  EXPECT_GT(hz, 0.2e9);
  EXPECT_LT(hz, 1.2 * device().max_sm_clock_hz + 1e8);
  Work w = launch_work();
  EXPECT_GT(w.run(10), 0);
}

}  // namespace
}  // namespace roofline::cuda

// cuBLASLt is opened on first use (kernels/cuda/cublaslt_loader.cpp), not linked: a host-side entry point reaches the
// library through the loader on any machine with the toolkit, GPU or not.
#include <cublasLt.h>

TEST(CublasLtLoader, AHostSideEntryPointReachesTheLibrary) {
  cublasLtMatrixLayout_t layout = nullptr;
  ASSERT_EQ(cublasLtMatrixLayoutCreate(&layout, CUDA_R_32F, 64, 32, 64), CUBLAS_STATUS_SUCCESS);
  EXPECT_NE(layout, nullptr);
  EXPECT_EQ(cublasLtMatrixLayoutDestroy(layout), CUBLAS_STATUS_SUCCESS);
}
