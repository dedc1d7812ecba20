// The Eigen GEMV/GEMM code compiled once per ISA level (gemm_eigen_variant.cpp built with -mavx512f...,
// -mavx2 -mfma, or the baseline): Eigen picks its SIMD path at compile time, so a portable binary holds
// one copy per level and gemm_eigen.cpp chooses at run time from cpuid. Each copy's Eigen symbols are
// made local to its object (hidden visibility, then objcopy --localize-hidden, see
// cmake/RooflineEigenVariants.cmake), so the linker cannot merge an AVX-512 instantiation into code that
// runs on a CPU without it. Only the entry points below are visible.
#pragma once

#include <cstdint>

namespace roofline::gemm_detail {

struct EigenVariant {
  const char* isa = "";   // "avx512", "avx2", "baseline"; "neon" on ARM64
  const char* simd = "";  // Eigen::SimdInstructionSetsInUse() of this copy
  int nr = 4;             // Eigen's GEBP register-block width in columns (its threading heuristic uses it)
  // C = A * B in the shared layout (gemm.hpp). n == 1 runs Eigen's GEMV. row_split: the rows of A are
  // split statically over `threads` OpenMP threads, each calling Eigen single-threaded on its block;
  // otherwise Eigen's own OpenMP parallelization runs on `threads` threads.
  void (*gemm_f32)(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n, std::int64_t k,
                   int threads, bool row_split) = nullptr;
  void (*gemm_f64)(const double* a, const double* b, double* c, std::int64_t m, std::int64_t n,
                   std::int64_t k, int threads, bool row_split) = nullptr;
};

#define ROOFLINE_EIGEN_VISIBLE __attribute__((visibility("default")))
ROOFLINE_EIGEN_VISIBLE EigenVariant eigen_variant_avx512();
ROOFLINE_EIGEN_VISIBLE EigenVariant eigen_variant_avx2();
ROOFLINE_EIGEN_VISIBLE EigenVariant eigen_variant_baseline();
ROOFLINE_EIGEN_VISIBLE EigenVariant eigen_variant_neon();  // ARM64 (Eigen's NEON path, always on there)

}  // namespace roofline::gemm_detail
