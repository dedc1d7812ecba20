// int8 dot-product peak: EVEX vpdpbusd (AVX512_VNNI) on zmm, and its AVX512VL forms on ymm/xmm. Each
// 32-bit lane adds 4 u8 x s8 products to an int32 accumulator: 8 OP per lane. Compiled with
// -mavx512f/dq/bw/vl -mavx512vnni.
#include "peak_int8.hpp"

namespace roofline::peak_isa {
namespace {

#define ROOFLINE_EVEX_LOOP ROOFLINE_CHAIN_LOOP20(n, "vpdpbusd", m, a)
ROOFLINE_INT8_KERNEL(dot_int8_avx512_512, 64, kChainsEvex, ROOFLINE_EVEX_LOOP)
ROOFLINE_INT8_KERNEL(dot_int8_avx512_256, 32, kChainsEvex, ROOFLINE_EVEX_LOOP)
ROOFLINE_INT8_KERNEL(dot_int8_avx512_128, 16, kChainsEvex, ROOFLINE_EVEX_LOOP)
#undef ROOFLINE_EVEX_LOOP

}  // namespace

// The rows of this file's kernels (peak_isa.hpp). vpdpbusd: 8 OP per 32-bit lane.
const PeakVariant kAvx512VnniData[] = {
    {"dot_int8_avx512_128", PeakOp::dot, Precision::int8, Isa::avx512, 128, kChainsEvex, kChainsEvex, 32, kNeedsAvx512 | kNeedsAvx512Vnni, "vpdpbusd xmm", dot_int8_avx512_128},
    {"dot_int8_avx512_256", PeakOp::dot, Precision::int8, Isa::avx512, 256, kChainsEvex, kChainsEvex, 64, kNeedsAvx512 | kNeedsAvx512Vnni, "vpdpbusd ymm", dot_int8_avx512_256},
    {"dot_int8_avx512_512", PeakOp::dot, Precision::int8, Isa::avx512, 512, kChainsEvex, kChainsEvex, 128, kNeedsAvx512 | kNeedsAvx512Vnni, "vpdpbusd zmm", dot_int8_avx512_512},
};
extern const PeakRows kAvx512VnniRows = {kAvx512VnniData, std::size(kAvx512VnniData)};

}  // namespace roofline::peak_isa
