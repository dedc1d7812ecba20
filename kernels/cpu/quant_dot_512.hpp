// Private to kernels/: the 512-bit dequant-dot kernels, included by quant_dot_avx512.cpp and
// quant_dot_avx512_vnni.cpp after each defines `Dot` (vpmaddubsw + vpmaddwd, or vpdpbusd / vpdpwssd on zmm).
// One zmm holds two q8_0/q4_0 blocks (their scales in its two halves) or one 64-weight chunk of a K block
// (two sub-blocks, two scales). AVX-512BW has no vpsignb: the sign trick is |a| (vpabsb) and b negated where
// a is negative (a mask from vpmovb2m). Unnamed namespace: each translation unit its own copy (peak_isa.hpp).
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "quant_blocks.hpp"

namespace roofline::quant {
namespace {

inline float hsum(__m512 v) { return _mm512_reduce_add_ps(v); }
inline float half(std::uint16_t h) { return _cvtsh_ss(h); }

inline __m512i dot_s8s8(__m512i acc, __m512i a, __m512i b) {
  const __m512i sb = _mm512_mask_sub_epi8(b, _mm512_movepi8_mask(a), _mm512_setzero_si512(), b);
  return Dot::u8s8(acc, _mm512_abs_epi8(a), sb);
}

inline __m256i load32(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
inline __m512i join(__m256i lo, __m256i hi) { return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1); }

inline __m256i q4_0_weights(const std::uint8_t* qs) {
  const __m128i q = _mm_loadu_si128(reinterpret_cast<const __m128i*>(qs));
  const __m256i v = _mm256_and_si256(_mm256_set_m128i(_mm_srli_epi16(q, 4), q), _mm256_set1_epi8(0x0F));
  return _mm256_sub_epi8(v, _mm256_set1_epi8(8));
}

// Two blocks per zmm; a block left over (an odd count) runs in the low half with zero weights above.
template <class Block, class Weights>
float dot_32(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* xv, Weights weights) {
  const auto* w = reinterpret_cast<const Block*>(row);
  const auto* x = reinterpret_cast<const BlockQ8_0*>(xv);
  const std::int64_t n = cols / kQk0;
  __m512 acc0 = _mm512_setzero_ps(), acc1 = _mm512_setzero_ps();
  std::int64_t b = 0;
  const auto pair = [&](std::int64_t i, __m512& acc) {
    const __m512i p = dot_s8s8(_mm512_setzero_si512(), join(weights(w[i]), weights(w[i + 1])),
                               join(load32(x[i].qs), load32(x[i + 1].qs)));
    const __m512 s = _mm512_mask_blend_ps(0xFF00, _mm512_set1_ps(half(w[i].d) * half(x[i].d)),
                                          _mm512_set1_ps(half(w[i + 1].d) * half(x[i + 1].d)));
    acc = _mm512_fmadd_ps(s, _mm512_cvtepi32_ps(p), acc);
  };
  for (; b + 3 < n; b += 4) {
    pair(b, acc0);
    pair(b + 2, acc1);
  }
  for (; b + 1 < n; b += 2) pair(b, acc0);
  if (b < n) {
    const __m512i p = dot_s8s8(_mm512_setzero_si512(), join(weights(w[b]), _mm256_setzero_si256()),
                               join(load32(x[b].qs), _mm256_setzero_si256()));
    acc1 = _mm512_fmadd_ps(_mm512_set1_ps(half(w[b].d) * half(x[b].d)), _mm512_cvtepi32_ps(p), acc1);
  }
  return hsum(_mm512_add_ps(acc0, acc1));
}

float dot_q8_0(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* x) {
  return dot_32<BlockQ8_0>(row, cols, x, [](const BlockQ8_0& b) { return load32(b.qs); });
}

float dot_q4_0(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* x) {
  return dot_32<BlockQ4_0>(row, cols, x, [](const BlockQ4_0& b) { return q4_0_weights(b.qs); });
}

// Two sub-block scales as int16 lanes: the first 16 lanes (bytes 0..31 of the product) a, the rest b.
inline __m512i scales2(int a, int b) {
  return join(_mm256_set1_epi16(static_cast<short>(a)), _mm256_set1_epi16(static_cast<short>(b)));
}

template <bool kFifthBit, class Block>
float dot_k4(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* xv) {
  const auto* w = reinterpret_cast<const Block*>(row);
  const auto* x = reinterpret_cast<const BlockQ8K*>(xv);
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  __m512 acc = _mm512_setzero_ps();
  float mins = 0.0f;
  for (std::int64_t b = 0; b < cols / kQkK; ++b) {
    const K4Scales s = k4_scales(w[b].scales);
    __m256i qh = _mm256_setzero_si256();
    if constexpr (kFifthBit) qh = load32(w[b].qh);
    __m512i sumi = _mm512_setzero_si512();
    for (int c = 0; c < 4; ++c) {
      const __m256i q = load32(w[b].qs + 32 * c);
      __m256i lo = _mm256_and_si256(q, nibble);
      __m256i hi = _mm256_and_si256(_mm256_srli_epi16(q, 4), nibble);
      if constexpr (kFifthBit) {
        const __m256i sixteen = _mm256_set1_epi8(16);
        lo = _mm256_mask_add_epi8(lo, _mm256_test_epi8_mask(qh, _mm256_set1_epi8(static_cast<char>(1 << (2 * c)))), lo, sixteen);
        hi = _mm256_mask_add_epi8(hi, _mm256_test_epi8_mask(qh, _mm256_set1_epi8(static_cast<char>(2 << (2 * c)))), hi, sixteen);
      }
      const __m512i xq = _mm512_loadu_si512(x[b].qs + 64 * c);
      sumi = Dot::u8s8_scaled(sumi, join(lo, hi), xq, scales2(s.scale[2 * c], s.scale[2 * c + 1]));
    }
    acc = _mm512_fmadd_ps(_mm512_set1_ps(x[b].d * half(w[b].d)), _mm512_cvtepi32_ps(sumi), acc);
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

// q6_k: parts 0 and 1 of a half (64 consecutive weights) in one zmm, then parts 2 and 3; their four scales
// each widened to 8 int16 lanes (16 weights' pair sums).
float dot_q6_k(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* xv) {
  const auto* w = reinterpret_cast<const BlockQ6K*>(row);
  const auto* x = reinterpret_cast<const BlockQ8K*>(xv);
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  const __m256i high = _mm256_set1_epi8(0x30);
  const __m512i spread = _mm512_set_epi16(3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2,
                                          1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0);
  __m512 acc = _mm512_setzero_ps();
  for (std::int64_t b = 0; b < cols / kQkK; ++b) {
    const std::int8_t* sc = w[b].scales;
    __m512i sumi = _mm512_setzero_si512();
    for (int h = 0; h < 2; ++h) {
      const __m256i ql0 = load32(w[b].ql + 64 * h);
      const __m256i ql1 = load32(w[b].ql + 64 * h + 32);
      const __m256i qh = load32(w[b].qh + 32 * h);
      const __m512i q01 = join(
          _mm256_or_si256(_mm256_and_si256(ql0, nibble), _mm256_and_si256(_mm256_slli_epi16(qh, 4), high)),
          _mm256_or_si256(_mm256_and_si256(ql1, nibble), _mm256_and_si256(_mm256_slli_epi16(qh, 2), high)));
      const __m512i q23 = join(
          _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql0, 4), nibble), _mm256_and_si256(qh, high)),
          _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql1, 4), nibble),
                          _mm256_and_si256(_mm256_srli_epi16(qh, 2), high)));
      for (int pp = 0; pp < 2; ++pp) {
        std::int32_t four = 0;
        std::memcpy(&four, sc + 8 * h + 4 * pp, sizeof four);
        const __m512i scales =
            _mm512_permutexvar_epi16(spread, _mm512_castsi128_si512(_mm_cvtepi8_epi16(_mm_cvtsi32_si128(four))));
        sumi = Dot::u8s8_scaled(sumi, pp == 0 ? q01 : q23, _mm512_loadu_si512(x[b].qs + 128 * h + 64 * pp), scales);
      }
    }
    const __m256i offset = _mm256_madd_epi16(load32(x[b].bsums),
                                             _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(sc))));
    sumi = _mm512_sub_epi32(sumi, _mm512_zextsi256_si512(_mm256_slli_epi32(offset, 5)));
    acc = _mm512_fmadd_ps(_mm512_set1_ps(x[b].d * half(w[b].d)), _mm512_cvtepi32_ps(sumi), acc);
  }
  return hsum(acc);
}

