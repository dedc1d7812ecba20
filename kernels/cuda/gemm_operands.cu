// The device side of gemm_cublaslt.hpp's operands: filling A and B with the rank-one small-integer pattern in
// each input type, and counting the outputs that differ from u_i x_j S. Kept apart from the cuBLASLt calls
// (gemm_cublaslt.cpp), which are plain host C++.
#include "roofline/kernels/cuda/gemm_operands.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include "roofline/kernels/cuda/check.hpp"
#include "roofline/kernels/cuda/gemm_cublaslt.hpp"

namespace roofline::cuda {
namespace {

__device__ int operand(std::int64_t i, int which, bool unit) { return gemm_operand_value(i, which, unit); }

template <typename T> __device__ T convert(int v);
template <> __device__ float convert<float>(int v) { return static_cast<float>(v); }
template <> __device__ __half convert<__half>(int v) { return __int2half_rn(v); }
template <> __device__ __nv_bfloat16 convert<__nv_bfloat16>(int v) { return __int2bfloat16_rn(v); }
template <> __device__ __nv_fp8_e4m3 convert<__nv_fp8_e4m3>(int v) { return __nv_fp8_e4m3(static_cast<float>(v)); }
template <> __device__ std::int8_t convert<std::int8_t>(int v) { return static_cast<std::int8_t>(v); }

// A is stored k x m column-major (A^T, so element (i, l) is at l + i k), B k x n column-major (l + j k).
// `outer` is u (A, which 0) or x (B, which 2).
template <typename T>
__global__ void fill_kernel(T* p, std::int64_t k, std::int64_t cols, int outer, bool unit) {
  const std::int64_t total = k * cols;
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t l = e % k;
    const std::int64_t col = e / k;
    p[e] = convert<T>(operand(col, outer, unit) * operand(l, 1, unit));
  }
}

template <typename T>
void fill(void* p, std::int64_t k, std::int64_t cols, int outer, bool unit) {
  fill_kernel<T><<<1024, 256>>>(static_cast<T*>(p), k, cols, outer, unit);
}

// The output as a number to compare: the stored value exactly (bf16 and fp16 widen to float exactly).
__device__ double widen(float v) { return v; }
__device__ double widen(std::int32_t v) { return v; }
__device__ double widen(__half v) { return __half2float(v); }
__device__ double widen(__nv_bfloat16 v) { return __bfloat162float(v); }
// What the expected integer becomes in the output type (itself when exactly representable, as planned).
template <typename T> __device__ double expected_as(std::int64_t v) { return widen(convert<T>(static_cast<int>(v))); }
template <> __device__ double expected_as<float>(std::int64_t v) { return static_cast<float>(v); }
template <> __device__ double expected_as<std::int32_t>(std::int64_t v) { return static_cast<double>(static_cast<std::int32_t>(v)); }

// D is m x n column-major (i + j m): bf16, fp16, fp32 or int32.
template <typename T>
__global__ void verify_kernel(const T* d, std::int64_t m, std::int64_t n, std::int64_t s, bool unit,
                              unsigned long long* wrong) {
  const std::int64_t total = m * n;
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t i = e % m;
    const std::int64_t j = e / m;
    const std::int64_t expected = operand(i, 0, unit) * operand(j, 2, unit) * s;
    if (widen(d[e]) != expected_as<T>(expected)) atomicAdd(wrong, 1ULL);
  }
}

}  // namespace

void fill_gemm_operand(GemmType type, void* p, std::int64_t k, std::int64_t cols, int outer) {
  const bool unit = gemm_type_row(type).unit_operands;
  switch (type) {
    case GemmType::bf16: fill<__nv_bfloat16>(p, k, cols, outer, unit); break;
    case GemmType::fp16: fill<__half>(p, k, cols, outer, unit); break;
    case GemmType::tf32:
    case GemmType::fp32: fill<float>(p, k, cols, outer, unit); break;
    case GemmType::fp8_e4m3: fill<__nv_fp8_e4m3>(p, k, cols, outer, unit); break;
    case GemmType::int8: fill<std::int8_t>(p, k, cols, outer, unit); break;
  }
  check_cuda(cudaGetLastError(), "gemm operand fill launch");
}

std::uint64_t count_gemm_mismatches(GemmType type, const void* d, std::int64_t m, std::int64_t n, std::int64_t s,
                                    unsigned long long* scratch) {
  check_cuda(cudaMemset(scratch, 0, sizeof(unsigned long long)), "gemm verify reset");
  const bool unit = gemm_type_row(type).unit_operands;
  switch (type) {
    case GemmType::bf16:
      verify_kernel<__nv_bfloat16><<<1024, 256>>>(static_cast<const __nv_bfloat16*>(d), m, n, s, unit, scratch);
      break;
    case GemmType::fp16: verify_kernel<__half><<<1024, 256>>>(static_cast<const __half*>(d), m, n, s, unit, scratch); break;
    case GemmType::int8:
      verify_kernel<std::int32_t><<<1024, 256>>>(static_cast<const std::int32_t*>(d), m, n, s, unit, scratch);
      break;
    default: verify_kernel<float><<<1024, 256>>>(static_cast<const float*>(d), m, n, s, unit, scratch); break;
  }
  check_cuda(cudaGetLastError(), "gemm verify launch");
  unsigned long long wrong = 0;
  check_cuda(cudaMemcpy(&wrong, scratch, sizeof wrong, cudaMemcpyDeviceToHost), "gemm verify copy");
  return wrong;
}

}  // namespace roofline::cuda
