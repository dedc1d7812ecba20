// The AVX-VNNI dequant-dot kernels (-mavx2 -mfma -mf16c -mavxvnni): vpdpbusd ymm (4 unsigned x signed byte
// products per int32 lane, one instruction), and for the K formats' scaled sub-blocks vpmaddubsw then
// vpdpwssd. int4 has no integer product, so no row here. Kernels: quant_dot_256.hpp.
#include <immintrin.h>

#include "quant_blocks.hpp"

namespace roofline::quant {
namespace {
struct Dot {
  static constexpr bool kInt4 = false;
  static __m256i u8s8(__m256i acc, __m256i u, __m256i s) { return _mm256_dpbusd_avx_epi32(acc, u, s); }
  static __m256i u8s8_scaled(__m256i acc, __m256i u, __m256i s, __m256i scale) {
    return _mm256_dpwssd_avx_epi32(acc, _mm256_maddubs_epi16(u, s), scale);
  }
};
}  // namespace
}  // namespace roofline::quant

#include "quant_dot_256.hpp"

namespace roofline::quant {
const QuantIsaKernels kAvxVnniKernels = kKernels256;
}  // namespace roofline::quant
