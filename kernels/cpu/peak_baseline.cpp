// Peak kernels without FMA, for CPUs without it or a --max-isa cap below avx2: dependent mul/add pairs in
// SSE2, scalar (mulsd/addsd, mulss/addss) and packed 128-bit (mulpd/addpd, mulps/addps). Baseline x86-64
// flags: every x86-64 runs them.
#include "peak_isa.hpp"

namespace roofline::peak_isa {
namespace {

#define ROOFLINE_MULADD_LOOP(mul, add) \
  ROOFLINE_CHAIN_LOOP(n, ROOFLINE_MULADD12(mul, add), ROOFLINE_ACC12("+x"), m, a, "x")
ROOFLINE_FP_PEAK(muladd_fp64_scalar, PeakOp::muladd, Isa::scalar, double, 8, kChainsLegacy, 0, "mulsd+addsd", ROOFLINE_MULADD_LOOP("mulsd", "addsd"))
ROOFLINE_FP_PEAK(muladd_fp32_scalar, PeakOp::muladd, Isa::scalar, float, 4, kChainsLegacy, 0, "mulss+addss", ROOFLINE_MULADD_LOOP("mulss", "addss"))
ROOFLINE_FP_PEAK(muladd_fp64_sse, PeakOp::muladd, Isa::sse, double, 16, kChainsLegacy, 0, "mulpd+addpd", ROOFLINE_MULADD_LOOP("mulpd", "addpd"))
ROOFLINE_FP_PEAK(muladd_fp32_sse, PeakOp::muladd, Isa::sse, float, 16, kChainsLegacy, 0, "mulps+addps", ROOFLINE_MULADD_LOOP("mulps", "addps"))
#undef ROOFLINE_MULADD_LOOP

}  // namespace

ROOFLINE_PEAK_TABLE(kBaselineRows, muladd_fp64_scalar_row, muladd_fp32_scalar_row, muladd_fp64_sse_row, muladd_fp32_sse_row)

}  // namespace roofline::peak_isa
