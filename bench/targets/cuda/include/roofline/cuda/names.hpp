// The CUDA target's benchmark names (issue 61, step 4): one function per kind of entry, called by the plan
// (suite_plan.hpp) and by the prepared work that runs it (measure.cpp), so that the plan names exactly what the run
// measures. The harness writes every name (benchmark_name.hpp). Header-only C++17: the device check's probe
// (scripts/device-check) builds the work with nvcc alone.
#pragma once

#include <cstdint>
#include <string>

#include "roofline/harness/benchmark_name.hpp"
#include "roofline/kernels/cuda/compute.hpp"
#include "roofline/kernels/cuda/memory.hpp"

namespace roofline::cuda {

// The 32-bit words of each of a memory kernel's arrays at `working_set` bytes (all its arrays together): whole
// 16-byte vectors, so every kernel's arrays hold whole vectors.
inline std::uint64_t bandwidth_words(MemoryKernel k, std::uint64_t working_set) {
  const MemoryKernelRow row = memory_row(k);
  const auto arrays = static_cast<std::uint64_t>(row.arrays_read + row.arrays_written);
  return working_set / arrays / 16U * 4U;
}

// The bytes the kernel's entry counts and names at that working set: its arrays' whole words.
inline std::uint64_t bandwidth_counted_bytes(MemoryKernel k, std::uint64_t working_set) {
  const MemoryKernelRow row = memory_row(k);
  return bandwidth_words(k, working_set) * 4U * static_cast<std::uint64_t>(row.arrays_read + row.arrays_written);
}

// "bandwidth/triad/bytes:1048560"
inline std::string bandwidth_name(MemoryKernel k, std::uint64_t working_set) {
  BenchmarkKey key("bandwidth", {memory_row(k).name});
  key.bytes = bandwidth_counted_bytes(k, working_set);
  return benchmark_name(key);
}

// "compute/fma/fp16x2"
inline std::string fma_name(ComputeKind k) { return benchmark_name(BenchmarkKey("compute", {"fma", compute_row(k).name})); }

// "gemm/cublaslt/fp16/m:8192/n:1/k:8192"; `suite` "compute" (a tensor ceiling) or "gemm".
inline std::string gemm_name(const std::string& suite, const std::string& precision, std::int64_t m, std::int64_t n,
                             std::int64_t k) {
  BenchmarkKey key(suite, {"cublaslt", precision});
  key.m = m;
  key.n = n;
  key.k = k;
  return benchmark_name(key);
}

}  // namespace roofline::cuda
