// bf16 dot-product peak: vdpbf16ps (AVX512_BF16) on zmm, and its AVX512VL forms on ymm/xmm. Each 32-bit
// lane adds the two products of a bf16 pair to an fp32 accumulator: 4 FLOP per lane. Compiled with
// -mavx512f/dq/bw/vl -mavx512bf16.
#include <bit>

#include "peak_isa.hpp"

namespace roofline::peak_isa {
namespace {
// A 32-bit lane holding the bf16 pair (x, x). Inputs are exact in bf16 (powers of two), so the upper half
// of the fp32 bits is the exact conversion.
int bf16_pair(double x) {
  const std::uint32_t half = std::bit_cast<std::uint32_t>(static_cast<float>(x)) >> 16;
  return static_cast<int>((half << 16) | half);
}

template <std::size_t Bytes>
void dot_bf16(std::int64_t n, const PeakInputs& in, double* out) {
  using F = typename GenericVector<float, Bytes>::type;
  using I = typename GenericVector<int, Bytes>::type;
  const I m = I{} + bf16_pair(in.multiplier);
  const I a = I{} + bf16_pair(in.addend);
  F acc[kChainsEvex];
  for_each_chain<kChainsEvex>([&](int c) { acc[c] = F{} + static_cast<float>(chain_start(in, c)); });
  ROOFLINE_CHAIN_LOOP20(n, "vdpbf16ps", m, a)
  for_each_chain<kChainsEvex>([&](int c) { store_lanes<float>(out + Bytes / 4 * c, acc[c]); });
}

void dot_bf16_avx512_512(std::int64_t n, const PeakInputs& in, double* out) { dot_bf16<64>(n, in, out); }
ROOFLINE_PEAK_ROW(dot_bf16_avx512_512, PeakOp::dot, Precision::bf16, Isa::avx512, 512, kChainsEvex, kNeedsAvx512 | kNeedsAvx512Bf16, "vdpbf16ps zmm")
void dot_bf16_avx512_256(std::int64_t n, const PeakInputs& in, double* out) { dot_bf16<32>(n, in, out); }
ROOFLINE_PEAK_ROW(dot_bf16_avx512_256, PeakOp::dot, Precision::bf16, Isa::avx512, 256, kChainsEvex, kNeedsAvx512 | kNeedsAvx512Bf16, "vdpbf16ps ymm")
void dot_bf16_avx512_128(std::int64_t n, const PeakInputs& in, double* out) { dot_bf16<16>(n, in, out); }
ROOFLINE_PEAK_ROW(dot_bf16_avx512_128, PeakOp::dot, Precision::bf16, Isa::avx512, 128, kChainsEvex, kNeedsAvx512 | kNeedsAvx512Bf16, "vdpbf16ps xmm")

}  // namespace

ROOFLINE_PEAK_TABLE(kAvx512Bf16Rows, dot_bf16_avx512_128_row, dot_bf16_avx512_256_row, dot_bf16_avx512_512_row)

}  // namespace roofline::peak_isa
