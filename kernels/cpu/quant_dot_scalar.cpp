// The scalar dequant-dot kernels (baseline flags, any x86-64): the same integer products per block as the
// vector kernels, one weight at a time, a float sum of the blocks' scaled integer sums (llama.cpp's
// *_generic vec_dot). The row the vector kernels are measured against, and the fallback of every CPU.
#include <cstdint>

#include "quant_blocks.hpp"

namespace roofline::quant {
namespace {

float dot_q8_0(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* xv) {
  const auto* w = reinterpret_cast<const BlockQ8_0*>(row);
  const auto* x = reinterpret_cast<const BlockQ8_0*>(xv);
  float sum = 0.0f;
  for (std::int64_t b = 0; b < cols / kQk0; ++b) {
    int s = 0;
    for (int j = 0; j < kQk0; ++j) s += w[b].qs[j] * x[b].qs[j];
    sum += half_to_float(w[b].d) * half_to_float(x[b].d) * static_cast<float>(s);
  }
  return sum;
}

float dot_q4_0(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* xv) {
  const auto* w = reinterpret_cast<const BlockQ4_0*>(row);
  const auto* x = reinterpret_cast<const BlockQ8_0*>(xv);
  float sum = 0.0f;
  for (std::int64_t b = 0; b < cols / kQk0; ++b) {
    int s = 0;
    for (int j = 0; j < kQk0 / 2; ++j) {
      s += ((w[b].qs[j] & 0xF) - 8) * x[b].qs[j];
      s += ((w[b].qs[j] >> 4) - 8) * x[b].qs[j + kQk0 / 2];
    }
    sum += half_to_float(w[b].d) * half_to_float(x[b].d) * static_cast<float>(s);
  }
  return sum;
}

// q4_k and q5_k: sub-block j of chunk c (64 weights) is the low (j = 2c) or high (2c + 1) nibbles of
// qs[32c .. 32c + 31], q5_k adding 16 where bit j of qh[l] is set.
template <bool kFifthBit>
float dot_k4(const std::uint8_t* qs, const std::uint8_t* qh, const std::uint8_t* scales, std::uint16_t d,
             std::uint16_t dmin, const BlockQ8K& x) {
  const K4Scales s = k4_scales(scales);
  int sumi = 0;
  for (int c = 0; c < 4; ++c) {
    for (int half = 0; half < 2; ++half) {
      const int j = 2 * c + half;
      int sub = 0;
      for (int l = 0; l < 32; ++l) {
        int q = half == 0 ? (qs[32 * c + l] & 0xF) : (qs[32 * c + l] >> 4);
        if (kFifthBit && ((qh[l] >> j) & 1)) q += 16;
        sub += q * x.qs[64 * c + 32 * half + l];
      }
      sumi += s.scale[j] * sub;
    }
  }
  return x.d * (half_to_float(d) * static_cast<float>(sumi) - half_to_float(dmin) * static_cast<float>(k4_min_term(s, x.bsums)));
}

float dot_q4_k(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* xv) {
  const auto* w = reinterpret_cast<const BlockQ4K*>(row);
  const auto* x = reinterpret_cast<const BlockQ8K*>(xv);
  float sum = 0.0f;
  for (std::int64_t b = 0; b < cols / kQkK; ++b) sum += dot_k4<false>(w[b].qs, nullptr, w[b].scales, w[b].d, w[b].dmin, x[b]);
  return sum;
}

float dot_q5_k(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* xv) {
  const auto* w = reinterpret_cast<const BlockQ5K*>(row);
  const auto* x = reinterpret_cast<const BlockQ8K*>(xv);
  float sum = 0.0f;
  for (std::int64_t b = 0; b < cols / kQkK; ++b) sum += dot_k4<true>(w[b].qs, w[b].qh, w[b].scales, w[b].d, w[b].dmin, x[b]);
  return sum;
}

// q6_k: two halves of 128 weights; in half h, weight 32 p + l (p = 0..3, l = 0..31) is nibble p / 2 of
// ql[64 h + 32 (p % 2) + l] with bits 2p..2p+1 of qh[32 h + l] above it, scaled by scales[8 h + 2 p + l / 16].
float dot_q6_k(const std::uint8_t* row, std::int64_t cols, const std::uint8_t* xv) {
  const auto* w = reinterpret_cast<const BlockQ6K*>(row);
  const auto* x = reinterpret_cast<const BlockQ8K*>(xv);
  float sum = 0.0f;
  for (std::int64_t b = 0; b < cols / kQkK; ++b) {
    int sumi = 0;
    for (int h = 0; h < 2; ++h) {
      for (int p = 0; p < 4; ++p) {
        for (int g = 0; g < 2; ++g) {
          int sub = 0;
          for (int l = 16 * g; l < 16 * g + 16; ++l) {
            const std::uint8_t lo = w[b].ql[64 * h + 32 * (p % 2) + l];
            const int q = ((p < 2 ? lo & 0xF : lo >> 4) | (((w[b].qh[32 * h + l] >> (2 * p)) & 3) << 4)) - 32;
            sub += q * x[b].qs[128 * h + 32 * p + l];
          }
          sumi += w[b].scales[8 * h + 2 * p + g] * sub;
        }
      }
    }
    sum += half_to_float(w[b].d) * x[b].d * static_cast<float>(sumi);
  }
  return sum;
}

float dot_int4(const std::uint8_t* row, std::int64_t cols, int group, const float* x) {
  const std::int64_t block_bytes = 2 + group / 2;
  float sum = 0.0f;
  for (std::int64_t g = 0; g < cols / group; ++g) {
    const std::uint8_t* blk = row + g * block_bytes;
    std::uint16_t d = 0;
    std::memcpy(&d, blk, sizeof d);
    const std::uint8_t* qs = blk + 2;
    const float* xg = x + g * group;
    float s = 0.0f;
    for (int j = 0; j < group / 2; ++j) {
      s += static_cast<float>((qs[j] & 0xF) - 8) * xg[j];
      s += static_cast<float>((qs[j] >> 4) - 8) * xg[j + group / 2];
    }
    sum += half_to_float(d) * s;
  }
  return sum;
}

}  // namespace

const QuantIsaKernels kScalarKernels{
    {&dot_rows<dot_q8_0>, &dot_rows<dot_q4_0>, &dot_rows<dot_q4_k>, &dot_rows<dot_q5_k>, &dot_rows<dot_q6_k>,
     &dot_rows_int4<dot_int4>}};

}  // namespace roofline::quant
