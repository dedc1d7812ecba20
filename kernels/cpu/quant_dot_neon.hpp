// Private to kernels/: the ARM64 NEON dequant-dot kernels (issue 62), included by quant_dot_neon.cpp and
// quant_dot_neon_dot.cpp after each defines `Dot` (how 16 signed bytes times 16 signed bytes reach int32 lanes:
// smull + sadalp on every ARMv8-A, or SDOT with the dot-product extension), as llama.cpp's ggml ARM paths do
// (ggml_vdotq_s32 and its fallback). Everything here is in an unnamed namespace, so each translation unit compiles its
// own copy with its own flags (see peak_isa.hpp for why).
// The unpacking follows quant_blocks.hpp's layouts on 16-byte registers: nibbles masked and shifted, q5_k's fifth
// bit merged with vtst, q6_k's two high bits shifted in and its offset of 32 subtracted; every weight is then a signed
// byte, so no sign trick is needed (NEON multiplies signed by signed). The K formats' scales multiply each sub-block's
// int32 lanes (mla by a scalar), their mins go through the activations' sums of 16. Two float accumulators keep the
// q8_0/q4_0 loops off the FMA latency.
#pragma once

#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "quant_blocks.hpp"

namespace roofline::quant {
namespace {

// fp16 to fp32 with FCVT (the half-precision conversions are part of ARMv8-A, no extension needed).
inline float half(std::uint16_t h) {
  __fp16 v;
  std::memcpy(&v, &h, sizeof v);
  return static_cast<float>(v);
}

inline int8x16_t load16(const void* p) { return vld1q_s8(static_cast<const std::int8_t*>(p)); }

// 32 signed weights (two registers) times 32 activations, summed into int32 lanes.
inline int32x4_t dot_32x(int8x16_t w0, int8x16_t w1, const std::int8_t* x) {
  return Dot::s8s8(Dot::s8s8(vdupq_n_s32(0), w0, load16(x)), w1, load16(x + 16));
}

struct Pair {
  int8x16_t lo, hi;
};

inline Pair q8_0_weights(const BlockQ8_0& b) { return {load16(b.qs), load16(b.qs + 16)}; }

// A q4_0 block's 16 bytes as 32 signed weights: low nibbles are weights 0..15, high nibbles 16..31, minus 8.
inline Pair q4_0_weights(const BlockQ4_0& b) {
  const uint8x16_t q = vld1q_u8(b.qs);
  const int8x16_t eight = vdupq_n_s8(8);
  return {vsubq_s8(vreinterpretq_s8_u8(vandq_u8(q, vdupq_n_u8(0x0F))), eight),
          vsubq_s8(vreinterpretq_s8_u8(vshrq_n_u8(q, 4)), eight)};
}

template <class Block, Pair (*kWeights)(const Block&)>
float dot_32(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* xv) {
  const auto* w = reinterpret_cast<const Block*>(row);
  const auto* x = reinterpret_cast<const BlockQ8_0*>(xv);
  const std::int64_t n = cols / kQk0;
  float32x4_t acc0 = vdupq_n_f32(0.0f), acc1 = vdupq_n_f32(0.0f);
  std::int64_t b = 0;
  for (; b + 1 < n; b += 2) {
    const Pair w0 = kWeights(w[b]), w1 = kWeights(w[b + 1]);
    const int32x4_t p0 = dot_32x(w0.lo, w0.hi, x[b].qs);
    const int32x4_t p1 = dot_32x(w1.lo, w1.hi, x[b + 1].qs);
    acc0 = vfmaq_n_f32(acc0, vcvtq_f32_s32(p0), half(w[b].d) * half(x[b].d));
    acc1 = vfmaq_n_f32(acc1, vcvtq_f32_s32(p1), half(w[b + 1].d) * half(x[b + 1].d));
  }
  if (b < n) {
    const Pair w0 = kWeights(w[b]);
    acc0 = vfmaq_n_f32(acc0, vcvtq_f32_s32(dot_32x(w0.lo, w0.hi, x[b].qs)), half(w[b].d) * half(x[b].d));
  }
  return vaddvq_f32(vaddq_f32(acc0, acc1));
}

float dot_q8_0(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* x) {
  return dot_32<BlockQ8_0, q8_0_weights>(row, cols, x);
}

float dot_q4_0(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* x) {
  return dot_32<BlockQ4_0, q4_0_weights>(row, cols, x);
}

// q4_k / q5_k: chunk c's 32 bytes hold sub-blocks 2c (low nibbles) and 2c + 1 (high); q5_k's bit j of qh[l] adds 16
// to weight l of sub-block j. Weights 0..31, below 128: signed bytes as they are.
template <bool kFifthBit, class Block>
float dot_k4(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* xv) {
  const auto* w = reinterpret_cast<const Block*>(row);
  const auto* x = reinterpret_cast<const BlockQ8K*>(xv);
  const uint8x16_t nibble = vdupq_n_u8(0x0F);
  const uint8x16_t sixteen = vdupq_n_u8(16);
  float32x4_t acc = vdupq_n_f32(0.0f);
  float mins = 0.0f;
  for (std::int64_t b = 0; b < cols / kQkK; ++b) {
    const K4Scales s = k4_scales(w[b].scales);
    uint8x16_t qh0 = vdupq_n_u8(0), qh1 = vdupq_n_u8(0);
    if constexpr (kFifthBit) {
      qh0 = vld1q_u8(w[b].qh);
      qh1 = vld1q_u8(w[b].qh + 16);
    }
    int32x4_t sumi = vdupq_n_s32(0);
    for (int c = 0; c < 4; ++c) {
      const uint8x16_t q0 = vld1q_u8(w[b].qs + 32 * c), q1 = vld1q_u8(w[b].qs + 32 * c + 16);
      uint8x16_t lo0 = vandq_u8(q0, nibble), lo1 = vandq_u8(q1, nibble);
      uint8x16_t hi0 = vshrq_n_u8(q0, 4), hi1 = vshrq_n_u8(q1, 4);
      if constexpr (kFifthBit) {
        const uint8x16_t m0 = vdupq_n_u8(static_cast<std::uint8_t>(1u << (2 * c)));
        const uint8x16_t m1 = vdupq_n_u8(static_cast<std::uint8_t>(2u << (2 * c)));
        lo0 = vorrq_u8(lo0, vandq_u8(vtstq_u8(qh0, m0), sixteen));
        lo1 = vorrq_u8(lo1, vandq_u8(vtstq_u8(qh1, m0), sixteen));
        hi0 = vorrq_u8(hi0, vandq_u8(vtstq_u8(qh0, m1), sixteen));
        hi1 = vorrq_u8(hi1, vandq_u8(vtstq_u8(qh1, m1), sixteen));
      }
      const std::int8_t* xc = x[b].qs + 64 * c;
      sumi = vmlaq_n_s32(sumi, dot_32x(vreinterpretq_s8_u8(lo0), vreinterpretq_s8_u8(lo1), xc), s.scale[2 * c]);
      sumi = vmlaq_n_s32(sumi, dot_32x(vreinterpretq_s8_u8(hi0), vreinterpretq_s8_u8(hi1), xc + 32), s.scale[2 * c + 1]);
    }
    acc = vfmaq_n_f32(acc, vcvtq_f32_s32(sumi), x[b].d * half(w[b].d));
    mins += x[b].d * half(w[b].dmin) * static_cast<float>(k4_min_term(s, x[b].bsums));
  }
  return vaddvq_f32(acc) - mins;
}

float dot_q4_k(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* x) {
  return dot_k4<false, BlockQ4K>(row, cols, x);
}
float dot_q5_k(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* x) {
  return dot_k4<true, BlockQ5K>(row, cols, x);
}

// q6_k: in half h, part p's 6-bit weight is nibble p / 2 of ql[64 h + 32 (p % 2) ..] with bits 2p, 2p + 1 of
// qh[32 h ..] at bits 4, 5, minus 32; its 32 weights use scales 8h + 2p (first 16: one register) and 8h + 2p + 1.
float dot_q6_k(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* xv) {
  const auto* w = reinterpret_cast<const BlockQ6K*>(row);
  const auto* x = reinterpret_cast<const BlockQ8K*>(xv);
  const uint8x16_t nibble = vdupq_n_u8(0x0F);
  const uint8x16_t high = vdupq_n_u8(0x30);
  const int8x16_t offset = vdupq_n_s8(32);
  float32x4_t acc = vdupq_n_f32(0.0f);
  for (std::int64_t b = 0; b < cols / kQkK; ++b) {
    const std::int8_t* sc = w[b].scales;
    int32x4_t sumi = vdupq_n_s32(0);
    for (int h = 0; h < 2; ++h) {
      for (int r = 0; r < 2; ++r) {  // weights l = 16 r .. 16 r + 15 of each part
        const uint8x16_t ql0 = vld1q_u8(w[b].ql + 64 * h + 16 * r);
        const uint8x16_t ql1 = vld1q_u8(w[b].ql + 64 * h + 32 + 16 * r);
        const uint8x16_t qh = vld1q_u8(w[b].qh + 32 * h + 16 * r);
        const uint8x16_t q[4] = {vorrq_u8(vandq_u8(ql0, nibble), vandq_u8(vshlq_n_u8(qh, 4), high)),
                                 vorrq_u8(vandq_u8(ql1, nibble), vandq_u8(vshlq_n_u8(qh, 2), high)),
                                 vorrq_u8(vshrq_n_u8(ql0, 4), vandq_u8(qh, high)),
                                 vorrq_u8(vshrq_n_u8(ql1, 4), vandq_u8(vshrq_n_u8(qh, 2), high))};
        for (int p = 0; p < 4; ++p) {
          const int8x16_t weights = vsubq_s8(vreinterpretq_s8_u8(q[p]), offset);
          const int32x4_t dot = Dot::s8s8(vdupq_n_s32(0), weights, load16(x[b].qs + 128 * h + 32 * p + 16 * r));
          sumi = vmlaq_n_s32(sumi, dot, sc[8 * h + 2 * p + r]);
        }
      }
    }
    acc = vfmaq_n_f32(acc, vcvtq_f32_s32(sumi), x[b].d * half(w[b].d));
  }
  return vaddvq_f32(acc);
}

// int4-gG times fp32: 16 bytes at a time, low and high nibbles minus 8 widened to int32 lanes, to fp32, FMLA.
float dot_int4(const std::uint8_t* row, std::int64_t cols, int group, const float* x) {
  const std::int64_t block_bytes = 2 + group / 2;
  const uint8x16_t nibble = vdupq_n_u8(0x0F);
  const int8x16_t eight = vdupq_n_s8(8);
  float32x4_t acc = vdupq_n_f32(0.0f);
  for (std::int64_t g = 0; g < cols / group; ++g) {
    const std::uint8_t* blk = row + g * block_bytes;
    std::uint16_t d = 0;
    std::memcpy(&d, blk, sizeof d);
    const std::uint8_t* qs = blk + 2;
    const float* xg = x + g * group;
    float32x4_t a[4] = {vdupq_n_f32(0.0f), vdupq_n_f32(0.0f), vdupq_n_f32(0.0f), vdupq_n_f32(0.0f)};
    for (int j = 0; j < group / 2; j += 16) {
      const uint8x16_t q = vld1q_u8(qs + j);
      const int8x16_t halves[2] = {vsubq_s8(vreinterpretq_s8_u8(vandq_u8(q, nibble)), eight),
                                   vsubq_s8(vreinterpretq_s8_u8(vshrq_n_u8(q, 4)), eight)};
      for (int u = 0; u < 2; ++u) {  // u = 0: weights j.. (x at j), u = 1: weights group / 2 + j..
        const float* xs = xg + u * (group / 2) + j;
        const int16x8_t w0 = vmovl_s8(vget_low_s8(halves[u])), w1 = vmovl_s8(vget_high_s8(halves[u]));
        a[2 * u] = vfmaq_f32(a[2 * u], vcvtq_f32_s32(vmovl_s16(vget_low_s16(w0))), vld1q_f32(xs));
        a[2 * u + 1] = vfmaq_f32(a[2 * u + 1], vcvtq_f32_s32(vmovl_s16(vget_high_s16(w0))), vld1q_f32(xs + 4));
        a[2 * u] = vfmaq_f32(a[2 * u], vcvtq_f32_s32(vmovl_s16(vget_low_s16(w1))), vld1q_f32(xs + 8));
        a[2 * u + 1] = vfmaq_f32(a[2 * u + 1], vcvtq_f32_s32(vmovl_s16(vget_high_s16(w1))), vld1q_f32(xs + 12));
      }
    }
    const float32x4_t s = vaddq_f32(vaddq_f32(a[0], a[1]), vaddq_f32(a[2], a[3]));
    acc = vfmaq_n_f32(acc, s, half(d));
  }
  return vaddvq_f32(acc);
}

constexpr QuantIsaKernels kKernelsNeon{
    {&dot_rows<dot_q8_0>, &dot_rows<dot_q4_0>, &dot_rows<dot_q4_k>, &dot_rows<dot_q5_k>, &dot_rows<dot_q6_k>,
     Dot::kInt4 ? &dot_rows_int4<dot_int4> : nullptr}};

}  // namespace
}  // namespace roofline::quant
