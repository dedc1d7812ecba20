// int8 dot-product peak with AVX_VNNI: the VEX-encoded vpdpbusd of Alder Lake / Sapphire Rapids / Zen 5,
// on ymm and xmm (16 registers, so 12 chains; `%{vex%}` is the {vex} prefix escaped for an asm template). 8 OP per 32-bit lane. Compiled with -mavx2 -mavxvnni
// only, so the instruction cannot be EVEX-encoded.
#include "peak_int8.hpp"

namespace roofline::peak_isa {
namespace {

#define ROOFLINE_VEX_LOOP \
  ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("%{vex%} vpdpbusd"), ROOFLINE_ACC12("+x"), m, a, "x")
ROOFLINE_INT8_KERNEL(dot_int8_avx_vnni_256, 32, kChainsLegacy, ROOFLINE_VEX_LOOP)
ROOFLINE_INT8_KERNEL(dot_int8_avx_vnni_128, 16, kChainsLegacy, ROOFLINE_VEX_LOOP)
#undef ROOFLINE_VEX_LOOP

}  // namespace

// The rows of this file's kernels (peak_isa.hpp). vpdpbusd: 8 OP per 32-bit lane.
const PeakVariant kAvxVnniData[] = {
    {"dot_int8_avx_vnni_128", PeakOp::dot, Precision::int8, Isa::avx_vnni, 128, kChainsLegacy, kChainsLegacy, 32, kNeedsAvxVnni, "{vex} vpdpbusd xmm", dot_int8_avx_vnni_128},
    {"dot_int8_avx_vnni_256", PeakOp::dot, Precision::int8, Isa::avx_vnni, 256, kChainsLegacy, kChainsLegacy, 64, kNeedsAvxVnni, "{vex} vpdpbusd ymm", dot_int8_avx_vnni_256},
};
extern const PeakRows kAvxVnniRows = {kAvxVnniData, std::size(kAvxVnniData)};

}  // namespace roofline::peak_isa
