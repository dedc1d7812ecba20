// The CUDA-core FMA chains and their validator: see compute.hpp. One template over the register type; the
// paired 16-bit types use __hfma2 (HFMA2 / HFMA2.BF16: two FMAs per instruction).
#include "roofline/kernels/cuda/compute.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <climits>
#include <cstdint>
#include <vector>

#include "roofline/kernels/cuda/check.hpp"

namespace roofline::cuda {
namespace {

template <typename T> struct Ops;
template <> struct Ops<double> {
  __device__ static double make(float lo, float) { return lo; }
  __device__ static double fma(double x, double a, double b) { return ::fma(x, a, b); }
  __device__ static double total(double x) { return x; }
};
template <> struct Ops<float> {
  __device__ static float make(float lo, float) { return lo; }
  __device__ static float fma(float x, float a, float b) { return fmaf(x, a, b); }
  __device__ static double total(float x) { return x; }
};
template <> struct Ops<__half2> {
  __device__ static __half2 make(float lo, float hi) { return __floats2half2_rn(lo, hi); }
  __device__ static __half2 fma(__half2 x, __half2 a, __half2 b) { return __hfma2(x, a, b); }
  __device__ static double total(__half2 x) { return static_cast<double>(__low2float(x)) + __high2float(x); }
};
template <> struct Ops<__nv_bfloat162> {
  __device__ static __nv_bfloat162 make(float lo, float hi) { return __floats2bfloat162_rn(lo, hi); }
  __device__ static __nv_bfloat162 fma(__nv_bfloat162 x, __nv_bfloat162 a, __nv_bfloat162 b) { return __hfma2(x, a, b); }
  __device__ static double total(__nv_bfloat162 x) { return static_cast<double>(__low2float(x)) + __high2float(x); }
};

// The loop: an int counter over blocks of kFmaStepsPerBlock steps of all kChains chains (16 x 8 = 128 FMAs, fully
// unrolled), so the loop's own instructions (counter, compare, branch: 3) cost 3 issue slots per 128 FMAs. The
// earlier unroll-4 of 8 chains with a 64-bit counter spent ~5 slots per 32 FMAs, 14 % of an issue-bound fp32 or
// HFMA2 peak on sm_90. `iterations` is a multiple of kFmaStepsPerBlock (launch_fma checks).
template <typename T>
__global__ void __launch_bounds__(kFmaThreads) fma_kernel(int blocks_of_steps, float a_value, float b_value,
                                                         double* out, std::uint64_t* clocks) {
  using O = Ops<T>;
  const std::uint64_t tid = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const T a = O::make(a_value, a_value);
  const T b = O::make(b_value, b_value);
  T x[kChains];
#pragma unroll
  for (int c = 0; c < kChains; ++c) {
    const float seed = static_cast<float>(tid % 8 + c);
    x[c] = O::make(seed, seed + 1.0F);
  }
  const long long start = clock64();
#pragma unroll 1
  for (int i = 0; i < blocks_of_steps; ++i) {
#pragma unroll
    for (int s = 0; s < kFmaStepsPerBlock; ++s) {
#pragma unroll
      for (int c = 0; c < kChains; ++c) x[c] = O::fma(x[c], a, b);
    }
  }
  const long long end = clock64();
  double sum = 0;
#pragma unroll
  for (int c = 0; c < kChains; ++c) sum += O::total(x[c]);
  out[tid] = sum;
  if (clocks != nullptr && threadIdx.x == 0) {
    clocks[2 * blockIdx.x] = static_cast<std::uint64_t>(start);
    clocks[2 * blockIdx.x + 1] = static_cast<std::uint64_t>(end);
  }
}

__global__ void empty_kernel() {}

}  // namespace

void launch_empty(int threads) {
  empty_kernel<<<1, threads>>>();
  check_cuda(cudaGetLastError(), "empty kernel launch");
}

void launch_fma(ComputeKind k, int blocks, int threads, std::int64_t iterations, double* out, std::uint64_t* clocks) {
  if (iterations % kFmaStepsPerBlock != 0 || iterations / kFmaStepsPerBlock > INT32_MAX || threads > kFmaThreads) {
    throw CudaError("launch_fma: iterations must be a multiple of " + std::to_string(kFmaStepsPerBlock) +
                    " (at most 2^31 blocks of them), threads at most " + std::to_string(kFmaThreads));
  }
  const auto n = static_cast<int>(iterations / kFmaStepsPerBlock);
  const float a = -1.0F;
  const float b = static_cast<float>(kFmaB);
  switch (k) {
    case ComputeKind::fp64: fma_kernel<double><<<blocks, threads>>>(n, a, b, out, clocks); break;
    case ComputeKind::fp32: fma_kernel<float><<<blocks, threads>>>(n, a, b, out, clocks); break;
    case ComputeKind::fp16x2: fma_kernel<__half2><<<blocks, threads>>>(n, a, b, out, clocks); break;
    case ComputeKind::bf16x2: fma_kernel<__nv_bfloat162><<<blocks, threads>>>(n, a, b, out, clocks); break;
  }
  check_cuda(cudaGetLastError(), "fma kernel launch");
}

int fma_blocks_per_sm(ComputeKind k, int threads) {
  int blocks = 0;
  cudaError_t status = cudaSuccess;
  switch (k) {
    case ComputeKind::fp64: status = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fma_kernel<double>, threads, 0); break;
    case ComputeKind::fp32: status = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fma_kernel<float>, threads, 0); break;
    case ComputeKind::fp16x2: status = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fma_kernel<__half2>, threads, 0); break;
    case ComputeKind::bf16x2: status = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fma_kernel<__nv_bfloat162>, threads, 0); break;
  }
  check_cuda(status, "cudaOccupancyMaxActiveBlocksPerMultiprocessor (fma kernel)");
  return blocks;
}

std::string validate_fma(ComputeKind k, const double* out, std::uint64_t threads, std::int64_t iterations) {
  std::vector<double> host(threads);
  check_cuda(cudaMemcpy(host.data(), out, threads * sizeof(double), cudaMemcpyDeviceToHost), "fma result copy");
  const int lanes = compute_row(k).lanes;
  std::uint64_t wrong = 0;
  std::uint64_t first = 0;
  for (std::uint64_t t = 0; t < threads; ++t) {
    if (host[t] != expected_fma_output(t, iterations, lanes)) {
      if (wrong++ == 0) first = t;
    }
  }
  if (wrong == 0) return "";
  return std::string(compute_row(k).name) + ": " + std::to_string(wrong) + " of " + std::to_string(threads) +
         " threads wrong (thread " + std::to_string(first) + ": " + std::to_string(host[first]) + ", expected " +
         std::to_string(expected_fma_output(first, iterations, lanes)) + ")";
}

}  // namespace roofline::cuda
