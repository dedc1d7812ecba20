// The one metadata row of GEMV/GEMM: FLOP (or OP) count, compulsory bytes and arithmetic intensity of
// C(MxN) = A(MxK) * B(KxN) per precision. The harness, the placement analysis and the LLM model derive
// every GEMM rate, footprint and intensity from these functions only (hence common/, not kernels/).
// Conventions (DESIGN.md): 2*M*N*K operations (an FMA is 2); compulsory traffic = every input read once,
// the output written once: M*K*a + K*N*b + M*N*c bytes, with a, b, c the element sizes of the operands.
#pragma once

#include <cstdint>

#include "roofline/common/vocabulary.hpp"

namespace roofline {

struct GemmShape {
  std::int64_t m = 0;  // rows of A and C: output features ("weights" rows)
  std::int64_t n = 0;  // columns of B and C: the batch
  std::int64_t k = 0;  // columns of A, rows of B: the reduction
};

// Element sizes of A, B and C in bytes. Mixed precisions as the libraries run them:
// bf16 x bf16 -> fp32 (2, 2, 4), int8 u8 x s8 -> s32 (1, 1, 4); fp16 is not a GEMM precision here.
struct OperandBytes {
  int a = 0;
  int b = 0;
  int c = 0;
};
OperandBytes gemm_operand_bytes(Precision p);

// 2*M*N*K: FLOP for floating-point precisions, OP for int8.
double gemm_operations(const GemmShape& s);
// M*K*a + K*N*b + M*N*c.
double gemm_compulsory_bytes(const GemmShape& s, Precision p);
// gemm_operations / gemm_compulsory_bytes (FLOP/byte or OP/byte).
double gemm_arithmetic_intensity(const GemmShape& s, Precision p);

}  // namespace roofline
