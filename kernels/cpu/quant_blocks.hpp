// Private to kernels/: the block layouts of the dequant-dot kernels (quant_dot.hpp), byte for byte those of
// llama.cpp's ggml-common.h, the small scalar helpers every ISA's kernels share (fp16 to fp32, the 6-bit
// scales of the K formats), and the per-ISA kernel tables. The helpers are inline and ISA-neutral (plain
// integer code), so whichever translation unit's copy the linker keeps computes the same thing.
#pragma once

#include <cstdint>
#include <cstring>

#include "roofline/kernels/cpu/quant_dot.hpp"

namespace roofline::quant {

inline constexpr int kQk0 = 32;   // weights per q8_0 / q4_0 block
inline constexpr int kQkK = 256;  // weights per K-format super-block

#pragma pack(push, 1)
struct BlockQ8_0 {
  std::uint16_t d;  // fp16
  std::int8_t qs[kQk0];
};
struct BlockQ4_0 {
  std::uint16_t d;
  std::uint8_t qs[kQk0 / 2];
};
struct BlockQ4K {
  std::uint16_t d;
  std::uint16_t dmin;
  std::uint8_t scales[12];
  std::uint8_t qs[kQkK / 2];
};
struct BlockQ5K {
  std::uint16_t d;
  std::uint16_t dmin;
  std::uint8_t scales[12];
  std::uint8_t qh[kQkK / 8];
  std::uint8_t qs[kQkK / 2];
};
struct BlockQ6K {
  std::uint8_t ql[kQkK / 2];
  std::uint8_t qh[kQkK / 4];
  std::int8_t scales[kQkK / 16];
  std::uint16_t d;
};
struct BlockQ8K {
  float d;
  std::int8_t qs[kQkK];
  std::int16_t bsums[kQkK / 16];  // sum of each 16 consecutive qs
};
#pragma pack(pop)
static_assert(sizeof(BlockQ8_0) == 34 && sizeof(BlockQ4_0) == 18);
static_assert(sizeof(BlockQ4K) == 144 && sizeof(BlockQ5K) == 176 && sizeof(BlockQ6K) == 210);
static_assert(sizeof(BlockQ8K) == 292);

// IEEE half to float, exactly (subnormals included). Written out rather than F16C so that the scalar
// kernels run on any x86-64; the vector kernels use vcvtph2ps.
inline float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & 0x3ffu;
  std::uint32_t bits = 0;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant != 0) {
    exp = 113;
    while ((mant & 0x400u) == 0) {
      mant <<= 1;
      --exp;
    }
    bits = sign | (exp << 23) | ((mant & 0x3ffu) << 13);
  } else {
    bits = sign;
  }
  float f = 0.0f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// The 6-bit scale and min of sub-block j (0..7) of a q4_k / q5_k block (ggml's get_scale_min_k4).
inline void k4_scale_min(int j, const std::uint8_t* q, int& scale, int& min) {
  if (j < 4) {
    scale = q[j] & 63;
    min = q[j + 4] & 63;
  } else {
    scale = (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4);
    min = (q[j + 4] >> 4) | ((q[j] >> 6) << 4);
  }
}

// All eight scales and mins of a block.
struct K4Scales {
  std::uint8_t scale[8];
  std::uint8_t min[8];
};
inline K4Scales k4_scales(const std::uint8_t* q) {
  K4Scales s{};
  for (int j = 0; j < 8; ++j) {
    int sc = 0, m = 0;
    k4_scale_min(j, q, sc, m);
    s.scale[j] = static_cast<std::uint8_t>(sc);
    s.min[j] = static_cast<std::uint8_t>(m);
  }
  return s;
}

// sum_j min_j x (sum of the 32 activations of sub-block j): the term the K formats' mins subtract.
inline int k4_min_term(const K4Scales& s, const std::int16_t* bsums) {
  int sum = 0;
  for (int j = 0; j < 8; ++j) sum += s.min[j] * (bsums[2 * j] + bsums[2 * j + 1]);
  return sum;
}

// One ISA's kernels, one per format (null: that ISA has none for the format), in QuantFormat order.
struct QuantIsaKernels {
  QuantDotFn fn[6];
};
extern const QuantIsaKernels kScalarKernels;      // quant_dot_scalar.cpp (every architecture)
// x86-64 only (arch_x86_64.cpp lists them):
extern const QuantIsaKernels kAvx2Kernels;        // quant_dot_avx2.cpp (-mavx2 -mfma -mf16c)
extern const QuantIsaKernels kAvxVnniKernels;     // quant_dot_avx_vnni.cpp (+ -mavxvnni)
extern const QuantIsaKernels kAvx512Kernels;      // quant_dot_avx512.cpp (-mavx512f/dq/bw/vl)
extern const QuantIsaKernels kAvx512VnniKernels;  // quant_dot_avx512_vnni.cpp (+ -mavx512vnni)
// ARM64 only (arch_arm64.cpp lists them):
extern const QuantIsaKernels kNeonKernels;        // quant_dot_neon.cpp (Advanced SIMD, every ARMv8-A)
extern const QuantIsaKernels kNeonDotKernels;     // quant_dot_neon_dot.cpp (+dotprod: SDOT)

// One ISA's row of the dequant-dot table: its kernels, name, level, register width, the features it needs, whether
// it converts the fp16 scales with F16C, its int8 product's instructions and its int4 (fp32) product's (empty where
// the row has no int4 kernel). The architecture's rows come from arch::quant_isa_rows() (arch.hpp).
struct QuantIsaRow {
  const QuantIsaKernels* kernels;
  std::string_view name;
  Isa isa;
  int bits;
  std::uint32_t required;
  bool f16c;
  std::string_view int8_instruction;
  std::string_view int4_instruction;
};

// The row loop every ISA's kernels share (a QuantIsaKernels entry): y[r - begin] = the dot product of weight row r
// with x, for rows [begin, end). Instantiated in each ISA's file with that file's dot kernel (internal to it), so each
// file compiles its own loop with its own flags.
template <float (*kDot)(const std::uint8_t*, std::int64_t, const std::uint8_t*)>
void dot_rows(const std::uint8_t* w, std::int64_t row_bytes, std::int64_t cols, int, const std::uint8_t* x,
              std::int64_t begin, std::int64_t end, float* y) {
  for (std::int64_t r = begin; r < end; ++r) y[r - begin] = kDot(w + r * row_bytes, cols, x);
}

// The same for int4 (one fp16 scale per `group` weights), whose activations are fp32.
template <float (*kDot)(const std::uint8_t*, std::int64_t, int, const float*)>
void dot_rows_int4(const std::uint8_t* w, std::int64_t row_bytes, std::int64_t cols, int group, const std::uint8_t* x,
                   std::int64_t begin, std::int64_t end, float* y) {
  const auto* xf = reinterpret_cast<const float*>(x);
  for (std::int64_t r = begin; r < end; ++r) y[r - begin] = kDot(w + r * row_bytes, cols, group, xf);
}

}  // namespace roofline::quant
