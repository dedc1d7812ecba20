// AMX tile peak kernels: TDPBF16PS (bf16 pairs -> fp32), TDPBSSD (s8 x s8 -> int32), TDPBUSD (u8 x s8 ->
// int32) and, where the toolchain encodes it (ROOFLINE_HAVE_AMX_FP16), TDPFP16PS, on full 16 x 64-byte tiles.
// Four independent accumulator tiles (tmm0-3) cover the TMUL latency (about 52 cycles against 16 cycles per
// instruction on Sapphire Rapids); A sits in tmm4/tmm5 and B in tmm6/tmm7, the 2 x 2 blocking of a real
// GEMM micro-kernel. Each thread loads its own tile configuration (it is per thread state) and releases it.
// Compiled with -mamx-tile -mamx-bf16 -mamx-int8 and called only when bench/ found AMX usable (advertised,
// enabled in XCR0, permitted by arch_prctl and tried under a SIGILL guard).
//
// The tile instructions are inline assembly with "memory" clobbers rather than GCC 12's <amx*intrin.h>
// macros: those declare no memory operands for tileloadd/tilestored (and 8 bytes for ldtilecfg's 64), so the
// compiler may move or drop the stores and loads around them.
#include <array>
#include <cstdint>

#include "peak_isa.hpp"
#include "roofline/kernels/cpu/amx_tile.hpp"

