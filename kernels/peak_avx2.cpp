// 256-bit FMA peak: VEX vfmadd213pd/ps on ymm registers. Compiled with -mavx2 -mfma.
#include "peak_isa.hpp"

namespace roofline::peak_isa {
namespace {

ROOFLINE_FP_KERNEL(fma_fp64_avx2, double, 32, kChainsLegacy, ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213pd"), ROOFLINE_ACC12("+x"), m, a, "x"))
ROOFLINE_FP_KERNEL(fma_fp32_avx2, float, 32, kChainsLegacy, ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213ps"), ROOFLINE_ACC12("+x"), m, a, "x"))

}  // namespace

// The rows of this file's kernels (peak_isa.hpp). FMA: 2 FLOP per lane.
const PeakVariant kAvx2Data[] = {
    {"fma_fp64_avx2", PeakOp::fma, Precision::fp64, Isa::avx2, 256, kChainsLegacy, kChainsLegacy, 8, kNeedsAvx2Fma, "vfmadd213pd ymm", fma_fp64_avx2},
    {"fma_fp32_avx2", PeakOp::fma, Precision::fp32, Isa::avx2, 256, kChainsLegacy, kChainsLegacy, 16, kNeedsAvx2Fma, "vfmadd213ps ymm", fma_fp32_avx2},
};
extern const PeakRows kAvx2Rows = {kAvx2Data, std::size(kAvx2Data)};

}  // namespace roofline::peak_isa
