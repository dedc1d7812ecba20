// fp16 FMA peak: vfmadd213ph (AVX512_FP16) on zmm, ymm and xmm: 2 FLOP per 16-bit lane. Compiled with
// -mavx512f/dq/bw/vl -mavx512fp16; runs only where cpuid reports AVX512_FP16 (Sapphire Rapids and later).
#include "peak_isa.hpp"

namespace roofline::peak_isa {

#define ROOFLINE_FP16_LOOP ROOFLINE_CHAIN_LOOP20(n, "vfmadd213ph", m, a)
ROOFLINE_FP_KERNEL(fma_fp16_avx512_512, _Float16, 64, kChainsEvex, ROOFLINE_FP16_LOOP)
ROOFLINE_FP_KERNEL(fma_fp16_avx512_256, _Float16, 32, kChainsEvex, ROOFLINE_FP16_LOOP)
ROOFLINE_FP_KERNEL(fma_fp16_avx512_128, _Float16, 16, kChainsEvex, ROOFLINE_FP16_LOOP)

}  // namespace roofline::peak_isa
