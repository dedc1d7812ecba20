// Tile operands and the scalar replay of the AMX dot products: see amx_tile.hpp. Baseline x86-64 flags:
// this file runs everywhere, it is what the tests use where AMX does not exist.
#include "roofline/kernels/cpu/amx_tile.hpp"

#include <bit>
#include <cstring>

namespace roofline {
namespace {

bool is_float(TileOp op) { return op == TileOp::bf16_ps || op == TileOp::fp16_ps; }

// The 16-bit pattern of x in bf16 (x exact in bf16: the upper half of its fp32 bits) or fp16.
std::uint16_t half_bits(TileOp op, double x) {
  if (op == TileOp::bf16_ps) return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(static_cast<float>(x)) >> 16);
  return std::bit_cast<std::uint16_t>(static_cast<_Float16>(x));
}

float half_value(TileOp op, std::uint16_t bits) {
  if (op == TileOp::bf16_ps) return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
  return static_cast<float>(std::bit_cast<_Float16>(bits));
}

// Integer to byte by two's complement (a negative double cannot be converted to an unsigned type directly).
std::uint8_t byte_of(double x) { return static_cast<std::uint8_t>(static_cast<std::int8_t>(static_cast<int>(x))); }

TileBytes filled(TileOp op, double x, bool negate_fourth) {
  TileBytes t;
  if (is_float(op)) {
    const std::uint16_t h = half_bits(op, x);
    for (std::size_t i = 0; i < t.bytes.size(); i += 2) std::memcpy(&t.bytes[i], &h, 2);
  } else {
    for (std::size_t i = 0; i < t.bytes.size(); ++i) t.bytes[i] = byte_of(negate_fourth && i % 4 == 3 ? -x : x);
  }
  return t;
}

std::uint16_t half_at(const TileBytes& t, int row, int element) {
  std::uint16_t h = 0;
  std::memcpy(&h, &t.bytes[static_cast<std::size_t>(row * kTileBytesPerRow + 2 * element)], 2);
  return h;
}

int byte_at(const TileBytes& t, int row, int index, bool is_signed) {
  const std::uint8_t b = t.bytes[static_cast<std::size_t>(row * kTileBytesPerRow + index)];
  return is_signed ? static_cast<int>(static_cast<std::int8_t>(b)) : static_cast<int>(b);
}

}  // namespace

TileBytes tile_a_operand(TileOp op, double m) { return filled(op, m, false); }
TileBytes tile_b_operand(TileOp op, double a) { return filled(op, a, true); }

void tile_dot_reference(TileOp op, std::array<std::uint32_t, kTileElements>& c, const TileBytes& a, const TileBytes& b) {
  // SDM: for m < rows, k < colsb(A) / 4, n < colsb(C) / 4: C[m][n] += sum over the group of A[m][k.i] * B[k][n.i].
  for (int m = 0; m < kTileRows; ++m) {
    for (int n = 0; n < kTileGroups; ++n) {
      std::uint32_t& word = c[static_cast<std::size_t>(m * kTileGroups + n)];
      if (is_float(op)) {
        float acc = std::bit_cast<float>(word);
        for (int k = 0; k < kTileGroups; ++k) {
          for (int i = 0; i < 2; ++i) acc += half_value(op, half_at(a, m, 2 * k + i)) * half_value(op, half_at(b, k, 2 * n + i));
        }
        word = std::bit_cast<std::uint32_t>(acc);
      } else {
        // 32-bit wrap-around, as the instruction does (computed in 64 bits to keep C++ free of overflow).
        std::int64_t acc = static_cast<std::int32_t>(word);
        for (int k = 0; k < kTileGroups; ++k) {
          for (int i = 0; i < 4; ++i) {
            acc += static_cast<std::int64_t>(byte_at(a, m, 4 * k + i, op == TileOp::s8s8)) * byte_at(b, k, 4 * n + i, true);
          }
        }
        word = static_cast<std::uint32_t>(acc);
      }
    }
  }
}

double tile_element(TileOp op, const std::array<std::uint32_t, kTileElements>& c, int i) {
  const std::uint32_t w = c[static_cast<std::size_t>(i)];
  return is_float(op) ? static_cast<double>(std::bit_cast<float>(w)) : static_cast<double>(static_cast<std::int32_t>(w));
}

void tile_fill(TileOp op, std::array<std::uint32_t, kTileElements>& c, double x) {
  const std::uint32_t w = is_float(op) ? std::bit_cast<std::uint32_t>(static_cast<float>(x))
                                       : static_cast<std::uint32_t>(static_cast<std::int32_t>(x));
  c.fill(w);
}

}  // namespace roofline
