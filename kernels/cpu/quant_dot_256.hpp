// Private to kernels/: the 256-bit dequant-dot kernels, included by quant_dot_avx2.cpp and
// quant_dot_avx_vnni.cpp after each defines `Dot` (how 32 unsigned bytes times 32 signed bytes reach int32
// lanes: vpmaddubsw + vpmaddwd, or vpdpbusd / vpdpwssd). Everything here is in an unnamed namespace, so each
// translation unit compiles its own copy with its own flags (see peak_isa.hpp for why).
// The unpacking follows the layouts of quant_blocks.hpp: nibbles masked and shifted, the fifth and sixth
// bits merged with compares or shifts, signed products by the sign trick (|a| times b with a's sign), the
// K formats' 6-bit scales applied to int16 pair sums, their mins (and q6_k's offset of 32) through the
// activations' sums of 16. Two float accumulators keep the q8_0/q4_0 loops off the FMA latency.
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "quant_blocks.hpp"

namespace roofline::quant {
namespace {

inline float hsum(__m256 v) {
  const __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  const __m128 t = _mm_add_ps(s, _mm_movehl_ps(s, s));
  return _mm_cvtss_f32(_mm_add_ss(t, _mm_movehdup_ps(t)));
}

inline float half(std::uint16_t h) { return _cvtsh_ss(h); }

// Signed a times signed b, summed in groups of 4 into acc's int32 lanes.
inline __m256i dot_s8s8(__m256i acc, __m256i a, __m256i b) {
  return Dot::u8s8(acc, _mm256_sign_epi8(a, a), _mm256_sign_epi8(b, a));
}

// A q4_0 block's 16 bytes as 32 signed weights: low nibbles first, minus 8.
inline __m256i q4_0_weights(const std::uint8_t* qs) {
  const __m128i q = _mm_loadu_si128(reinterpret_cast<const __m128i*>(qs));
  const __m256i v = _mm256_and_si256(_mm256_set_m128i(_mm_srli_epi16(q, 4), q), _mm256_set1_epi8(0x0F));
  return _mm256_sub_epi8(v, _mm256_set1_epi8(8));
}

inline __m256i load32(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }

template <class Block, class Weights>
float dot_32(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* xv, Weights weights) {
  const auto* w = reinterpret_cast<const Block*>(row);
  const auto* x = reinterpret_cast<const BlockQ8_0*>(xv);
  const std::int64_t n = cols / kQk0;
  __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
  std::int64_t b = 0;
  for (; b + 1 < n; b += 2) {
    const __m256i p0 = dot_s8s8(_mm256_setzero_si256(), weights(w[b]), load32(x[b].qs));
    const __m256i p1 = dot_s8s8(_mm256_setzero_si256(), weights(w[b + 1]), load32(x[b + 1].qs));
    acc0 = _mm256_fmadd_ps(_mm256_set1_ps(half(w[b].d) * half(x[b].d)), _mm256_cvtepi32_ps(p0), acc0);
    acc1 = _mm256_fmadd_ps(_mm256_set1_ps(half(w[b + 1].d) * half(x[b + 1].d)), _mm256_cvtepi32_ps(p1), acc1);
  }
  if (b < n) {
    const __m256i p = dot_s8s8(_mm256_setzero_si256(), weights(w[b]), load32(x[b].qs));
    acc0 = _mm256_fmadd_ps(_mm256_set1_ps(half(w[b].d) * half(x[b].d)), _mm256_cvtepi32_ps(p), acc0);
  }
  return hsum(_mm256_add_ps(acc0, acc1));
}

float dot_q8_0(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* x) {
  return dot_32<BlockQ8_0>(row, cols, x, [](const BlockQ8_0& b) { return load32(b.qs); });
}

float dot_q4_0(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* x) {
  return dot_32<BlockQ4_0>(row, cols, x, [](const BlockQ4_0& b) { return q4_0_weights(b.qs); });
}

inline __m256i scale16(int s) { return _mm256_set1_epi16(static_cast<short>(s)); }

// q4_k / q5_k: chunk c's 32 bytes hold sub-blocks 2c (low nibbles) and 2c + 1 (high).
template <bool kFifthBit, class Block>
float dot_k4(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* xv) {
  const auto* w = reinterpret_cast<const Block*>(row);
  const auto* x = reinterpret_cast<const BlockQ8K*>(xv);
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  __m256 acc = _mm256_setzero_ps();
  float mins = 0.0f;
  for (std::int64_t b = 0; b < cols / kQkK; ++b) {
    const K4Scales s = k4_scales(w[b].scales);
    __m256i qh = _mm256_setzero_si256();
    if constexpr (kFifthBit) qh = load32(w[b].qh);
    __m256i sumi = _mm256_setzero_si256();
    for (int c = 0; c < 4; ++c) {
      const __m256i q = load32(w[b].qs + 32 * c);
      __m256i lo = _mm256_and_si256(q, nibble);
      __m256i hi = _mm256_and_si256(_mm256_srli_epi16(q, 4), nibble);
      if constexpr (kFifthBit) {
        const __m256i m0 = _mm256_set1_epi8(static_cast<char>(1 << (2 * c)));
        const __m256i m1 = _mm256_set1_epi8(static_cast<char>(2 << (2 * c)));
        const __m256i sixteen = _mm256_set1_epi8(16);
        lo = _mm256_or_si256(lo, _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(qh, m0), m0), sixteen));
        hi = _mm256_or_si256(hi, _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(qh, m1), m1), sixteen));
      }
      sumi = Dot::u8s8_scaled(sumi, lo, load32(x[b].qs + 64 * c), scale16(s.scale[2 * c]));
      sumi = Dot::u8s8_scaled(sumi, hi, load32(x[b].qs + 64 * c + 32), scale16(s.scale[2 * c + 1]));
    }
    acc = _mm256_fmadd_ps(_mm256_set1_ps(x[b].d * half(w[b].d)), _mm256_cvtepi32_ps(sumi), acc);
    mins += x[b].d * half(w[b].dmin) * static_cast<float>(k4_min_term(s, x[b].bsums));
  }
  return hsum(acc) - mins;
}

