// Peak kernels without FMA, for CPUs without it or a --max-isa cap below avx2: dependent mul/add pairs in
// SSE2, scalar (mulsd/addsd, mulss/addss) and packed 128-bit (mulpd/addpd, mulps/addps). Baseline x86-64
// flags: every x86-64 runs them.
#include "peak_isa.hpp"

namespace roofline::peak_isa {

#define ROOFLINE_MULADD_LOOP(mul, add) \
  ROOFLINE_CHAIN_LOOP(n, ROOFLINE_MULADD12(mul, add), ROOFLINE_ACC12("+x"), m, a, "x")
ROOFLINE_FP_KERNEL(muladd_fp64_scalar, double, 8, kChainsLegacy, ROOFLINE_MULADD_LOOP("mulsd", "addsd"))
ROOFLINE_FP_KERNEL(muladd_fp32_scalar, float, 4, kChainsLegacy, ROOFLINE_MULADD_LOOP("mulss", "addss"))
ROOFLINE_FP_KERNEL(muladd_fp64_sse, double, 16, kChainsLegacy, ROOFLINE_MULADD_LOOP("mulpd", "addpd"))
ROOFLINE_FP_KERNEL(muladd_fp32_sse, float, 16, kChainsLegacy, ROOFLINE_MULADD_LOOP("mulps", "addps"))

}  // namespace roofline::peak_isa
