// Compute-peak kernels: chains of independent FMA / dot-product instructions per precision and vector
// width, each in the translation unit of its ISA (compiled with that ISA's flags, chosen at run time),
// plus the measured-clock kernel. One metadata table (peak_variants) says per variant what it counts;
// rates are derived from that table only. Every kernel has a closed-form validator.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/common/vocabulary.hpp"

namespace roofline {

// What one instruction of a peak kernel does.
enum class PeakOp {
  fma,     // acc = acc * m + a, one fused instruction: 2 FLOP per lane
  muladd,  // acc = acc * m, then acc = acc + a: two instructions of 1 FLOP per lane (no FMA unit/flag)
  dot,     // vdpbf16ps (2 multiply-adds per 32-bit lane) / vpdpbusd (4 multiply-adds per 32-bit lane)
  tile,    // AMX tdpbf16ps / tdpfp16ps / tdpbssd / tdpbusd on full 16x64-byte tiles: every 32-bit element of
           // the 16x16 accumulator tile adds 32 (bf16, fp16) or 64 (int8) products per instruction
  mmla     // ARM64 SMMLA / BFMMLA on 128-bit registers: a 2x2 block of 32-bit accumulators adds the product of a
           // 2x8 by an 8x2 int8 (2x4 by 4x2 bf16) matrix, 8 (4) multiply-adds per lane; vector pipes, not a tile
};
std::string_view to_string(PeakOp op);

// CPU features a variant needs besides its ISA level (a bit set over IsaFeatures' flags).
enum PeakFeature : std::uint32_t {
  kNeedsFma = 1u << 0,         // fma (and avx, which VEX encoding implies)
  kNeedsAvx2 = 1u << 1,
  kNeedsAvx512 = 1u << 2,      // avx512 f+dq+bw+vl
  kNeedsAvx512Bf16 = 1u << 3,
  kNeedsAvx512Fp16 = 1u << 4,
  kNeedsAvx512Vnni = 1u << 5,
  kNeedsAvxVnni = 1u << 6,
  kNeedsAmxTile = 1u << 7,     // amx_tile as bench/ reports it: advertised, enabled by the OS, permitted, tried
  kNeedsAmxBf16 = 1u << 8,
  kNeedsAmxInt8 = 1u << 9,
  kNeedsAmxFp16 = 1u << 10,
  kNeedsNeonDotprod = 1u << 11,  // ARM64: SDOT/UDOT on NEON (HWCAP asimddp)
  kNeedsNeonFp16 = 1u << 12,     // ARM64: half-precision arithmetic on NEON, FMLA .8h (HWCAP asimdhp)
  kNeedsNeonI8mm = 1u << 13,     // ARM64: int8 matrix multiply on NEON, SMMLA (HWCAP2 i8mm)
  kNeedsNeonBf16 = 1u << 14,     // ARM64: bf16 on NEON, BFDOT and BFMMLA (HWCAP2 bf16)
};

// Inputs of one run, given at run time so the compiler cannot fold the chains. Chain c of every
// thread starts at start + c * chain_step (all lanes alike).
//   fma/muladd: acc = acc * multiplier + addend
//   dot:        acc += multiplier * addend + multiplier * addend per step and lane
//               (bf16: the lane's 2 products are (m, m) . (a, a); int8: its 4 products are the u8 bytes
//               (m, m, m, m) . the s8 bytes (a, a, a, -a)).
//   tile:       acc += 32 * multiplier * addend per step and element: A holds m everywhere, B holds a in
//               every bf16/fp16 element (16 K-pairs: 32 products), or the bytes (a, a, a, -a) in every
//               32-bit group (16 K-quads: 64 products, net 32 m a). See amx_tile.hpp.
//   mmla:       acc += 4 * multiplier * addend per step and lane: a row of 4 bf16 m by a column of 4 bf16 a, or
//               a row of 8 bytes m by a column of the bytes (a, a, a, -a, a, a, a, -a).
struct PeakInputs {
  double multiplier = 1.0;
  double addend = 0.0;
  double start = 1.0;
  double chain_step = 0.0;
};

// One thread's kernel: `iterations` loop trips over all chains from the inputs' initial values; writes
// the final accumulators (chains x lanes, chain-major) converted to double into `out`.
using PeakFn = void (*)(std::int64_t iterations, const PeakInputs& in, double* out);

// The counting conventions, in one place: accumulator lanes per register (32/64-bit; fp16 FMA keeps
// 16-bit lanes; a tile: 16 x 16 32-bit elements) and FLOP (OP) per lane and instruction: FMA 2, mul or add
// 1, vdpbf16ps/BFDOT 4 (2 multiply-adds), vpdpbusd/SDOT 8 (4), a bf16/fp16 tile 64 (32), an int8 tile 128 (64),
// BFMMLA 8 (4), SMMLA 16 (8).
constexpr int peak_lanes(PeakOp op, Precision precision, int vector_bits) {
  const int lane_bits = precision == Precision::fp64 ? 64 : (precision == Precision::fp16 && op != PeakOp::tile) ? 16 : 32;
  return vector_bits / lane_bits;
}
constexpr int peak_ops_per_lane(PeakOp op, Precision precision) {
  switch (op) {
    case PeakOp::fma: return 2;
    case PeakOp::muladd: return 1;
    case PeakOp::dot: return precision == Precision::bf16 ? 4 : 8;
    case PeakOp::tile: return is_integer(precision) ? 128 : 64;
    case PeakOp::mmla: return is_integer(precision) ? 16 : 8;
  }
  return 0;
}
struct PeakVariant {
  std::string_view name;         // unique, e.g. "fma_fp64_avx512_512"
  PeakOp op;
  Precision precision;
  Isa isa;                       // the --max-isa level that allows it
  int vector_bits;               // register width the instructions use (scalar: the element's bits; a tile: 8192)
  int chains;                    // independent accumulators (registers)
  int instructions_per_iteration;
  int ops_per_instruction;       // FLOP (or OP for int8) per instruction, by the counting conventions
  std::uint32_t required;        // PeakFeature bits
  std::string_view instruction;  // the hot instruction(s), for people
  PeakFn fn;                     // null when this build's toolchain cannot encode the instruction
  // Architectural FLOP (OP) per cycle per core when a datasheet fixes it (AMX TMUL: 1024 bf16/fp16 FLOP,
  // 2048 int8 OP); 0: derived from the measured instruction throughput.
  int ops_per_cycle_per_core = 0;
  // SVE: the register is the CPU's vector length, known at run time. peak_variants() sets vector_bits (and
  // ops_per_instruction) to it on a CPU with SVE; the file's constant row says 128, SVE's shortest.
  bool scalable = false;

