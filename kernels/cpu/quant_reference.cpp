// The independent check of the dequant-dot kernels: both operands dequantized to double by ggml's
// dequantize_row_* formulas (weight = scale x quant (- min), activation = d x q), then one double sum. It
// shares no code with the kernels' integer paths but the block structs and the two scalar decoders of
// quant_blocks.hpp (fp16, the 6-bit scales), which the tests pin on hand-made blocks.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "quant_blocks.hpp"

namespace roofline {
namespace {
using namespace quant;

// Row `row`'s weights, dequantized.
std::vector<double> weights_of(const QuantMatrix& m, std::int64_t row) {
  std::vector<double> out(static_cast<std::size_t>(m.cols));
  const std::uint8_t* p = m.bytes.data() + row * m.row_bytes();
  double* y = out.data();
  switch (m.format) {
    case QuantFormat::q8_0:
      for (std::int64_t b = 0; b < m.cols / kQk0; ++b, y += kQk0) {
        const auto& blk = reinterpret_cast<const BlockQ8_0*>(p)[b];
        for (int j = 0; j < kQk0; ++j) y[j] = half_to_float(blk.d) * blk.qs[j];
      }
      break;
    case QuantFormat::q4_0:
      for (std::int64_t b = 0; b < m.cols / kQk0; ++b, y += kQk0) {
        const auto& blk = reinterpret_cast<const BlockQ4_0*>(p)[b];
        for (int j = 0; j < kQk0 / 2; ++j) {
          y[j] = half_to_float(blk.d) * ((blk.qs[j] & 0xF) - 8);
          y[j + kQk0 / 2] = half_to_float(blk.d) * ((blk.qs[j] >> 4) - 8);
        }
      }
      break;
    case QuantFormat::q4_k:
    case QuantFormat::q5_k: {
      const bool five = m.format == QuantFormat::q5_k;
      for (std::int64_t b = 0; b < m.cols / kQkK; ++b, y += kQkK) {
        const std::uint8_t* base = p + b * quant_block_bytes(m.format);
        std::uint16_t d = 0, dmin = 0;
        std::memcpy(&d, base, 2);
        std::memcpy(&dmin, base + 2, 2);
        const std::uint8_t* scales = base + 4;
        const std::uint8_t* qh = five ? base + 16 : nullptr;
        const std::uint8_t* qs = base + (five ? 48 : 16);
        // dequantize_row_q4_K / q5_K: 64 weights per step, a scale and min for each 32.
        for (int c = 0; c < 4; ++c) {
          int sc1 = 0, m1 = 0, sc2 = 0, m2 = 0;
          k4_scale_min(2 * c, scales, sc1, m1);
          k4_scale_min(2 * c + 1, scales, sc2, m2);
          for (int l = 0; l < 32; ++l) {
            const int lo = (qs[32 * c + l] & 0xF) + (five && (qh[l] & (1 << (2 * c))) ? 16 : 0);
            const int hi = (qs[32 * c + l] >> 4) + (five && (qh[l] & (2 << (2 * c))) ? 16 : 0);
            y[64 * c + l] = half_to_float(d) * sc1 * lo - half_to_float(dmin) * m1;
            y[64 * c + 32 + l] = half_to_float(d) * sc2 * hi - half_to_float(dmin) * m2;
          }
        }
      }
      break;
    }
    case QuantFormat::q6_k:
      for (std::int64_t b = 0; b < m.cols / kQkK; ++b) {
        const auto& blk = reinterpret_cast<const BlockQ6K*>(p)[b];
        const double d = half_to_float(blk.d);
        // dequantize_row_q6_K: two halves of 128, four weights per l.
        for (int n = 0; n < 2; ++n) {
          const std::uint8_t* ql = blk.ql + 64 * n;
          const std::uint8_t* qh = blk.qh + 32 * n;
          const std::int8_t* sc = blk.scales + 8 * n;
          double* yy = y + 256 * b + 128 * n;
          for (int l = 0; l < 32; ++l) {
            const int is = l / 16;
            yy[l] = d * sc[is] * (((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32);
            yy[l + 32] = d * sc[is + 2] * (((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32);
            yy[l + 64] = d * sc[is + 4] * (((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32);
            yy[l + 96] = d * sc[is + 6] * (((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32);
          }
        }
      }
      break;
    case QuantFormat::int4: {
      const int g = m.group;
      for (std::int64_t b = 0; b < m.cols / g; ++b, y += g) {
        const std::uint8_t* blk = p + b * (2 + g / 2);
        std::uint16_t d = 0;
        std::memcpy(&d, blk, 2);
        for (int j = 0; j < g / 2; ++j) {
          y[j] = half_to_float(d) * ((blk[2 + j] & 0xF) - 8);
          y[j + g / 2] = half_to_float(d) * ((blk[2 + j] >> 4) - 8);
        }
      }
      break;
    }
  }
  return out;
}

std::vector<double> activations_of(const QuantVector& x) {
  std::vector<double> out(static_cast<std::size_t>(x.cols));
  const std::string_view kind = quant_activations(x.format);
  if (kind == "fp32") {
    const auto* f = reinterpret_cast<const float*>(x.bytes.data());
    for (std::int64_t i = 0; i < x.cols; ++i) out[static_cast<std::size_t>(i)] = f[i];
  } else if (kind == "q8_0") {
    const auto* b = reinterpret_cast<const BlockQ8_0*>(x.bytes.data());
    for (std::int64_t i = 0; i < x.cols; ++i) out[static_cast<std::size_t>(i)] = half_to_float(b[i / kQk0].d) * b[i / kQk0].qs[i % kQk0];
  } else {
    const auto* b = reinterpret_cast<const BlockQ8K*>(x.bytes.data());
    for (std::int64_t i = 0; i < x.cols; ++i) out[static_cast<std::size_t>(i)] = static_cast<double>(b[i / kQkK].d) * b[i / kQkK].qs[i % kQkK];
  }
  return out;
}

}  // namespace

double quant_dot_reference(const QuantMatrix& w, const QuantVector& x, std::int64_t row, double* magnitude) {
  const std::vector<double> a = weights_of(w, row);
  const std::vector<double> b = activations_of(x);
  double sum = 0.0, abs_sum = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    sum += a[i] * b[i];
    abs_sum += std::abs(a[i] * b[i]);
  }
  if (magnitude != nullptr) *magnitude = abs_sum;
  return sum;
}

std::optional<std::string> validate_quant_gemv(const QuantMatrix& w, const QuantVector* x, int batch, const float* y,
                                               std::int64_t row_stride) {
  const std::int64_t stride = std::max<std::int64_t>(1, row_stride);
  for (int c = 0; c < batch; ++c) {
    const std::vector<double> b = activations_of(x[c]);
    for (std::int64_t r = 0; r < w.rows; r = (r + stride < w.rows || r == w.rows - 1) ? r + stride : w.rows - 1) {
      const std::vector<double> a = weights_of(w, r);
      double sum = 0.0, abs_sum = 0.0;
      for (std::size_t i = 0; i < a.size(); ++i) {
        sum += a[i] * b[i];
        abs_sum += std::abs(a[i] * b[i]);
      }
      const double got = y[static_cast<std::int64_t>(c) * w.rows + r];
      if (!(std::abs(got - sum) <= 1e-4 * abs_sum + 1e-6)) {
        return fmt::format("{} dot of row {} column {}: {} where the dequantized reference gives {} (tolerance {:.3g})",
                           to_string(w.format), r, c, got, sum, 1e-4 * abs_sum + 1e-6);
      }
    }
  }
  return std::nullopt;
}

}  // namespace roofline
