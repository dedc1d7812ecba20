// Private to kernels/: the bf16 dot-product kernel shared by x86-64's vdpbf16ps (peak_avx512_bf16.cpp) and ARM64's
// BFDOT and BFMMLA (peak_neon_bf16.cpp). Like peak_int8.hpp, everything is in an unnamed namespace so each includer
// compiles its own copy with its own flags.
#pragma once

#include <bit>

#include "peak_isa.hpp"

namespace roofline::peak_isa {
namespace {
// A 32-bit lane holding the bf16 pair (x, x). Inputs are exact in bf16 (powers of two), so the upper half
// of the fp32 bits is the exact conversion.
inline int bf16_pair(double x) {
  const std::uint32_t half = std::bit_cast<std::uint32_t>(static_cast<float>(x)) >> 16;
  return static_cast<int>((half << 16) | half);
}
}  // namespace

// Defines `void name(n, in, out)`: `chains` fp32 accumulators in `bytes`-wide registers, the inputs m and a every bf16
// element, `loop` the chain loop statement over acc, m and a (the x86 20-chain EVEX form, or ARM64's).
#define ROOFLINE_BF16_KERNEL(name, bytes, chains, loop)                                             \
  void name(std::int64_t n, const PeakInputs& in, double* out) {                                    \
    using F = GenericVector<float, bytes>::type;                                                    \
    using I = GenericVector<int, bytes>::type;                                                      \
    const I m = I{} + bf16_pair(in.multiplier);                                                     \
    const I a = I{} + bf16_pair(in.addend);                                                         \
    F acc[chains];                                                                                  \
    for_each_chain<chains>([&](int c) { acc[c] = F{} + static_cast<float>(chain_start(in, c)); });  \
    loop                                                                                            \
    for_each_chain<chains>([&](int c) { store_lanes<float>(out + (bytes) / 4 * c, acc[c]); });      \
  }

}  // namespace roofline::peak_isa
