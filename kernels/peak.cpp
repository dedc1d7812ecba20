// The compute-peak metadata table, dispatch, the OpenMP wrapper and the closed-form validators. The
// kernels themselves live in one translation unit per ISA (peak_*.cpp); this file has baseline flags.
#include "roofline/kernels/peak.hpp"

#include <omp.h>

#include <array>
#include <cmath>
#include <limits>
#include <sstream>

#include "peak_isa.hpp"
#include "roofline/kernels/amx_tile.hpp"

namespace roofline {
namespace {
using namespace peak_isa;
constexpr int L = kChainsLegacy;
constexpr int E = kChainsEvex;
constexpr std::uint32_t kFma = kNeedsFma;
constexpr std::uint32_t kAvx2Fma = kNeedsAvx2 | kNeedsFma;
constexpr std::uint32_t k512 = kNeedsAvx512;
constexpr int T = kChainsTile;
// One tile instruction on full tiles: 16 x 16 elements x 32 multiply-adds (bf16/fp16) or 64 (int8), 2 ops each.
constexpr int kTileFlop = 16 * 16 * 32 * 2;
constexpr int kTileOp = 16 * 16 * 64 * 2;
// The TMUL unit's architectural rate (Intel optimization manual): 1024 bf16/fp16 FLOP or 2048 int8 OP per
// cycle per core, i.e. one full-tile instruction every 16 cycles.
constexpr int kTileFlopPerCycle = 1024;
constexpr int kTileOpPerCycle = 2048;
// AMX-FP16 (Granite Rapids) needs -mamx-fp16 (GCC 13): without it the row is "not supported" (peak_build_gap).
#ifdef ROOFLINE_HAVE_AMX_FP16
constexpr PeakFn kTileFp16 = tile_fp16_amx;
#else
constexpr PeakFn kTileFp16 = nullptr;
#endif

// name, op, precision, isa, bits, chains, instructions/iteration, ops/instruction, required, instruction, fn.
// Within a row (precision, isa, bits) the best variant comes first. ops/instruction by the counting
// conventions: FMA 2 FLOP/lane, mul or add 1 FLOP/lane, vdpbf16ps 4 FLOP per 32-bit lane, vpdpbusd 8 OP
// per 32-bit lane.
// The row count follows from the table (no count kept by hand).
const PeakVariant kVariants[] = {
    {"fma_fp64_scalar", PeakOp::fma, Precision::fp64, Isa::scalar, 64, L, L, 2, kFma, "vfmadd213sd", fma_fp64_scalar},
    {"muladd_fp64_scalar", PeakOp::muladd, Precision::fp64, Isa::scalar, 64, L, 2 * L, 1, 0, "mulsd+addsd", muladd_fp64_scalar},
    {"fma_fp64_sse", PeakOp::fma, Precision::fp64, Isa::sse, 128, L, L, 4, kFma, "vfmadd213pd xmm", fma_fp64_sse},
    {"muladd_fp64_sse", PeakOp::muladd, Precision::fp64, Isa::sse, 128, L, 2 * L, 2, 0, "mulpd+addpd", muladd_fp64_sse},
    {"fma_fp64_avx2", PeakOp::fma, Precision::fp64, Isa::avx2, 256, L, L, 8, kAvx2Fma, "vfmadd213pd ymm", fma_fp64_avx2},
    {"fma_fp64_avx512", PeakOp::fma, Precision::fp64, Isa::avx512, 512, E, E, 16, k512, "vfmadd213pd zmm", fma_fp64_avx512},

    {"fma_fp32_scalar", PeakOp::fma, Precision::fp32, Isa::scalar, 32, L, L, 2, kFma, "vfmadd213ss", fma_fp32_scalar},
    {"muladd_fp32_scalar", PeakOp::muladd, Precision::fp32, Isa::scalar, 32, L, 2 * L, 1, 0, "mulss+addss", muladd_fp32_scalar},
    {"fma_fp32_sse", PeakOp::fma, Precision::fp32, Isa::sse, 128, L, L, 8, kFma, "vfmadd213ps xmm", fma_fp32_sse},
    {"muladd_fp32_sse", PeakOp::muladd, Precision::fp32, Isa::sse, 128, L, 2 * L, 4, 0, "mulps+addps", muladd_fp32_sse},
    {"fma_fp32_avx2", PeakOp::fma, Precision::fp32, Isa::avx2, 256, L, L, 16, kAvx2Fma, "vfmadd213ps ymm", fma_fp32_avx2},
    {"fma_fp32_avx512", PeakOp::fma, Precision::fp32, Isa::avx512, 512, E, E, 32, k512, "vfmadd213ps zmm", fma_fp32_avx512},

    {"dot_bf16_avx512_128", PeakOp::dot, Precision::bf16, Isa::avx512, 128, E, E, 16, k512 | kNeedsAvx512Bf16, "vdpbf16ps xmm", dot_bf16_avx512_128},
    {"dot_bf16_avx512_256", PeakOp::dot, Precision::bf16, Isa::avx512, 256, E, E, 32, k512 | kNeedsAvx512Bf16, "vdpbf16ps ymm", dot_bf16_avx512_256},
    {"dot_bf16_avx512_512", PeakOp::dot, Precision::bf16, Isa::avx512, 512, E, E, 64, k512 | kNeedsAvx512Bf16, "vdpbf16ps zmm", dot_bf16_avx512_512},

    {"fma_fp16_avx512_128", PeakOp::fma, Precision::fp16, Isa::avx512, 128, E, E, 16, k512 | kNeedsAvx512Fp16, "vfmadd213ph xmm", fma_fp16_avx512_128},
    {"fma_fp16_avx512_256", PeakOp::fma, Precision::fp16, Isa::avx512, 256, E, E, 32, k512 | kNeedsAvx512Fp16, "vfmadd213ph ymm", fma_fp16_avx512_256},
    {"fma_fp16_avx512_512", PeakOp::fma, Precision::fp16, Isa::avx512, 512, E, E, 64, k512 | kNeedsAvx512Fp16, "vfmadd213ph zmm", fma_fp16_avx512_512},

    {"dot_int8_avx_vnni_128", PeakOp::dot, Precision::int8, Isa::avx_vnni, 128, L, L, 32, kNeedsAvxVnni, "{vex} vpdpbusd xmm", dot_int8_avx_vnni_128},
    {"dot_int8_avx_vnni_256", PeakOp::dot, Precision::int8, Isa::avx_vnni, 256, L, L, 64, kNeedsAvxVnni, "{vex} vpdpbusd ymm", dot_int8_avx_vnni_256},
    {"dot_int8_avx512_128", PeakOp::dot, Precision::int8, Isa::avx512, 128, E, E, 32, k512 | kNeedsAvx512Vnni, "vpdpbusd xmm", dot_int8_avx512_128},
    {"dot_int8_avx512_256", PeakOp::dot, Precision::int8, Isa::avx512, 256, E, E, 64, k512 | kNeedsAvx512Vnni, "vpdpbusd ymm", dot_int8_avx512_256},
    {"dot_int8_avx512_512", PeakOp::dot, Precision::int8, Isa::avx512, 512, E, E, 128, k512 | kNeedsAvx512Vnni, "vpdpbusd zmm", dot_int8_avx512_512},

    // Matrix engine: each tile variant is its own row (no fallback between instructions).
    {"tile_bf16_amx", PeakOp::tile, Precision::bf16, Isa::amx, 8192, T, T, kTileFlop, kNeedsAmxTile | kNeedsAmxBf16, "tdpbf16ps", tile_bf16_amx, kTileFlopPerCycle},
    {"tile_fp16_amx", PeakOp::tile, Precision::fp16, Isa::amx, 8192, T, T, kTileFlop, kNeedsAmxTile | kNeedsAmxFp16, "tdpfp16ps", kTileFp16, kTileFlopPerCycle},
    {"tile_int8_ss_amx", PeakOp::tile, Precision::int8, Isa::amx, 8192, T, T, kTileOp, kNeedsAmxTile | kNeedsAmxInt8, "tdpbssd", tile_int8_ss_amx, kTileOpPerCycle},
    {"tile_int8_us_amx", PeakOp::tile, Precision::int8, Isa::amx, 8192, T, T, kTileOp, kNeedsAmxTile | kNeedsAmxInt8, "tdpbusd", tile_int8_us_amx, kTileOpPerCycle},
};

bool same_row(const PeakVariant& a, const PeakVariant& b) {
  if (a.op == PeakOp::tile || b.op == PeakOp::tile) return a.name == b.name;  // TDPBSSD and TDPBUSD both run
  return a.precision == b.precision && a.isa == b.isa && a.vector_bits == b.vector_bits;
}
}  // namespace

std::string_view to_string(PeakOp op) {
  switch (op) {
    case PeakOp::fma: return "fma";
    case PeakOp::muladd: return "muladd";
    case PeakOp::dot: return "dot";
    case PeakOp::tile: return "tile";
  }
  return "unknown";
}

int PeakVariant::lanes() const {
  // Tiles accumulate fp16 products in fp32 elements; vector fp16 FMA keeps 16-bit lanes.
  const int lane_bits = precision == Precision::fp64 ? 64 : (precision == Precision::fp16 && op != PeakOp::tile) ? 16 : 32;
  return vector_bits / lane_bits;
}

std::string_view PeakVariant::unit() const { return is_integer(precision) ? "OP/s" : "FLOP/s"; }

std::span<const PeakVariant> peak_variants() { return kVariants; }

bool peak_runnable(const PeakVariant& v, const IsaFeatures& f) {
  if (v.fn == nullptr) return false;
  if (!f.supports(v.isa)) return false;
  if ((v.required & kNeedsFma) && !(f.fma && f.avx)) return false;
  if ((v.required & kNeedsAvx2) && !(f.avx2 && f.supports(Isa::avx2))) return false;
  if ((v.required & kNeedsAvx512) && !f.supports(Isa::avx512)) return false;
  if ((v.required & kNeedsAvx512Bf16) && !f.avx512_bf16) return false;
  if ((v.required & kNeedsAvx512Fp16) && !f.avx512_fp16) return false;
  if ((v.required & kNeedsAvx512Vnni) && !f.avx512_vnni) return false;
  if ((v.required & kNeedsAvxVnni) && !f.supports(Isa::avx_vnni)) return false;
  if ((v.required & kNeedsAmxTile) && !f.supports(Isa::amx)) return false;
  if ((v.required & kNeedsAmxBf16) && !f.amx_bf16) return false;
  if ((v.required & kNeedsAmxInt8) && !f.amx_int8) return false;
  if ((v.required & kNeedsAmxFp16) && !f.amx_fp16) return false;
  return true;
}

std::optional<std::string> peak_build_gap(const PeakVariant& v) {
  if (v.fn != nullptr) return std::nullopt;
  if (v.required & kNeedsAmxFp16) return "toolchain lacks AMX-FP16 (needs -mamx-fp16: GCC 13 or later)";
  return "this build lacks the kernel";
}

PeakSelection select_peak_variants(const IsaFeatures& features) {
  PeakSelection s;
  for (std::size_t i = 0; i < std::size(kVariants); ++i) {
    const PeakVariant& v = kVariants[i];
    if (i > 0 && same_row(v, kVariants[i - 1])) continue;  // rows are contiguous; handle each once
    const PeakVariant* chosen = nullptr;
    for (std::size_t j = i; j < std::size(kVariants) && same_row(kVariants[j], v); ++j) {
      if (peak_runnable(kVariants[j], features)) {
        chosen = &kVariants[j];
        break;
      }
    }
    if (chosen != nullptr) {
      s.runnable.push_back(chosen);
    } else {
      s.not_supported.push_back(&v);
    }
  }
  return s;
}

PeakInputs default_peak_inputs(const PeakVariant& v) {
  // Powers of two and small integers: exact in every precision used, far from denormals and overflow.
  if (v.op == PeakOp::tile) {
    // fp32 accumulators: bf16 x + N * 32 * 2^-20 stays below 16 (spacing 2^-20) for N <= 2^16; fp16 uses
    // 2^-14, its smallest normal (TDPFP16PS may flush denormal inputs), and stays below 256 (spacing 2^-15).
    if (v.precision == Precision::fp16) return {1.0, std::ldexp(1.0, -14), 1.0, std::ldexp(1.0, -8)};
    if (!is_integer(v.precision)) return {1.0, std::ldexp(1.0, -20), 1.0, std::ldexp(1.0, -8)};
    return {2.0, 3.0, 0.0, 1000.0};  // x + 192 N
  }
  switch (v.precision) {
    case Precision::fp64:
    case Precision::fp32: return {1.0, std::ldexp(1.0, -20), 1.0, std::ldexp(1.0, -8)};  // x + N * 2^-20
    case Precision::bf16: return {1.0, std::ldexp(1.0, -20), 1.0, std::ldexp(1.0, -8)};  // x + N * 2^-19
    case Precision::fp16: return {-1.0, 3.0, 1.0, std::ldexp(1.0, -5)};  // x, 3 - x, x, ... (period 2)
    case Precision::int8: return {2.0, 3.0, 0.0, 1000.0};               // x + 12 N
  }
  return {};
}

std::int64_t max_peak_iterations(const PeakVariant& v) {
  // Tiles: 2^16 trips of 4 instructions at 16 cycles keep a call near 4M cycles (a few ms, like the vector
  // kernels' calls), and the accumulators exact (fp32 below 16, int32 below 2^24).
  if (v.op == PeakOp::tile) return std::int64_t{1} << 16;
  switch (v.precision) {
    case Precision::fp64:
    case Precision::fp32: return std::int64_t{1} << 23;  // acc stays below 16: fp32 spacing there is 2^-20
    case Precision::bf16: return std::int64_t{1} << 22;  // acc stays below 16 (two 2^-20 adds per trip)
    case Precision::fp16: return std::numeric_limits<std::int64_t>::max();  // bounded by construction
    case Precision::int8: return std::int64_t{1} << 27;  // 12 * 2^27 + 19000 fits int32
  }
  return 0;
}

void run_peak(const PeakVariant& v, int threads, std::int64_t iterations, const PeakInputs& in, double* out) {
  const int per_thread = v.accumulators();
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    v.fn(iterations, in, out + static_cast<std::ptrdiff_t>(t) * per_thread);
  }
}