namespace roofline::peak_isa {
namespace {

// The 64-byte tile configuration (palette 1): every tile 16 rows of 64 bytes.
struct alignas(64) TileConfig {
  std::uint8_t palette_id = 1;
  std::uint8_t start_row = 0;
  std::uint8_t reserved[14] = {};
  std::uint16_t colsb[16] = {};
  std::uint8_t rows[16] = {};
};

using Accumulator = std::array<std::uint32_t, kTileElements>;

#define ROOFLINE_TILE_LOAD(t, p) asm volatile("tileloadd (%0,%1,1), %%tmm" #t :: "r"(p), "r"(stride) : "memory")
#define ROOFLINE_TILE_STORE(t, p) asm volatile("tilestored %%tmm" #t ", (%0,%1,1)" :: "r"(p), "r"(stride) : "memory")
// One trip: one instruction per accumulator, C0 += A4.B6, C1 += A4.B7, C2 += A5.B6, C3 += A5.B7 (AT&T order:
// `op B, A, C`). An extended asm statement (empty operand list), so `%%` reads as one `%`; volatile asm
// statements keep their order, so the trips stay between the loads and the stores.
#define ROOFLINE_TILE_TRIP(op)            \
  op " %%tmm6, %%tmm4, %%tmm0\n\t"        \
  op " %%tmm7, %%tmm4, %%tmm1\n\t"        \
  op " %%tmm6, %%tmm5, %%tmm2\n\t"        \
  op " %%tmm7, %%tmm5, %%tmm3\n\t" ::

// Loads the configuration, the accumulators (chain starts) and the operands, runs `trips`, stores back.
template <class Trips>
void tile_kernel(TileOp op, const PeakInputs& in, double* out, Trips&& trips) {
  static_assert(kChainsTile == 4, "the asm below names four accumulator tiles");
  TileConfig cfg;
  for (int t = 0; t < 8; ++t) {
    cfg.colsb[t] = kTileBytesPerRow;
    cfg.rows[t] = kTileRows;
  }
  const TileBytes a = tile_a_operand(op, in.multiplier);
  const TileBytes b = tile_b_operand(op, in.addend);
  alignas(64) std::array<Accumulator, kChainsTile> acc;
  for (int c = 0; c < kChainsTile; ++c) tile_fill(op, acc[static_cast<std::size_t>(c)], chain_start(in, c));
  const std::int64_t stride = kTileBytesPerRow;
  asm volatile("ldtilecfg %0" ::"m"(cfg) : "memory");
  ROOFLINE_TILE_LOAD(0, acc[0].data());
  ROOFLINE_TILE_LOAD(1, acc[1].data());
  ROOFLINE_TILE_LOAD(2, acc[2].data());
  ROOFLINE_TILE_LOAD(3, acc[3].data());
  ROOFLINE_TILE_LOAD(4, a.bytes.data());
  ROOFLINE_TILE_LOAD(5, a.bytes.data());
  ROOFLINE_TILE_LOAD(6, b.bytes.data());
  ROOFLINE_TILE_LOAD(7, b.bytes.data());
  trips();
  ROOFLINE_TILE_STORE(0, acc[0].data());
  ROOFLINE_TILE_STORE(1, acc[1].data());
  ROOFLINE_TILE_STORE(2, acc[2].data());
  ROOFLINE_TILE_STORE(3, acc[3].data());
  asm volatile("tilerelease" ::: "memory");
  for (int c = 0; c < kChainsTile; ++c) {
    for (int i = 0; i < kTileElements; ++i) out[c * kTileElements + i] = tile_element(op, acc[static_cast<std::size_t>(c)], i);
  }
}


void tile_bf16_amx(std::int64_t n, const PeakInputs& in, double* out) {
  tile_kernel(TileOp::bf16_ps, in, out, [n] {
    for (std::int64_t trip = 0; trip < n; ++trip) asm volatile(ROOFLINE_TILE_TRIP("tdpbf16ps"));
  });
}

void tile_int8_ss_amx(std::int64_t n, const PeakInputs& in, double* out) {
  tile_kernel(TileOp::s8s8, in, out, [n] {
    for (std::int64_t trip = 0; trip < n; ++trip) asm volatile(ROOFLINE_TILE_TRIP("tdpbssd"));
  });
}

void tile_int8_us_amx(std::int64_t n, const PeakInputs& in, double* out) {
  tile_kernel(TileOp::u8s8, in, out, [n] {
    for (std::int64_t trip = 0; trip < n; ++trip) asm volatile(ROOFLINE_TILE_TRIP("tdpbusd"));
  });
}

#ifdef ROOFLINE_HAVE_AMX_FP16
void tile_fp16_amx(std::int64_t n, const PeakInputs& in, double* out) {
  tile_kernel(TileOp::fp16_ps, in, out, [n] {
    for (std::int64_t trip = 0; trip < n; ++trip) asm volatile(ROOFLINE_TILE_TRIP("tdpfp16ps"));
  });
}
#endif

#ifdef ROOFLINE_HAVE_AMX_FP16
constexpr PeakFn kTileFp16 = tile_fp16_amx;
#else
constexpr PeakFn kTileFp16 = nullptr;  // needs -mamx-fp16 (GCC 13): the row is "not supported" (peak_build_gap)
#endif

// Each tile instruction is its own row (no fallback between instructions), at the TMUL's datasheet rate.
constexpr PeakVariant kTileRows[] = {
    peak_row("tile_bf16_amx", PeakOp::tile, Precision::bf16, Isa::amx, 8192, kChainsTile, kNeedsAmxTile | kNeedsAmxBf16, "tdpbf16ps", tile_bf16_amx, kTileFlopPerCycle),
    peak_row("tile_fp16_amx", PeakOp::tile, Precision::fp16, Isa::amx, 8192, kChainsTile, kNeedsAmxTile | kNeedsAmxFp16, "tdpfp16ps", kTileFp16, kTileFlopPerCycle),
    peak_row("tile_int8_ss_amx", PeakOp::tile, Precision::int8, Isa::amx, 8192, kChainsTile, kNeedsAmxTile | kNeedsAmxInt8, "tdpbssd", tile_int8_ss_amx, kTileOpPerCycle),
    peak_row("tile_int8_us_amx", PeakOp::tile, Precision::int8, Isa::amx, 8192, kChainsTile, kNeedsAmxTile | kNeedsAmxInt8, "tdpbusd", tile_int8_us_amx, kTileOpPerCycle),
};
}  // namespace

extern const PeakRows kAmxRows = {kTileRows, std::size(kTileRows)};

}  // namespace roofline::peak_isa
