// 128-bit peak without FMA: dependent mulpd/addpd (mulps/addps) pairs in SSE2, for CPUs without FMA or a
// --max-isa cap of sse. Baseline x86-64 flags.
#include "peak_isa.hpp"

namespace roofline::peak_isa {

ROOFLINE_FP_KERNEL(muladd_fp64_sse, double, 16, kChainsLegacy,
                   ROOFLINE_CHAIN_LOOP(n, ROOFLINE_MULADD12("mulpd", "addpd"), ROOFLINE_ACC12("+x"), m, a, "x"))
ROOFLINE_FP_KERNEL(muladd_fp32_sse, float, 16, kChainsLegacy,
                   ROOFLINE_CHAIN_LOOP(n, ROOFLINE_MULADD12("mulps", "addps"), ROOFLINE_ACC12("+x"), m, a, "x"))

}  // namespace roofline::peak_isa
