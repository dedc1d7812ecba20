// GEMV/GEMM through cuBLASLt (issue 23): D (m x n) = A (m x k, the weights) x B (k x n, the batch) in bf16, fp16,
// tf32, fp8 e4m3, int8 and fp32, column-major with A transposed ("TN", the layout cuBLASLt's fp8 and int8 kernels
// need). D is written as PyTorch writes it: bf16 for bf16, fp16 for fp16 (fp32 accumulation), fp32 for tf32, fp8
// and fp32, int32 for int8; fp8 uses CUBLASLT_MATMUL_DESC_FAST_ACCUM, as PyTorch's fast-accumulation fp8 path.
// Operands are small integers in a rank-one structure, A[i][l] = u_i v_l and B[l][j] = v_l x_j with u, v, x in
// {-2, -1, 1, 2} (exact in every input type, fp8 e4m3 included), so every output has the closed form u_i x_j S
// with S = sum v_l^2 < 2^24. For the 16-bit outputs u, v, x are the signs alone ({-1, 1}: S = k), so each output,
// +-k, is exactly representable in bf16 and fp16 for the planned k (powers of two up to 32768). The validator
// checks all m x n outputs exactly on the device. Whether cuBLASLt chose a tensor-core kernel is read from the algorithm's numerical-implementation
// flags (HMMA/IMMA/QMMA: engine "matrix"; FMA: "vector").
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "roofline/kernels/cuda/check.hpp"

namespace roofline::cuda {

enum class GemmType { bf16, fp16, tf32, fp8_e4m3, int8, fp32 };
inline constexpr std::array<GemmType, 6> kGemmTypes{GemmType::bf16, GemmType::fp16, GemmType::tf32,
                                                    GemmType::fp8_e4m3, GemmType::int8, GemmType::fp32};

struct GemmTypeRow {
  GemmType type;
  const char* precision;  // the results file's precision: "bf16", "fp16", "tf32", "fp8", "int8", "fp32"
  int input_bytes;        // bytes per element of A and B
  int output_bytes;       // of D (2 for bf16/fp16, else 4: fp32 or int32)
  bool integer;           // OP rather than FLOP
  int min_compute_capability;  // 89 for fp8 (Ada and later), 0 otherwise
  bool unit_operands;     // u, v, x in {-1, 1} (16-bit outputs: S = k, outputs +-k exactly representable)
};
const GemmTypeRow& gemm_type_row(GemmType t);

// One cuBLASLt handle and its workspace, shared by every problem of a run.
class LtContext {
 public:
  LtContext();
  ~LtContext();
  LtContext(const LtContext&) = delete;
  LtContext& operator=(const LtContext&) = delete;
  struct Impl;
  [[nodiscard]] Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// One prepared problem: operands allocated and filled, cuBLASLt's best heuristic algorithm chosen (outside any
// timing). Throws Unsupported when cuBLASLt has no algorithm for this type and shape, CudaError on a device error.
class LtGemm {
 public:
  LtGemm(LtContext& context, GemmType type, std::int64_t m, std::int64_t n, std::int64_t k);
  ~LtGemm();
  LtGemm(const LtGemm&) = delete;
  LtGemm& operator=(const LtGemm&) = delete;

  // `iterations` matmuls back to back on the default stream (asynchronous).
  void run(std::int64_t iterations);
  // Every output against u_i x_j S; "" when right. Synchronizes.
  [[nodiscard]] std::string validate();
  // The cuBLASLt algorithm's CUBLASLT_ALGO_CAP_NUMERICAL_IMPL_FLAGS and what they say.
  [[nodiscard]] std::uint64_t impl_flags() const;
  [[nodiscard]] bool tensor_core() const;
  [[nodiscard]] std::string algorithm() const;  // "id 21 tile 14 stages 9 splitK 1 flags 0x20202"

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// The closed form of the operands (host side, for the validator and tests): the value in {-2, -1, 1, 2} of index
// `i` of the vector `which` (0: u, 1: v, 2: x).
ROOFLINE_HOST_DEVICE constexpr int gemm_operand_value(std::int64_t i, int which) {
  const std::uint64_t h = (static_cast<std::uint64_t>(i) * 2654435761U + static_cast<std::uint64_t>(which) * 40503U) >> 7;
  const int v = static_cast<int>(h & 3U);  // 0..3 -> -2, -1, 1, 2
  return v < 2 ? v - 2 : v - 1;
}
// The operand value type `unit_operands` types use: the sign of gemm_operand_value.
ROOFLINE_HOST_DEVICE constexpr int gemm_operand_value(std::int64_t i, int which, bool unit) {
  const int v = gemm_operand_value(i, which);
  return unit ? (v < 0 ? -1 : 1) : v;
}
// S = sum over l < k of v_l^2.
constexpr std::int64_t gemm_inner_sum(std::int64_t k) {
  std::int64_t s = 0;
  for (std::int64_t l = 0; l < k; ++l) s += gemm_operand_value(l, 1) * gemm_operand_value(l, 1);
  return s;
}
// S for a type: k for unit operands.
constexpr std::int64_t gemm_inner_sum(std::int64_t k, bool unit) { return unit ? k : gemm_inner_sum(k); }
// Whether the integer `value` is exactly representable with `significand_bits` bits (bf16 8, fp16 11) and at most `max_finite` (fp16 65504).
constexpr bool exactly_representable(std::int64_t value, int significand_bits, double max_finite) {
  std::int64_t v = value < 0 ? -value : value;
  if (static_cast<double>(v) > max_finite) return false;
  while (v != 0 && v % 2 == 0) v /= 2;
  return v < (std::int64_t{1} << significand_bits);
}

}  // namespace roofline::cuda
