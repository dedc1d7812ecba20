// Scalar and 128-bit FMA peak: VEX vfmadd213sd/ss and vfmadd213pd/ps on xmm registers. Compiled with
// -mavx -mfma; runs where cpuid reports FMA.
#include <immintrin.h>

#include "peak_isa.hpp"

namespace roofline::peak_isa {

void fma_fp64_scalar(std::int64_t n, const PeakInputs& in, double* out) {
  const double m = in.multiplier;
  const double a = in.addend;
  double acc[kChainsLegacy];
  for_each_chain<kChainsLegacy>([&](int c) { acc[c] = chain_start(in, c); });
  ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213sd"), ROOFLINE_ACC12("+x"), m, a, "x")
  for_each_chain<kChainsLegacy>([&](int c) { out[c] = acc[c]; });
}

void fma_fp32_scalar(std::int64_t n, const PeakInputs& in, double* out) {
  const float m = static_cast<float>(in.multiplier);
  const float a = static_cast<float>(in.addend);
  float acc[kChainsLegacy];
  for_each_chain<kChainsLegacy>([&](int c) { acc[c] = static_cast<float>(chain_start(in, c)); });
  ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213ss"), ROOFLINE_ACC12("+x"), m, a, "x")
  for_each_chain<kChainsLegacy>([&](int c) { out[c] = acc[c]; });
}

void fma_fp64_sse(std::int64_t n, const PeakInputs& in, double* out) {
  const __m128d m = _mm_set1_pd(in.multiplier);
  const __m128d a = _mm_set1_pd(in.addend);
  __m128d acc[kChainsLegacy];
  for_each_chain<kChainsLegacy>([&](int c) { acc[c] = _mm_set1_pd(chain_start(in, c)); });
  ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213pd"), ROOFLINE_ACC12("+x"), m, a, "x")
  for_each_chain<kChainsLegacy>([&](int c) { store_lanes<double>(out + 2 * c, acc[c]); });
}

void fma_fp32_sse(std::int64_t n, const PeakInputs& in, double* out) {
  const __m128 m = _mm_set1_ps(static_cast<float>(in.multiplier));
  const __m128 a = _mm_set1_ps(static_cast<float>(in.addend));
  __m128 acc[kChainsLegacy];
  for_each_chain<kChainsLegacy>([&](int c) { acc[c] = _mm_set1_ps(static_cast<float>(chain_start(in, c))); });
  ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213ps"), ROOFLINE_ACC12("+x"), m, a, "x")
  for_each_chain<kChainsLegacy>([&](int c) { store_lanes<float>(out + 4 * c, acc[c]); });
}

}  // namespace roofline::peak_isa
