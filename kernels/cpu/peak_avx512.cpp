// AVX-512 FMA peak: EVEX vfmadd213pd/ps on zmm registers, and the AVX512VL forms on ymm (`{evex}` forces the
// encoding; 32 registers allow 20 chains, where AVX2's 16 allow 12). Compiled with -mavx512f/dq/bw/vl.
#include "peak_isa.hpp"

namespace roofline::peak_isa {
namespace {

ROOFLINE_FP_PEAK(fma_fp64_avx512, PeakOp::fma, Isa::avx512, double, 64, kChainsEvex, kNeedsAvx512, "vfmadd213pd zmm", ROOFLINE_CHAIN_LOOP20(n, "vfmadd213pd", m, a))
ROOFLINE_FP_PEAK(fma_fp32_avx512, PeakOp::fma, Isa::avx512, float, 64, kChainsEvex, kNeedsAvx512, "vfmadd213ps zmm", ROOFLINE_CHAIN_LOOP20(n, "vfmadd213ps", m, a))
ROOFLINE_FP_PEAK(fma_fp64_avx512_256, PeakOp::fma, Isa::avx512, double, 32, kChainsEvex, kNeedsAvx512, "{evex} vfmadd213pd ymm", ROOFLINE_CHAIN_LOOP20(n, "%{evex%} vfmadd213pd", m, a))
ROOFLINE_FP_PEAK(fma_fp32_avx512_256, PeakOp::fma, Isa::avx512, float, 32, kChainsEvex, kNeedsAvx512, "{evex} vfmadd213ps ymm", ROOFLINE_CHAIN_LOOP20(n, "%{evex%} vfmadd213ps", m, a))

}  // namespace

ROOFLINE_PEAK_TABLE(kAvx512Rows, fma_fp64_avx512_row, fma_fp32_avx512_row, fma_fp64_avx512_256_row, fma_fp32_avx512_256_row)

}  // namespace roofline::peak_isa