double peak_expected(const PeakVariant& v, std::int64_t iterations, const PeakInputs& in, int chain) {
  const double x0 = in.start + chain * in.chain_step;
  const auto n = static_cast<double>(iterations);
  if (v.op == PeakOp::dot) return x0 + n * 2.0 * in.multiplier * in.addend;
  if (v.op == PeakOp::tile) return x0 + n * 2.0 * kTileGroups * in.multiplier * in.addend;  // 32 m a per trip
  // x_N = m^N x0 + a (1 + m + ... + m^(N-1))
  const double m = in.multiplier;
  if (m == 1.0) return x0 + n * in.addend;
  if (m == -1.0) return iterations % 2 == 0 ? x0 : in.addend - x0;
  const double mn = std::pow(m, n);
  return mn * x0 + in.addend * (1.0 - mn) / (1.0 - m);
}

std::optional<std::string> validate_peak(const PeakVariant& v, std::int64_t iterations, const PeakInputs& in,
                                         int threads, const double* out) {
  const int lanes = v.lanes();
  for (int t = 0; t < threads; ++t) {
    for (int c = 0; c < v.chains; ++c) {
      const double expected = peak_expected(v, iterations, in, c);
      for (int l = 0; l < lanes; ++l) {
        const double got = out[(static_cast<std::ptrdiff_t>(t) * v.chains + c) * lanes + l];
        if (got != expected) {  // exact: every value on the way is representable (default_peak_inputs)
          std::ostringstream msg;
          msg.precision(17);
          msg << v.name << ": thread " << t << " chain " << c << " lane " << l << " holds " << got
              << ", expected " << expected << " after " << iterations << " iterations";
          return msg.str();
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace roofline
