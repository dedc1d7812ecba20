// Planning the CUDA target's suites: see plan.hpp. Sizes double (quick) or step by 2^(1/4) (full) from 1 MiB.
#include "roofline/cuda/plan.hpp"

#include <algorithm>
#include <cmath>

#include "roofline/harness/gemm_shape.hpp"

namespace roofline::cuda {
namespace {

constexpr std::uint64_t kMiB = 1ULL << 20U;
constexpr std::uint64_t kGiB = 1ULL << 30U;
// Of the free device memory, what the sweep may allocate: cuBLASLt's workspace and the driver keep the rest.
constexpr double kUsableFraction = 0.7;

std::vector<std::uint64_t> sweep(std::uint64_t largest, bool quick) {
  std::vector<std::uint64_t> out;
  const double step = quick ? 2.0 : std::pow(2.0, 0.25);
  for (double s = static_cast<double>(kMiB); s <= static_cast<double>(largest) * 1.0001; s *= step) {
    // Whole 48-byte steps, so every kernel's arrays (1, 2 or 3 of them) hold whole 16-byte vectors.
    const auto bytes = static_cast<std::uint64_t>(s) / 48U * 48U;
    if (out.empty() || bytes != out.back()) out.push_back(bytes);
  }
  return out;
}

// The weight shapes, from the measured L2: the smallest square power of two whose 1-byte weights (fp8, int8) are at
// least 4x the L2, so every type streams from HBM whatever the L2 keeps between calls, and placing them against
// HBM is right. The CPU's default shape (8192^2: 64 MiB in 1-byte types, just above an H200's 60 MB L2) only when
// it clears the same bar.
std::vector<WeightShape> shapes(std::uint64_t l2_bytes) {
  const double bar = 4.0 * static_cast<double>(l2_bytes);
  std::vector<WeightShape> out;
  if (static_cast<double>(kDefaultGemmM) * static_cast<double>(kDefaultGemmK) >= bar) {
    out.push_back({kDefaultGemmM, kDefaultGemmK, "the CPU's default weight shape (roofline/harness/gemm_shape.hpp), >= 4x the L2"});
  }
  std::int64_t side = kDefaultGemmM;
  while (static_cast<double>(side) * static_cast<double>(side) < bar) side *= 2;
  if (out.empty() || side != kDefaultGemmM) out.push_back({side, side, "weights at least 4x the L2 in 1-byte types"});
  return out;
}

}  // namespace

std::uint64_t bandwidth_allocation_bytes(std::uint64_t largest) { return 2 * largest + largest / 3 + 64; }

CudaPlan plan_cuda(const CudaPlanInput& in) {
  CudaPlan plan;
  plan.bandwidth_target_bytes = std::max<std::uint64_t>(8 * in.l2_bytes, 4 * kGiB);
  std::uint64_t largest = plan.bandwidth_target_bytes;
  const auto usable = static_cast<std::uint64_t>(kUsableFraction * static_cast<double>(in.memory_free_bytes));
  while (largest > kMiB && bandwidth_allocation_bytes(largest) > usable) largest /= 2;
  if (largest < plan.bandwidth_target_bytes) {
    plan.notes.push_back("bandwidth sweep stops at " + std::to_string(largest / kMiB) + " MiB (of " +
                         std::to_string(plan.bandwidth_target_bytes / kMiB) + " MiB wanted): the device's free memory");
  }
  plan.bandwidth_bytes = sweep(largest, in.quick);
  plan.gemm_shapes = shapes(in.l2_bytes);

  std::vector<int> all;
  for (int n = 1; n <= 1024; n *= 2) all.push_back(n);
  const std::vector<int> quick_main{1, 8, 64, 1024};
  const std::vector<int> quick_other{1, 1024};
  const bool fp8 = in.compute_capability >= 89;
  for (const char* p : {"bf16", "fp16", "fp8", "int8", "fp32"}) {
    const std::string precision = p;
    if (precision == "fp8" && !fp8) {
      plan.notes.push_back("fp8 GEMMs left out: compute capability " + std::to_string(in.compute_capability) +
                           " has no fp8 tensor cores (8.9 and later)");
      continue;
    }
    const bool main = precision == "bf16" || precision == "fp8";
    plan.gemm_sweeps.push_back({precision, in.quick ? (main ? quick_main : quick_other) : all});
  }
  plan.ceiling_precisions = {"bf16", "fp16", "tf32"};
  if (fp8) plan.ceiling_precisions.emplace_back("fp8");
  plan.ceiling_precisions.emplace_back("int8");
  plan.transfer_bytes = in.quick ? 256 * kMiB : kGiB;
  return plan;
}


}  // namespace roofline::cuda
