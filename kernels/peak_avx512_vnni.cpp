// int8 dot-product peak: EVEX vpdpbusd (AVX512_VNNI) on zmm, and its AVX512VL forms on ymm/xmm. Each
// 32-bit lane adds 4 u8 x s8 products to an int32 accumulator: 8 OP per lane. Compiled with
// -mavx512f/dq/bw/vl -mavx512vnni.
#include "peak_int8.hpp"

namespace roofline::peak_isa {

#define ROOFLINE_EVEX_LOOP ROOFLINE_CHAIN_LOOP20(n, "vpdpbusd", m, a)
ROOFLINE_INT8_KERNEL(dot_int8_avx512_512, 64, kChainsEvex, ROOFLINE_EVEX_LOOP)
ROOFLINE_INT8_KERNEL(dot_int8_avx512_256, 32, kChainsEvex, ROOFLINE_EVEX_LOOP)
ROOFLINE_INT8_KERNEL(dot_int8_avx512_128, 16, kChainsEvex, ROOFLINE_EVEX_LOOP)
#undef ROOFLINE_EVEX_LOOP

}  // namespace roofline::peak_isa
