// 256-bit FMA peak: VEX vfmadd213pd/ps on ymm registers. Compiled with -mavx2 -mfma.
#include "peak_isa.hpp"

namespace roofline::peak_isa {

ROOFLINE_FP_KERNEL(fma_fp64_avx2, double, 32, kChainsLegacy, ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213pd"), ROOFLINE_ACC12("+x"), m, a, "x"))
ROOFLINE_FP_KERNEL(fma_fp32_avx2, float, 32, kChainsLegacy, ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213ps"), ROOFLINE_ACC12("+x"), m, a, "x"))

}  // namespace roofline::peak_isa
