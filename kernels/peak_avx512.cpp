// AVX-512 FMA peak: EVEX vfmadd213pd/ps on zmm registers, and the AVX512VL forms on ymm (`{evex}` forces the
// encoding; 32 registers allow 20 chains, where AVX2's 16 allow 12). Compiled with -mavx512f/dq/bw/vl.
#include "peak_isa.hpp"

namespace roofline::peak_isa {
namespace {

ROOFLINE_FP_KERNEL(fma_fp64_avx512, double, 64, kChainsEvex, ROOFLINE_CHAIN_LOOP20(n, "vfmadd213pd", m, a))
ROOFLINE_FP_KERNEL(fma_fp32_avx512, float, 64, kChainsEvex, ROOFLINE_CHAIN_LOOP20(n, "vfmadd213ps", m, a))
ROOFLINE_FP_KERNEL(fma_fp64_avx512_256, double, 32, kChainsEvex, ROOFLINE_CHAIN_LOOP20(n, "%{evex%} vfmadd213pd", m, a))
ROOFLINE_FP_KERNEL(fma_fp32_avx512_256, float, 32, kChainsEvex, ROOFLINE_CHAIN_LOOP20(n, "%{evex%} vfmadd213ps", m, a))

}  // namespace

// The rows of this file's kernels (peak_isa.hpp). FMA: 2 FLOP per lane.
const PeakVariant kAvx512Data[] = {
    {"fma_fp64_avx512", PeakOp::fma, Precision::fp64, Isa::avx512, 512, kChainsEvex, kChainsEvex, 16, kNeedsAvx512, "vfmadd213pd zmm", fma_fp64_avx512},
    {"fma_fp32_avx512", PeakOp::fma, Precision::fp32, Isa::avx512, 512, kChainsEvex, kChainsEvex, 32, kNeedsAvx512, "vfmadd213ps zmm", fma_fp32_avx512},
    {"fma_fp64_avx512_256", PeakOp::fma, Precision::fp64, Isa::avx512, 256, kChainsEvex, kChainsEvex, 8, kNeedsAvx512, "{evex} vfmadd213pd ymm", fma_fp64_avx512_256},
    {"fma_fp32_avx512_256", PeakOp::fma, Precision::fp32, Isa::avx512, 256, kChainsEvex, kChainsEvex, 16, kNeedsAvx512, "{evex} vfmadd213ps ymm", fma_fp32_avx512_256},
};
extern const PeakRows kAvx512Rows = {kAvx512Data, std::size(kAvx512Data)};

}  // namespace roofline::peak_isa
