// Scalar peak without FMA: dependent mulsd/addsd (mulss/addss) pairs, for CPUs without FMA or a --max-isa
// cap below avx2. Baseline x86-64 flags (SSE2 scalar instructions).
#include "peak_isa.hpp"

namespace roofline::peak_isa {

ROOFLINE_FP_KERNEL(muladd_fp64_scalar, double, 8, kChainsLegacy,
                   ROOFLINE_CHAIN_LOOP(n, ROOFLINE_MULADD12("mulsd", "addsd"), ROOFLINE_ACC12("+x"), m, a, "x"))
ROOFLINE_FP_KERNEL(muladd_fp32_scalar, float, 4, kChainsLegacy,
                   ROOFLINE_CHAIN_LOOP(n, ROOFLINE_MULADD12("mulss", "addss"), ROOFLINE_ACC12("+x"), m, a, "x"))

}  // namespace roofline::peak_isa
