// 512-bit FMA peak: EVEX vfmadd213pd/ps on zmm registers. Compiled with -mavx512f/dq/bw/vl.
#include "peak_isa.hpp"

namespace roofline::peak_isa {

ROOFLINE_FP_KERNEL(fma_fp64_avx512, double, 64, kChainsEvex, ROOFLINE_CHAIN_LOOP20(n, "vfmadd213pd", m, a))
ROOFLINE_FP_KERNEL(fma_fp32_avx512, float, 64, kChainsEvex, ROOFLINE_CHAIN_LOOP20(n, "vfmadd213ps", m, a))

}  // namespace roofline::peak_isa
