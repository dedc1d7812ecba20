// AMX tile operands and a scalar replay of the tile dot-product instructions (TDPBF16PS, TDPFP16PS, TDPBSSD,
// TDPBUSD) on full tiles (16 rows x 64 bytes). The peak kernels (peak_amx.cpp) load the operands built here;
// the replay follows the Intel SDM pseudo-code so that the expected accumulators and the validator can be
// tested on machines without AMX, where no tile instruction can run.
#pragma once

#include <array>
#include <cstdint>

namespace roofline {

// The four tile dot products: bf16 pairs and fp16 pairs into fp32, s8 x s8 and u8 x s8 quads into int32.
enum class TileOp { bf16_ps, fp16_ps, s8s8, u8s8 };

inline constexpr int kTileRows = 16;
inline constexpr int kTileBytesPerRow = 64;
inline constexpr int kTileElements = kTileRows * kTileBytesPerRow / 4;  // 32-bit accumulator elements: 256
// Products one instruction adds to each accumulator element on full tiles: K = 16 groups of 2 (bf16, fp16)
// or 4 (int8) along a 64-byte row.
inline constexpr int kTileGroups = kTileBytesPerRow / 4;

// One tile register's bytes, row-major (row r at bytes[64 r]).
struct TileBytes {
  alignas(64) std::array<std::uint8_t, kTileRows * kTileBytesPerRow> bytes{};
};

// The A operand of the peak kernels: every element holds m (bf16/fp16 pairs (m, m); int8 bytes (m, m, m, m),
// m a small integer that fits the operand's type).
TileBytes tile_a_operand(TileOp op, double m);
// The B operand: every bf16/fp16 element holds a; int8 groups hold the s8 bytes (a, a, a, -a). Each
// accumulator element then gains 32 m a per instruction for every op.
TileBytes tile_b_operand(TileOp op, double a);

// Scalar replay of one instruction: c (256 elements, row-major 16 x 16, fp32 or int32 bit patterns as the
// op accumulates) += A . B, with B in the VNNI layout the instructions read (row k holds the K-group k of
// every column). Products are accumulated one at a time in fp32 (the SDM's order); denormal flushing is
// not modelled (the peak inputs are far from denormals).
void tile_dot_reference(TileOp op, std::array<std::uint32_t, kTileElements>& c, const TileBytes& a, const TileBytes& b);

// Accumulator element i of c as a double (fp32 or int32 by op).
double tile_element(TileOp op, const std::array<std::uint32_t, kTileElements>& c, int i);
// Fills every element of c with x (as fp32 or int32 by op).
void tile_fill(TileOp op, std::array<std::uint32_t, kTileElements>& c, double x);

}  // namespace roofline
