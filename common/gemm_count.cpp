// Counting for GEMV/GEMM: see gemm_count.hpp.
#include "roofline/common/gemm_count.hpp"

namespace roofline {

OperandBytes gemm_operand_bytes(Precision p) {
  switch (p) {
    case Precision::fp64: return {8, 8, 8};
    case Precision::fp32: return {4, 4, 4};
    case Precision::bf16: return {2, 2, 4};
    case Precision::fp16: return {2, 2, 2};
    case Precision::int8: return {1, 1, 4};
    case Precision::tf32:
    case Precision::int32: return {4, 4, 4};
    case Precision::fp8: return {1, 1, 4};  // e4m3 operands, fp32 result (cuBLASLt's, kernels/cuda/gemm_cublaslt.cpp)
  }
  return {};
}

double gemm_operations(const GemmShape& s) {
  return 2.0 * static_cast<double>(s.m) * static_cast<double>(s.n) * static_cast<double>(s.k);
}

double gemm_compulsory_bytes(const GemmShape& s, Precision p) { return gemm_compulsory_bytes(s, gemm_operand_bytes(p)); }

double gemm_compulsory_bytes(const GemmShape& s, const OperandBytes& e) {
  const double m = static_cast<double>(s.m), n = static_cast<double>(s.n), k = static_cast<double>(s.k);
  return m * k * e.a + k * n * e.b + m * n * e.c;
}

double gemm_arithmetic_intensity(const GemmShape& s, Precision p) {
  const double bytes = gemm_compulsory_bytes(s, p);
  return bytes > 0.0 ? gemm_operations(s) / bytes : 0.0;
}

}  // namespace roofline
