// fp16 FMA peak: vfmadd213ph (AVX512_FP16) on zmm, ymm and xmm: 2 FLOP per 16-bit lane. Compiled with
// -mavx512f/dq/bw/vl -mavx512fp16; runs only where cpuid reports AVX512_FP16 (Sapphire Rapids and later).
#include "peak_isa.hpp"

namespace roofline::peak_isa {
namespace {
template <std::size_t Bytes>
void fma_fp16(std::int64_t n, const PeakInputs& in, double* out) {
  using H = typename GenericVector<_Float16, Bytes>::type;
  const H m = H{} + static_cast<_Float16>(in.multiplier);
  const H a = H{} + static_cast<_Float16>(in.addend);
  H acc[kChainsEvex];
  for_each_chain<kChainsEvex>([&](int c) { acc[c] = H{} + static_cast<_Float16>(chain_start(in, c)); });
  ROOFLINE_CHAIN_LOOP20(n, "vfmadd213ph", m, a)
  for_each_chain<kChainsEvex>([&](int c) { store_lanes<_Float16>(out + Bytes / 2 * c, acc[c]); });
}
}  // namespace

void fma_fp16_avx512_512(std::int64_t n, const PeakInputs& in, double* out) { fma_fp16<64>(n, in, out); }
void fma_fp16_avx512_256(std::int64_t n, const PeakInputs& in, double* out) { fma_fp16<32>(n, in, out); }
void fma_fp16_avx512_128(std::int64_t n, const PeakInputs& in, double* out) { fma_fp16<16>(n, in, out); }

}  // namespace roofline::peak_isa
