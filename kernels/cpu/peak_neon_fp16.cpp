// The fp16 FMA peak on NEON with ARMv8.2's half-precision arithmetic (FMLA .8h: asimdhp, every Neoverse and Cortex-A75
// or later; compiled with +fp16 for this translation unit only, run where HWCAP says asimdhp): 8 lanes of 16 bits, 2
// FLOP each. FMLA only accumulates (x += m * a), and the fp16 rows' inputs (default_peak_inputs) multiply the
// accumulator, x * -1 + 3 (period 2: fp16 has no room for a sum that grows over millions of trips). So each chain holds
// y = x - p, p = a / (1 - m) the fixed point of x * m + a, whose step y * m is y + y * (m - 1): one FMLA with the
// accumulator as its own multiplicand (fmla y, y, k with k = -2), the same instruction on the same pipes. y, k and p
// are exact (x0 - 1.5 in steps of 2^-5), so the x86 rows' closed form (peak_expected) validates every lane.
// The element type is arm_neon.h's float16_t (__fp16): GCC 12 has no _Float16 in C++ on ARM64 (peak_isa.hpp).
#include <arm_neon.h>

#include "peak_arm64.hpp"

namespace roofline::peak_isa {
namespace {

constexpr int kFp16Lanes = 8;

void fma_fp16_neon(std::int64_t n, const PeakInputs& in, double* out) {
  // m = 1 has no fixed point: y stays x0 and the closed form (x0 + n a) fails loudly unless a = 0.
  const double p = in.multiplier == 1.0 ? 0.0 : in.addend / (1.0 - in.multiplier);
  const float16x8_t k = vdupq_n_f16(static_cast<float16_t>(in.multiplier - 1.0));
  float16x8_t acc[kChainsA64];
  for_each_chain<kChainsA64>([&](int c) { acc[c] = vdupq_n_f16(static_cast<float16_t>(chain_start(in, c) - p)); });
  ROOFLINE_A64_SELF_LOOP20(n, "fmla", "8h", k)
  for_each_chain<kChainsA64>([&](int c) {
    float16_t lanes[kFp16Lanes];
    vst1q_f16(lanes, acc[c]);
    for (int l = 0; l < kFp16Lanes; ++l) out[kFp16Lanes * c + l] = static_cast<double>(lanes[l]) + p;
  });
}
ROOFLINE_PEAK_ROW(fma_fp16_neon, PeakOp::fma, Precision::fp16, Isa::neon, 128, kChainsA64, kNeedsNeonFp16, "fmla v.8h")

}  // namespace

ROOFLINE_PEAK_TABLE(kNeonFp16Rows, fma_fp16_neon_row)

}  // namespace roofline::peak_isa
