// Private to kernels/: the int8 dot-product kernel shared by the EVEX (AVX512_VNNI) and VEX (AVX_VNNI)
// translation units. Like peak_isa.hpp, everything is in an unnamed namespace so each includer compiles
// its own copy with its own flags.
#pragma once

#include "peak_isa.hpp"

namespace roofline::peak_isa {
namespace {
// u8 bytes (m, m, m, m) and s8 bytes (a, a, a, -a): each lane's step adds 2 * m * a.
inline int u8_quad(double m) {
  const auto b = static_cast<std::uint32_t>(static_cast<std::uint8_t>(m));
  return static_cast<int>(b | (b << 8) | (b << 16) | (b << 24));
}
inline int s8_quad(double a) {
  const auto p = static_cast<std::uint32_t>(static_cast<std::uint8_t>(static_cast<std::int8_t>(a)));
  const auto q = static_cast<std::uint32_t>(static_cast<std::uint8_t>(static_cast<std::int8_t>(-a)));
  return static_cast<int>(p | (p << 8) | (p << 16) | (q << 24));
}
}  // namespace

// Defines `void name(n, in, out)`: vpdpbusd over `chains` accumulators of `bytes`-wide registers; `loop`
// is the chain loop statement (the 12-chain VEX or the 20-chain EVEX form) over acc, m and a.
#define ROOFLINE_INT8_KERNEL(name, bytes, chains, loop)                                           \
  void name(std::int64_t n, const PeakInputs& in, double* out) {                                  \
    using I = GenericVector<int, bytes>::type;                                       \
    const I m = I{} + u8_quad(in.multiplier);                                                     \
    const I a = I{} + s8_quad(in.addend);                                                         \
    I acc[chains];                                                                                \
    for_each_chain<chains>([&](int c) { acc[c] = I{} + static_cast<int>(chain_start(in, c)); });        \
    loop                                                                                          \
    for_each_chain<chains>([&](int c) { store_lanes<int>(out + (bytes) / 4 * c, acc[c]); });            \
  }

// An int8 dot-product kernel and its row in one (see ROOFLINE_FP_PEAK).
#define ROOFLINE_INT8_PEAK(name, isa, bytes, chains, required, instruction, loop) \
  ROOFLINE_INT8_KERNEL(name, bytes, chains, loop)                                 \
  constexpr PeakVariant name##_row =                                              \
      peak_row(#name, PeakOp::dot, Precision::int8, isa, 8 * (bytes), chains, required, instruction, name);

}  // namespace roofline::peak_isa