  // 32/64-bit accumulator lanes per register (a tile: 16 x 16 32-bit elements = 256).
  [[nodiscard]] int lanes() const { return peak_lanes(op, precision, vector_bits); }
  // vector for every ISA level but amx, whose tiles are the matrix engine.
  [[nodiscard]] Engine engine() const { return engine_of(isa); }
  // Accumulator values one thread writes (chains x lanes).
  [[nodiscard]] int accumulators() const { return chains * lanes(); }
  // FLOP (OP) of one loop trip of one thread.
  [[nodiscard]] double ops_per_iteration() const {
    return static_cast<double>(instructions_per_iteration) * ops_per_instruction;
  }
  // "FLOP/s" or "OP/s".
  [[nodiscard]] std::string_view unit() const;
  // The benchmark label "fma", "muladd", "dot", "tile" or "mmla".
  [[nodiscard]] std::string_view kernel() const { return to_string(op); }
};

// Every variant, best first within each row (precision, isa, vector_bits): dispatch takes the first
// runnable one of a row.
std::span<const PeakVariant> peak_variants();

// Whether this variant can run with these (already capped) features.
bool peak_runnable(const PeakVariant& v, const IsaFeatures& features);
// Why this build cannot run the variant whatever the CPU (its toolchain lacks the instruction), or nothing.
std::optional<std::string> peak_build_gap(const PeakVariant& v);

// What dispatch picked: one variant per row that can run, and for each row that cannot, its preferred
// variant (so the report can say "not supported" for that precision x isa x width).
struct PeakSelection {
  std::vector<const PeakVariant*> runnable;
  std::vector<const PeakVariant*> not_supported;
};
PeakSelection select_peak_variants(const IsaFeatures& features);

// The inputs each variant runs with: exact in its precision, never denormal, infinite or NaN.
PeakInputs default_peak_inputs(const PeakVariant& v);
// The most iterations for which the closed form stays exact with these inputs.
std::int64_t max_peak_iterations(const PeakVariant& v);

// Runs `v` on `threads` OpenMP threads (the caller pins them); thread t writes its accumulators to
// out[t * v.accumulators() ...]. `out` holds threads * v.accumulators() values.
void run_peak(const PeakVariant& v, int threads, std::int64_t iterations, const PeakInputs& in, double* out);

// The value chain `chain` must hold after `iterations` trips (closed form, exact by construction).
double peak_expected(const PeakVariant& v, std::int64_t iterations, const PeakInputs& in, int chain);
// Checks every accumulator of every thread against the closed form (exact equality: all values are
// representable). Returns an error message naming the first mismatch, or nothing.
std::optional<std::string> validate_peak(const PeakVariant& v, std::int64_t iterations, const PeakInputs& in,
                                         int threads, const double* out);

// Measured clock: a dependent chain of register-register integer adds, 64 per loop trip. Assumption:
// `add r64, r64` has a latency of exactly 1 cycle on every x86-64 core (true for Intel since P6 and for all
// AMD Zen); the renamer cannot eliminate a register-register add, unlike some `add reg, imm` forms. The
// loop counter runs on a separate chain, so one trip takes 64 cycles.
inline constexpr int kClockAddsPerIteration = 64;
// One thread's chain: returns the chain's final value (iterations * 64 * step).
std::int64_t clock_chain(std::int64_t iterations, std::int64_t step);
// Runs the chain on `threads` OpenMP threads; out[t] gets thread t's final value.
void run_clock(int threads, std::int64_t iterations, std::int64_t step, std::int64_t* out);
// Checks each thread's value against iterations * 64 * step.
std::optional<std::string> validate_clock(int threads, std::int64_t iterations, std::int64_t step,
                                          const std::int64_t* out);

}  // namespace roofline
