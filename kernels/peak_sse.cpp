// 128-bit peak without FMA: dependent mulpd/addpd (mulps/addps) pairs in SSE2, for CPUs without FMA or a
// --max-isa cap of sse. Baseline x86-64 flags.
#include <emmintrin.h>

#include "peak_isa.hpp"

namespace roofline::peak_isa {

void muladd_fp64_sse(std::int64_t n, const PeakInputs& in, double* out) {
  const __m128d m = _mm_set1_pd(in.multiplier);
  const __m128d a = _mm_set1_pd(in.addend);
  __m128d acc[kChainsLegacy];
  for_each_chain<kChainsLegacy>([&](int c) { acc[c] = _mm_set1_pd(chain_start(in, c)); });
  ROOFLINE_CHAIN_LOOP(n, ROOFLINE_MULADD12("mulpd", "addpd"), ROOFLINE_ACC12("+x"), m, a, "x")
  for_each_chain<kChainsLegacy>([&](int c) { store_lanes<double>(out + 2 * c, acc[c]); });
}

void muladd_fp32_sse(std::int64_t n, const PeakInputs& in, double* out) {
  const __m128 m = _mm_set1_ps(static_cast<float>(in.multiplier));
  const __m128 a = _mm_set1_ps(static_cast<float>(in.addend));
  __m128 acc[kChainsLegacy];
  for_each_chain<kChainsLegacy>([&](int c) { acc[c] = _mm_set1_ps(static_cast<float>(chain_start(in, c))); });
  ROOFLINE_CHAIN_LOOP(n, ROOFLINE_MULADD12("mulps", "addps"), ROOFLINE_ACC12("+x"), m, a, "x")
  for_each_chain<kChainsLegacy>([&](int c) { store_lanes<float>(out + 4 * c, acc[c]); });
}

}  // namespace roofline::peak_isa
