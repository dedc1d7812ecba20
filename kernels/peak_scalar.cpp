// Scalar peak without FMA: dependent mulsd/addsd (mulss/addss) pairs, for CPUs without FMA or a --max-isa
// cap below avx2. Baseline x86-64 flags (SSE2 scalar instructions).
#include "peak_isa.hpp"

namespace roofline::peak_isa {

void muladd_fp64_scalar(std::int64_t n, const PeakInputs& in, double* out) {
  const double m = in.multiplier;
  const double a = in.addend;
  double acc[kChainsLegacy];
  for_each_chain<kChainsLegacy>([&](int c) { acc[c] = chain_start(in, c); });
  ROOFLINE_CHAIN_LOOP(n, ROOFLINE_MULADD12("mulsd", "addsd"), ROOFLINE_ACC12("+x"), m, a, "x")
  for_each_chain<kChainsLegacy>([&](int c) { out[c] = acc[c]; });
}

void muladd_fp32_scalar(std::int64_t n, const PeakInputs& in, double* out) {
  const float m = static_cast<float>(in.multiplier);
  const float a = static_cast<float>(in.addend);
  float acc[kChainsLegacy];
  for_each_chain<kChainsLegacy>([&](int c) { acc[c] = static_cast<float>(chain_start(in, c)); });
  ROOFLINE_CHAIN_LOOP(n, ROOFLINE_MULADD12("mulss", "addss"), ROOFLINE_ACC12("+x"), m, a, "x")
  for_each_chain<kChainsLegacy>([&](int c) { out[c] = acc[c]; });
}

}  // namespace roofline::peak_isa
