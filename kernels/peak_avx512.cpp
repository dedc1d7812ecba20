// 512-bit FMA peak: EVEX vfmadd213pd/ps on zmm registers. Compiled with -mavx512f/dq/bw/vl.
#include <immintrin.h>

#include "peak_isa.hpp"

namespace roofline::peak_isa {

void fma_fp64_avx512(std::int64_t n, const PeakInputs& in, double* out) {
  const __m512d m = _mm512_set1_pd(in.multiplier);
  const __m512d a = _mm512_set1_pd(in.addend);
  __m512d acc[kChainsEvex];
  for_each_chain<kChainsEvex>([&](int c) { acc[c] = _mm512_set1_pd(chain_start(in, c)); });
  ROOFLINE_CHAIN_LOOP20(n, "vfmadd213pd", m, a)
  for_each_chain<kChainsEvex>([&](int c) { store_lanes<double>(out + 8 * c, acc[c]); });
}

void fma_fp32_avx512(std::int64_t n, const PeakInputs& in, double* out) {
  const __m512 m = _mm512_set1_ps(static_cast<float>(in.multiplier));
  const __m512 a = _mm512_set1_ps(static_cast<float>(in.addend));
  __m512 acc[kChainsEvex];
  for_each_chain<kChainsEvex>([&](int c) { acc[c] = _mm512_set1_ps(static_cast<float>(chain_start(in, c))); });
  ROOFLINE_CHAIN_LOOP20(n, "vfmadd213ps", m, a)
  for_each_chain<kChainsEvex>([&](int c) { store_lanes<float>(out + 16 * c, acc[c]); });
}

}  // namespace roofline::peak_isa
