// The AVX-512 VNNI dequant-dot kernels (+ -mavx512vnni): vpdpbusd zmm, and for the K formats' scaled
// sub-blocks vpmaddubsw then vpdpwssd. int4 has no integer product, so no row here. Kernels: quant_dot_512.hpp.
#include <immintrin.h>

#include "quant_blocks.hpp"

namespace roofline::quant {
namespace {
struct Dot {
  static constexpr bool kInt4 = false;
  static __m512i u8s8(__m512i acc, __m512i u, __m512i s) { return _mm512_dpbusd_epi32(acc, u, s); }
  static __m512i u8s8_scaled(__m512i acc, __m512i u, __m512i s, __m512i scale) {
    return _mm512_dpwssd_epi32(acc, _mm512_maddubs_epi16(u, s), scale);
  }
};
}  // namespace
}  // namespace roofline::quant

#include "quant_dot_512.hpp"

namespace roofline::quant {
const QuantIsaKernels kAvx512VnniKernels = kKernels512;
}  // namespace roofline::quant
