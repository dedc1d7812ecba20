// The AVX2 dequant-dot kernels (-mavx2 -mfma -mf16c): 32 unsigned x signed bytes by vpmaddubsw into int16
// pairs, then vpmaddwd into int32 (by ones, or by a K format's sub-block scale). Kernels: quant_dot_256.hpp.
#include <immintrin.h>

#include "quant_blocks.hpp"

namespace roofline::quant {
namespace {
struct Dot {
  static constexpr bool kInt4 = true;
  static __m256i u8s8(__m256i acc, __m256i u, __m256i s) {
    return _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(u, s), _mm256_set1_epi16(1)));
  }
  static __m256i u8s8_scaled(__m256i acc, __m256i u, __m256i s, __m256i scale) {
    return _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(u, s), scale));
  }
};
}  // namespace
}  // namespace roofline::quant

#include "quant_dot_256.hpp"

namespace roofline::quant {
const QuantIsaKernels kAvx2Kernels = kKernels256;
}  // namespace roofline::quant
