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

__device__ int operand(std::int64_t i, int which) { return gemm_operand_value(i, which); }

template <typename T> __device__ T convert(int v);
template <> __device__ float convert<float>(int v) { return static_cast<float>(v); }
template <> __device__ __half convert<__half>(int v) { return __int2half_rn(v); }
template <> __device__ __nv_bfloat16 convert<__nv_bfloat16>(int v) { return __int2bfloat16_rn(v); }
template <> __device__ __nv_fp8_e4m3 convert<__nv_fp8_e4m3>(int v) { return __nv_fp8_e4m3(static_cast<float>(v)); }
template <> __device__ std::int8_t convert<std::int8_t>(int v) { return static_cast<std::int8_t>(v); }

// A is stored k x m column-major (A^T, so element (i, l) is at l + i k), B k x n column-major (l + j k).
// `outer` is u (A, which 0) or x (B, which 2).
template <typename T>
__global__ void fill_kernel(T* p, std::int64_t k, std::int64_t cols, int outer) {
  const std::int64_t total = k * cols;
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t l = e % k;
    const std::int64_t col = e / k;
    p[e] = convert<T>(operand(col, outer) * operand(l, 1));
  }
}

template <typename T>
void fill(void* p, std::int64_t k, std::int64_t cols, int outer) {
  fill_kernel<T><<<1024, 256>>>(static_cast<T*>(p), k, cols, outer);
}

// D is m x n column-major (i + j m), fp32 or int32.
template <typename T>
__global__ void verify_kernel(const T* d, std::int64_t m, std::int64_t n, std::int64_t s, unsigned long long* wrong) {
  const std::int64_t total = m * n;
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t i = e % m;
    const std::int64_t j = e / m;
    const std::int64_t expected = operand(i, 0) * operand(j, 2) * s;
    if (d[e] != static_cast<T>(expected)) atomicAdd(wrong, 1ULL);
  }
}

}  // namespace

void fill_gemm_operand(GemmType type, void* p, std::int64_t k, std::int64_t cols, int outer) {
  switch (type) {
    case GemmType::bf16: fill<__nv_bfloat16>(p, k, cols, outer); break;
    case GemmType::fp16: fill<__half>(p, k, cols, outer); break;
    case GemmType::tf32:
    case GemmType::fp32: fill<float>(p, k, cols, outer); break;
    case GemmType::fp8_e4m3: fill<__nv_fp8_e4m3>(p, k, cols, outer); break;
    case GemmType::int8: fill<std::int8_t>(p, k, cols, outer); break;
  }
  check_cuda(cudaGetLastError(), "gemm operand fill launch");
}

std::uint64_t count_gemm_mismatches(GemmType type, const void* d, std::int64_t m, std::int64_t n, std::int64_t s,
                                    unsigned long long* scratch) {
  check_cuda(cudaMemset(scratch, 0, sizeof(unsigned long long)), "gemm verify reset");
  if (gemm_type_row(type).integer) {
    verify_kernel<std::int32_t><<<1024, 256>>>(static_cast<const std::int32_t*>(d), m, n, s, scratch);
  } else {
    verify_kernel<float><<<1024, 256>>>(static_cast<const float*>(d), m, n, s, scratch);
  }
  check_cuda(cudaGetLastError(), "gemm verify launch");
  unsigned long long wrong = 0;
  check_cuda(cudaMemcpy(&wrong, scratch, sizeof wrong, cudaMemcpyDeviceToHost), "gemm verify copy");
  return wrong;
}

}  // namespace roofline::cuda
