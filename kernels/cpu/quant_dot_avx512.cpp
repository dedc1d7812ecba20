// The AVX-512 dequant-dot kernels (-mavx512f/dq/bw/vl -mfma -mf16c): vpmaddubsw + vpmaddwd on zmm.
// Kernels: quant_dot_512.hpp.
#include <immintrin.h>

#include "quant_blocks.hpp"

namespace roofline::quant {
namespace {
struct Dot {
  static constexpr bool kInt4 = true;
  static __m512i u8s8(__m512i acc, __m512i u, __m512i s) {
    return _mm512_add_epi32(acc, _mm512_madd_epi16(_mm512_maddubs_epi16(u, s), _mm512_set1_epi16(1)));
  }
  static __m512i u8s8_scaled(__m512i acc, __m512i u, __m512i s, __m512i scale) {
    return _mm512_add_epi32(acc, _mm512_madd_epi16(_mm512_maddubs_epi16(u, s), scale));
  }
};
}  // namespace
}  // namespace roofline::quant

#include "quant_dot_512.hpp"

namespace roofline::quant {
const QuantIsaKernels kAvx512Kernels = kKernels512;
}  // namespace roofline::quant
