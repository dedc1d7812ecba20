// The device kernels behind LtGemm's operands (gemm_cublaslt.hpp): internal to kernels/cuda/.
#pragma once

#include <cstdint>

#include "roofline/kernels/cuda/gemm_cublaslt.hpp"

namespace roofline::cuda {

// Fills a k x cols column-major operand with value(col, outer) x value(l, 1) in `type`'s input type (asynchronous).
void fill_gemm_operand(GemmType type, void* p, std::int64_t k, std::int64_t cols, int outer);
// How many of D's m x n outputs differ from u_i x_j s; `scratch` is one device word. Synchronizes.
std::uint64_t count_gemm_mismatches(GemmType type, const void* d, std::int64_t m, std::int64_t n, std::int64_t s,
                                    unsigned long long* scratch);

}  // namespace roofline::cuda
