// bf16 dot-product peak: vdpbf16ps (AVX512_BF16) on zmm, and its AVX512VL forms on ymm/xmm. Each 32-bit
// lane adds the two products of a bf16 pair to an fp32 accumulator: 4 FLOP per lane. Compiled with
// -mavx512f/dq/bw/vl -mavx512bf16.
#include "peak_bf16.hpp"

namespace roofline::peak_isa {
namespace {

#define ROOFLINE_BF16_LOOP ROOFLINE_CHAIN_LOOP20(n, "vdpbf16ps", m, a)
ROOFLINE_BF16_KERNEL(dot_bf16_avx512_512, 64, kChainsEvex, ROOFLINE_BF16_LOOP)
ROOFLINE_PEAK_ROW(dot_bf16_avx512_512, PeakOp::dot, Precision::bf16, Isa::avx512, 512, kChainsEvex, kNeedsAvx512 | kNeedsAvx512Bf16, "vdpbf16ps zmm")
ROOFLINE_BF16_KERNEL(dot_bf16_avx512_256, 32, kChainsEvex, ROOFLINE_BF16_LOOP)
ROOFLINE_PEAK_ROW(dot_bf16_avx512_256, PeakOp::dot, Precision::bf16, Isa::avx512, 256, kChainsEvex, kNeedsAvx512 | kNeedsAvx512Bf16, "vdpbf16ps ymm")
ROOFLINE_BF16_KERNEL(dot_bf16_avx512_128, 16, kChainsEvex, ROOFLINE_BF16_LOOP)
ROOFLINE_PEAK_ROW(dot_bf16_avx512_128, PeakOp::dot, Precision::bf16, Isa::avx512, 128, kChainsEvex, kNeedsAvx512 | kNeedsAvx512Bf16, "vdpbf16ps xmm")
#undef ROOFLINE_BF16_LOOP

}  // namespace

ROOFLINE_PEAK_TABLE(kAvx512Bf16Rows, dot_bf16_avx512_128_row, dot_bf16_avx512_256_row, dot_bf16_avx512_512_row)

}  // namespace roofline::peak_isa