// int4-gG times fp32: 16 bytes at a time widened to int32 lanes.
float dot_int4(const std::uint8_t* row, std::int64_t cols, int group, const float* x) {
  const std::int64_t block_bytes = 2 + group / 2;
  const __m512i nibble = _mm512_set1_epi32(0x0F);
  const __m512i eight = _mm512_set1_epi32(8);
  __m512 acc = _mm512_setzero_ps();
  for (std::int64_t g = 0; g < cols / group; ++g) {
    const std::uint8_t* blk = row + g * block_bytes;
    std::uint16_t d = 0;
    std::memcpy(&d, blk, sizeof d);
    const std::uint8_t* qs = blk + 2;
    const float* xg = x + g * group;
    __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps();
    for (int j = 0; j < group / 2; j += 16) {
      const __m512i v = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(qs + j)));
      const __m512 lo = _mm512_cvtepi32_ps(_mm512_sub_epi32(_mm512_and_si512(v, nibble), eight));
      const __m512 hi = _mm512_cvtepi32_ps(_mm512_sub_epi32(_mm512_srli_epi32(v, 4), eight));
      a0 = _mm512_fmadd_ps(lo, _mm512_loadu_ps(xg + j), a0);
      a1 = _mm512_fmadd_ps(hi, _mm512_loadu_ps(xg + group / 2 + j), a1);
    }
    acc = _mm512_fmadd_ps(_mm512_set1_ps(half(d)), _mm512_add_ps(a0, a1), acc);
  }
  return hsum(acc);
}

constexpr QuantIsaKernels kKernels512{
    {&dot_rows<dot_q8_0>, &dot_rows<dot_q4_0>, &dot_rows<dot_q4_k>, &dot_rows<dot_q5_k>, &dot_rows<dot_q6_k>,
     Dot::kInt4 ? &dot_rows_int4<dot_int4> : nullptr}};

}  // namespace
}  // namespace roofline::quant
