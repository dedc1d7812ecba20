// int8 dot-product peak with AVX_VNNI: the VEX-encoded vpdpbusd of Alder Lake / Sapphire Rapids / Zen 5,
// on ymm and xmm (16 registers, so 12 chains; `%{vex%}` is the {vex} prefix escaped for an asm template). 8 OP per 32-bit lane. Compiled with -mavx2 -mavxvnni
// only, so the instruction cannot be EVEX-encoded.
#include "peak_int8.hpp"

namespace roofline::peak_isa {
namespace {

#define ROOFLINE_VEX_LOOP \
  ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("%{vex%} vpdpbusd"), ROOFLINE_ACC12("+x"), m, a, "x")
ROOFLINE_INT8_PEAK(dot_int8_avx_vnni_256, Isa::avx_vnni, 32, kChainsLegacy, kNeedsAvxVnni, "{vex} vpdpbusd ymm", ROOFLINE_VEX_LOOP)
ROOFLINE_INT8_PEAK(dot_int8_avx_vnni_128, Isa::avx_vnni, 16, kChainsLegacy, kNeedsAvxVnni, "{vex} vpdpbusd xmm", ROOFLINE_VEX_LOOP)
#undef ROOFLINE_VEX_LOOP

}  // namespace

ROOFLINE_PEAK_TABLE(kAvxVnniRows, dot_int8_avx_vnni_128_row, dot_int8_avx_vnni_256_row)

}  // namespace roofline::peak_isa
