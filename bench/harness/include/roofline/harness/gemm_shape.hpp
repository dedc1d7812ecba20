// The GEMV/GEMM weight shape every target's gemm suite starts from (the CPU's plan_gemm, CLBlast's and cuBLASLt's
// work): the default shape, and the quick profile's shape sized from the target's largest cache. In the harness so
// that a device target sizes its GEMMs as the CPU does without including the CPU target's headers.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "roofline/common/gemm_count.hpp"

namespace roofline {

// Default weight shape: 8192 x 8192 is 256 MiB in fp32 (512 MiB fp64, 128 MiB bf16, 64 MiB int8), far
// beyond the last-level cache (the measured curve on our VM reaches DRAM by ~64 MiB), so batch 1 streams
// A from DRAM; batch 1024 is then 137 GFLOP, about a second on two cores.
inline constexpr std::int64_t kDefaultGemmM = 8192;
inline constexpr std::int64_t kDefaultGemmK = 8192;

// The quick profile sizes the weights from the target's largest cache (issue 32): per precision, the least square
// side, a multiple of 512 and at least 1024, whose weights (M x K elements of A) are at least 4x that cache, so
// GEMV streams them from DRAM, and no larger (the compute-bound batches then cost no more than they must); at
// most kMaxQuickGemmSide (a curve that never showed DRAM must not ask for gigabytes).
inline constexpr double kGemmCacheFactor = 4.0;
inline constexpr std::int64_t kMaxQuickGemmSide = 32768;
inline std::int64_t quick_gemm_side(double cache_bytes, Precision precision) {
  if (!(cache_bytes > 0.0)) return kDefaultGemmM;
  const double side = std::sqrt(kGemmCacheFactor * cache_bytes / gemm_operand_bytes(precision).a);
  const auto rounded = static_cast<std::int64_t>(std::ceil(side / 512.0)) * 512;
  return std::clamp<std::int64_t>(rounded, 1024, kMaxQuickGemmSide);
}

}  // namespace roofline
