// The CUDA memory kernels and their validators: see memory.hpp. Every kernel works in 16-byte vectors (uint4 /
// float4) and keeps four independent vectors per thread in flight per step, grid-stride, so one launch of a few
// thousand threads per SM saturates HBM without depending on the buffer size. Loads are __ldcg (ld.global.cg:
// cached in L2, not L1): every pass re-reads the same addresses from the same thread, and sm_90 caches global
// loads in L1 (256 KB per SM, 33 MB over 132 SMs), so plain loads would read working sets below ~25 MB from L1
// and call it L2.
#include "roofline/kernels/cuda/memory.hpp"

#include <cuda_runtime.h>

#include "roofline/kernels/cuda/check.hpp"

namespace roofline::cuda {
namespace {

constexpr int kUnroll = 4;
constexpr int kThreads = 256;  // the block size launch_memory is called with (memory.hpp), bound for the compiler

__device__ __forceinline__ std::uint64_t thread_index() {
  return static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ std::uint64_t grid_stride() {
  return static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
}

__device__ __forceinline__ std::uint32_t sum4(uint4 v) { return v.x + v.y + v.z + v.w; }

// The loop every memory kernel shares: `passes` passes over this thread's indices below n, grid-stride, kUnroll
// independent indices per step (step(i, stride) touches i, i + stride, ...; one(i) the remainder).
template <typename Step, typename One>
__device__ __forceinline__ void sweep(std::uint64_t n, int passes, Step step, One one) {
  const std::uint64_t stride = grid_stride();
  for (int p = 0; p < passes; ++p) {
    std::uint64_t i = thread_index();
    for (; i + (kUnroll - 1) * stride < n; i += kUnroll * stride) step(i, stride);
    for (; i < n; i += stride) one(i);
  }
}

// All kUnroll loads of a step issued before any use, so they are in flight together.
template <typename T>
__device__ __forceinline__ void load_step(T (&v)[kUnroll], const T* __restrict__ p, std::uint64_t i, std::uint64_t stride) {
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) v[u] = __ldcg(p + i + u * stride);
}

// Sums every word of b into scratch[0] (mod 2^32): one atomic per warp, so the sum costs nothing next to the loads.
__global__ void __launch_bounds__(kThreads) read_kernel(const uint4* __restrict__ b, std::uint64_t n, int passes, std::uint32_t* scratch) {
  std::uint32_t sum = 0;
  sweep(n, passes,
        [&](std::uint64_t i, std::uint64_t stride) {
          uint4 v[kUnroll];
          load_step(v, b, i, stride);
#pragma unroll
          for (int u = 0; u < kUnroll; ++u) sum += sum4(v[u]);
        },
        [&](std::uint64_t i) { sum += sum4(__ldcg(b + i)); });
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffU, sum, offset);
  if ((threadIdx.x & 31U) == 0) atomicAdd(scratch, sum);
}

__global__ void __launch_bounds__(kThreads) copy_kernel(uint4* __restrict__ a, const uint4* __restrict__ b, std::uint64_t n, int passes) {
  sweep(n, passes,
        [&](std::uint64_t i, std::uint64_t stride) {
          uint4 v[kUnroll];
          load_step(v, b, i, stride);
#pragma unroll
          for (int u = 0; u < kUnroll; ++u) a[i + u * stride] = v[u];
        },
        [&](std::uint64_t i) { a[i] = __ldcg(b + i); });
}

__device__ __forceinline__ float4 triad4(float4 b, float4 c, float s) {
  return make_float4(b.x + s * c.x, b.y + s * c.y, b.z + s * c.z, b.w + s * c.w);
}

__global__ void __launch_bounds__(kThreads) triad_kernel(float4* __restrict__ a, const float4* __restrict__ b, const float4* __restrict__ c,
                             float s, std::uint64_t n, int passes) {
  sweep(n, passes,
        [&](std::uint64_t i, std::uint64_t stride) {
          float4 vb[kUnroll];
          float4 vc[kUnroll];
          load_step(vb, b, i, stride);
          load_step(vc, c, i, stride);
#pragma unroll
          for (int u = 0; u < kUnroll; ++u) a[i + u * stride] = triad4(vb[u], vc[u], s);
        },
        [&](std::uint64_t i) { a[i] = triad4(__ldcg(b + i), __ldcg(c + i), s); });
}

__global__ void __launch_bounds__(kThreads) write_kernel(uint4* __restrict__ a, std::uint32_t value, std::uint64_t n, int passes) {
  const uint4 v = make_uint4(value, value, value, value);
  sweep(n, passes,
        [&](std::uint64_t i, std::uint64_t stride) {
#pragma unroll
          for (int u = 0; u < kUnroll; ++u) a[i + u * stride] = v;
        },
        [&](std::uint64_t i) { a[i] = v; });
}

// The closed forms of memory.hpp, on the device.
__device__ __forceinline__ std::uint32_t pattern_b(std::uint64_t i) { return static_cast<std::uint32_t>((i * 37U) & 255U); }
__device__ __forceinline__ std::uint32_t pattern_c(std::uint64_t i) { return static_cast<std::uint32_t>((i * 11U) & 7U); }

// mode 0: b = pattern as words, a = 0; mode 1: b, c = patterns as floats, a = 0.
__global__ void fill_kernel(std::uint32_t* a, std::uint32_t* b, float* c, std::uint64_t words, int as_float) {
  for (std::uint64_t i = thread_index(); i < words; i += grid_stride()) {
    a[i] = 0;
    if (as_float) {
      reinterpret_cast<float*>(b)[i] = static_cast<float>(pattern_b(i));
      c[i] = static_cast<float>(pattern_c(i));
    } else {
      b[i] = pattern_b(i);
    }
  }
}

// Counts the words of a that differ from what kernel `k` must have written into scratch[1].
__global__ void verify_kernel(const std::uint32_t* a, std::uint64_t words, int kernel, float s, std::uint32_t* scratch) {
  for (std::uint64_t i = thread_index(); i < words; i += grid_stride()) {
    bool ok = true;
    if (kernel == static_cast<int>(MemoryKernel::copy)) ok = a[i] == pattern_b(i);
    if (kernel == static_cast<int>(MemoryKernel::write)) ok = a[i] == kWriteValue;
    if (kernel == static_cast<int>(MemoryKernel::triad)) {
      const float expected = static_cast<float>(pattern_b(i)) + s * static_cast<float>(pattern_c(i));
      ok = reinterpret_cast<const float*>(a)[i] == expected;
    }
    if (!ok) atomicAdd(scratch + 1, 1U);
  }
}

}  // namespace

