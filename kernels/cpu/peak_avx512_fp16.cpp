// fp16 FMA peak: vfmadd213ph (AVX512_FP16) on zmm, ymm and xmm: 2 FLOP per 16-bit lane. Compiled with
// -mavx512f/dq/bw/vl -mavx512fp16; runs only where cpuid reports AVX512_FP16 (Sapphire Rapids and later).
#include "peak_isa.hpp"

namespace roofline::peak_isa {
namespace {

#define ROOFLINE_FP16_LOOP ROOFLINE_CHAIN_LOOP20(n, "vfmadd213ph", m, a)
ROOFLINE_FP_PEAK(fma_fp16_avx512_512, PeakOp::fma, Isa::avx512, _Float16, 64, kChainsEvex, kNeedsAvx512 | kNeedsAvx512Fp16, "vfmadd213ph zmm", ROOFLINE_FP16_LOOP)
ROOFLINE_FP_PEAK(fma_fp16_avx512_256, PeakOp::fma, Isa::avx512, _Float16, 32, kChainsEvex, kNeedsAvx512 | kNeedsAvx512Fp16, "vfmadd213ph ymm", ROOFLINE_FP16_LOOP)
ROOFLINE_FP_PEAK(fma_fp16_avx512_128, PeakOp::fma, Isa::avx512, _Float16, 16, kChainsEvex, kNeedsAvx512 | kNeedsAvx512Fp16, "vfmadd213ph xmm", ROOFLINE_FP16_LOOP)
#undef ROOFLINE_FP16_LOOP

}  // namespace

ROOFLINE_PEAK_TABLE(kAvx512Fp16Rows, fma_fp16_avx512_128_row, fma_fp16_avx512_256_row, fma_fp16_avx512_512_row)

}  // namespace roofline::peak_isa
