// int8 dot-product peak: EVEX vpdpbusd (AVX512_VNNI) on zmm, and its AVX512VL forms on ymm/xmm. Each
// 32-bit lane adds 4 u8 x s8 products to an int32 accumulator: 8 OP per lane. Compiled with
// -mavx512f/dq/bw/vl -mavx512vnni.
#include "peak_int8.hpp"

namespace roofline::peak_isa {
namespace {

#define ROOFLINE_EVEX_LOOP ROOFLINE_CHAIN_LOOP20(n, "vpdpbusd", m, a)
ROOFLINE_INT8_PEAK(dot_int8_avx512_512, Isa::avx512, 64, kChainsEvex, kNeedsAvx512 | kNeedsAvx512Vnni, "vpdpbusd zmm", ROOFLINE_EVEX_LOOP)
ROOFLINE_INT8_PEAK(dot_int8_avx512_256, Isa::avx512, 32, kChainsEvex, kNeedsAvx512 | kNeedsAvx512Vnni, "vpdpbusd ymm", ROOFLINE_EVEX_LOOP)
ROOFLINE_INT8_PEAK(dot_int8_avx512_128, Isa::avx512, 16, kChainsEvex, kNeedsAvx512 | kNeedsAvx512Vnni, "vpdpbusd xmm", ROOFLINE_EVEX_LOOP)
#undef ROOFLINE_EVEX_LOOP

}  // namespace

ROOFLINE_PEAK_TABLE(kAvx512VnniRows, dot_int8_avx512_128_row, dot_int8_avx512_256_row, dot_int8_avx512_512_row)

}  // namespace roofline::peak_isa