float dot_q4_k(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* x) {
  return dot_k4<false, BlockQ4K>(row, cols, x);
}
float dot_q5_k(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* x) {
  return dot_k4<true, BlockQ5K>(row, cols, x);
}

// q6_k: in half h, part p's 6-bit weight is nibble p / 2 of ql[64 h + 32 (p % 2) ..] with bits 2p, 2p + 1 of
// qh[32 h ..] at bits 4, 5; its 32 weights use scales 8h + 2p (first 16) and 8h + 2p + 1.
float dot_q6_k(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* xv) {
  const auto* w = reinterpret_cast<const BlockQ6K*>(row);
  const auto* x = reinterpret_cast<const BlockQ8K*>(xv);
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  const __m256i high = _mm256_set1_epi8(0x30);
  __m256 acc = _mm256_setzero_ps();
  for (std::int64_t b = 0; b < cols / kQkK; ++b) {
    const std::int8_t* sc = w[b].scales;
    __m256i sumi = _mm256_setzero_si256();
    for (int h = 0; h < 2; ++h) {
      const __m256i ql0 = load32(w[b].ql + 64 * h);
      const __m256i ql1 = load32(w[b].ql + 64 * h + 32);
      const __m256i qh = load32(w[b].qh + 32 * h);
      const __m256i q[4] = {
          _mm256_or_si256(_mm256_and_si256(ql0, nibble), _mm256_and_si256(_mm256_slli_epi16(qh, 4), high)),
          _mm256_or_si256(_mm256_and_si256(ql1, nibble), _mm256_and_si256(_mm256_slli_epi16(qh, 2), high)),
          _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql0, 4), nibble), _mm256_and_si256(qh, high)),
          _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql1, 4), nibble),
                          _mm256_and_si256(_mm256_srli_epi16(qh, 2), high))};
      for (int p = 0; p < 4; ++p) {
        const int i = 8 * h + 2 * p;
        const __m256i scales = _mm256_set_m128i(_mm_set1_epi16(sc[i + 1]), _mm_set1_epi16(sc[i]));
        sumi = Dot::u8s8_scaled(sumi, q[p], load32(x[b].qs + 128 * h + 32 * p), scales);
      }
    }
    // The offset of 32: sum over the 16 groups of scale x 32 x the activations' sum.
    const __m256i offset = _mm256_madd_epi16(load32(x[b].bsums),
                                             _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(sc))));
    sumi = _mm256_sub_epi32(sumi, _mm256_slli_epi32(offset, 5));
    acc = _mm256_fmadd_ps(_mm256_set1_ps(x[b].d * half(w[b].d)), _mm256_cvtepi32_ps(sumi), acc);
  }
  return hsum(acc);
}

// int4-gG times fp32: 8 bytes at a time widened to int32 lanes, low and high nibbles to fp32 (minus 8).
float dot_int4(const std::uint8_t* row, std::int64_t cols, int group, const float* x) {
  const std::int64_t block_bytes = 2 + group / 2;
  const __m256i nibble = _mm256_set1_epi32(0x0F);
  const __m256i eight = _mm256_set1_epi32(8);
  __m256 acc = _mm256_setzero_ps();
  for (std::int64_t g = 0; g < cols / group; ++g) {
    const std::uint8_t* blk = row + g * block_bytes;
    std::uint16_t d = 0;
    std::memcpy(&d, blk, sizeof d);
    const std::uint8_t* qs = blk + 2;
    const float* xg = x + g * group;
    __m256 a[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
    for (int j = 0; j < group / 2; j += 16) {
      for (int u = 0; u < 2; ++u) {
        const __m256i v = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(qs + j + 8 * u)));
        const __m256 lo = _mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_and_si256(v, nibble), eight));
        const __m256 hi = _mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_srli_epi32(v, 4), eight));
        a[2 * u] = _mm256_fmadd_ps(lo, _mm256_loadu_ps(xg + j + 8 * u), a[2 * u]);
        a[2 * u + 1] = _mm256_fmadd_ps(hi, _mm256_loadu_ps(xg + group / 2 + j + 8 * u), a[2 * u + 1]);
      }
    }
    const __m256 s = _mm256_add_ps(_mm256_add_ps(a[0], a[1]), _mm256_add_ps(a[2], a[3]));
    acc = _mm256_fmadd_ps(_mm256_set1_ps(half(d)), s, acc);
  }
  return hsum(acc);
}

constexpr QuantIsaKernels kKernels256{
    {&dot_rows<dot_q8_0>, &dot_rows<dot_q4_0>, &dot_rows<dot_q4_k>, &dot_rows<dot_q5_k>, &dot_rows<dot_q6_k>,
     Dot::kInt4 ? &dot_rows_int4<dot_int4> : nullptr}};

}  // namespace
}  // namespace roofline::quant