int memory_blocks_per_sm(MemoryKernel k, int threads) {
  int blocks = 0;
  cudaError_t status = cudaSuccess;
  switch (k) {
    case MemoryKernel::read: status = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, read_kernel, threads, 0); break;
    case MemoryKernel::copy: status = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, copy_kernel, threads, 0); break;
    case MemoryKernel::triad: status = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, triad_kernel, threads, 0); break;
    case MemoryKernel::write: status = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, write_kernel, threads, 0); break;
  }
  check_cuda(status, "cudaOccupancyMaxActiveBlocksPerMultiprocessor (memory kernel)");
  return blocks;
}

void fill_memory(MemoryKernel k, const MemoryBuffers& buf) {
  const bool triad = k == MemoryKernel::triad;
  fill_kernel<<<1024, 256>>>(static_cast<std::uint32_t*>(buf.a), static_cast<std::uint32_t*>(buf.b),
                             static_cast<float*>(buf.c), buf.words, triad ? 1 : 0);
  check_cuda(cudaGetLastError(), "fill_memory launch");
  check_cuda(cudaMemset(buf.scratch, 0, 2 * sizeof(std::uint32_t)), "cudaMemset scratch");
  check_cuda(cudaDeviceSynchronize(), "fill_memory");
}

void launch_memory(MemoryKernel k, const MemoryBuffers& buf, int passes, int blocks, int threads) {
  const std::uint64_t n = buf.words / 4;
  switch (k) {
    case MemoryKernel::read:
      read_kernel<<<blocks, threads>>>(static_cast<const uint4*>(buf.b), n, passes, buf.scratch);
      break;
    case MemoryKernel::copy:
      copy_kernel<<<blocks, threads>>>(static_cast<uint4*>(buf.a), static_cast<const uint4*>(buf.b), n, passes);
      break;
    case MemoryKernel::triad:
      triad_kernel<<<blocks, threads>>>(static_cast<float4*>(buf.a), static_cast<const float4*>(buf.b),
                                        static_cast<const float4*>(buf.c), kTriadScalar, n, passes);
      break;
    case MemoryKernel::write:
      write_kernel<<<blocks, threads>>>(static_cast<uint4*>(buf.a), kWriteValue, n, passes);
      break;
  }
  check_cuda(cudaGetLastError(), "memory kernel launch");
}

std::string validate_memory(MemoryKernel k, const MemoryBuffers& buf, int blocks, int threads) {
  fill_memory(k, buf);
  launch_memory(k, buf, 1, blocks, threads);
  if (k != MemoryKernel::read) verify_kernel<<<1024, 256>>>(static_cast<const std::uint32_t*>(buf.a), buf.words,
                                                            static_cast<int>(k), kTriadScalar, buf.scratch);
  check_cuda(cudaGetLastError(), "memory verify launch");
  std::uint32_t scratch[2] = {0, 0};
  check_cuda(cudaMemcpy(scratch, buf.scratch, sizeof scratch, cudaMemcpyDeviceToHost), "memory verify copy");
  const std::string name = memory_row(k).name;
  if (k == MemoryKernel::read) {
    const std::uint32_t expected = expected_read_sum(buf.words);
    if (scratch[0] != expected) {
      return name + ": sum " + std::to_string(scratch[0]) + ", expected " + std::to_string(expected);
    }
    return "";
  }
  if (scratch[1] != 0) {
    return name + ": " + std::to_string(scratch[1]) + " of " + std::to_string(buf.words) + " words wrong";
  }
  return "";
}

}  // namespace roofline::cuda
