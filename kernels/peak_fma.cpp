// Scalar and 128-bit FMA peak: VEX vfmadd213sd/ss and vfmadd213pd/ps on xmm registers. Compiled with
// -mavx -mfma; runs where cpuid reports FMA.
#include "peak_isa.hpp"

namespace roofline::peak_isa {

ROOFLINE_FP_KERNEL(fma_fp64_scalar, double, 8, kChainsLegacy, ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213sd"), ROOFLINE_ACC12("+x"), m, a, "x"))
ROOFLINE_FP_KERNEL(fma_fp32_scalar, float, 4, kChainsLegacy, ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213ss"), ROOFLINE_ACC12("+x"), m, a, "x"))
ROOFLINE_FP_KERNEL(fma_fp64_sse, double, 16, kChainsLegacy, ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213pd"), ROOFLINE_ACC12("+x"), m, a, "x"))
ROOFLINE_FP_KERNEL(fma_fp32_sse, float, 16, kChainsLegacy, ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213ps"), ROOFLINE_ACC12("+x"), m, a, "x"))

}  // namespace roofline::peak_isa
