// 256-bit FMA peak: VEX vfmadd213pd/ps on ymm registers. Compiled with -mavx2 -mfma.
#include <immintrin.h>

#include "peak_isa.hpp"

namespace roofline::peak_isa {

void fma_fp64_avx2(std::int64_t n, const PeakInputs& in, double* out) {
  const __m256d m = _mm256_set1_pd(in.multiplier);
  const __m256d a = _mm256_set1_pd(in.addend);
  __m256d acc[kChainsLegacy];
  for_each_chain<kChainsLegacy>([&](int c) { acc[c] = _mm256_set1_pd(chain_start(in, c)); });
  ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213pd"), ROOFLINE_ACC12("+x"), m, a, "x")
  for_each_chain<kChainsLegacy>([&](int c) { store_lanes<double>(out + 4 * c, acc[c]); });
}

void fma_fp32_avx2(std::int64_t n, const PeakInputs& in, double* out) {
  const __m256 m = _mm256_set1_ps(static_cast<float>(in.multiplier));
  const __m256 a = _mm256_set1_ps(static_cast<float>(in.addend));
  __m256 acc[kChainsLegacy];
  for_each_chain<kChainsLegacy>([&](int c) { acc[c] = _mm256_set1_ps(static_cast<float>(chain_start(in, c))); });
  ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213ps"), ROOFLINE_ACC12("+x"), m, a, "x")
  for_each_chain<kChainsLegacy>([&](int c) { store_lanes<float>(out + 8 * c, acc[c]); });
}

}  // namespace roofline::peak_isa
