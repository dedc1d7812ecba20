// Private to kernels/: the per-ISA peak kernel entry points (each defined in the translation unit of its
// ISA, compiled with that ISA's flags) and the chain loop they share. The loop template lives in an unnamed
// namespace so that every translation unit gets its own copy compiled with its own flags (a shared inline
// template would let the linker pick, say, the AVX-512 copy for the SSE2 caller).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>
#include <type_traits>
#include <utility>

#include "roofline/kernels/cpu/peak.hpp"

namespace roofline::peak_isa {

// Chain counts: enough independent accumulators to cover latency x pipes (4-5 cycles x 2 pipes on
// current cores) with margin, within the register file (16 registers without EVEX, 32 with it, leaving
// room for the two inputs).
inline constexpr int kChainsLegacy = 12;
inline constexpr int kChainsEvex = 20;
// AMX: four accumulator tiles (of the eight), each 16 x 16 32-bit elements; the other four hold A and B.
inline constexpr int kChainsTile = 4;

// Each ISA's translation unit defines its kernels (in an unnamed namespace) and, beside them, its rows of
// the metadata table: one PeakVariant per kernel, as data only (no code of that TU runs to read them, so a
// CPU without the ISA can list them). peak.cpp gathers these tables in this order and sorts the rows
// (peak_variants()). A kernel for an existing ISA is one row and one function in its ISA's file; a new ISA
// is a new file, its flags in kernels/cpu/CMakeLists.txt, and one line here and in peak.cpp's list.
struct PeakRows {
  const PeakVariant* rows;
  std::size_t count;
};
extern const PeakRows kBaselineRows;     // peak_baseline.cpp: SSE2 mulsd/addsd, mulpd/addpd (any x86-64)
extern const PeakRows kFmaRows;          // peak_fma.cpp (-mavx -mfma): VEX FMA, scalar, 128 and 256 bits
extern const PeakRows kAvx512Rows;       // peak_avx512.cpp (-mavx512f/dq/bw/vl): EVEX FMA on zmm and ymm
extern const PeakRows kAvx512Bf16Rows;   // peak_avx512_bf16.cpp (+ -mavx512bf16): vdpbf16ps
extern const PeakRows kAvx512Fp16Rows;   // peak_avx512_fp16.cpp (+ -mavx512fp16): vfmadd*ph
extern const PeakRows kAvx512VnniRows;   // peak_avx512_vnni.cpp (+ -mavx512vnni): EVEX vpdpbusd
extern const PeakRows kAvxVnniRows;      // peak_avx_vnni.cpp (-mavx2 -mavxvnni): VEX {vex} vpdpbusd
extern const PeakRows kAmxRows;          // peak_amx.cpp (-mamx-tile -mamx-bf16 -mamx-int8 [-mamx-fp16]): tiles
// ARM64 (arch_arm64.cpp lists them):
extern const PeakRows kNeonRows;         // peak_neon.cpp: FMLA on 128-bit NEON registers
extern const PeakRows kNeonDotRows;      // peak_neon_dot.cpp (+dotprod): SDOT
extern const PeakRows kNeonFp16Rows;     // peak_neon_fp16.cpp (+fp16): FMLA .8h
extern const PeakRows kNeonI8mmRows;     // peak_neon_i8mm.cpp (+i8mm): SMMLA
extern const PeakRows kNeonBf16Rows;     // peak_neon_bf16.cpp (+bf16): BFDOT, BFMMLA
extern const PeakRows kSveRows;          // peak_sve.cpp (+sve): FMLA/FMAD and SDOT at the CPU's vector length

// Shorthands for the rows' `required` bits.
inline constexpr std::uint32_t kNeedsAvx2Fma = kNeedsAvx2 | kNeedsFma;
// The TMUL unit's architectural rate (Intel optimization manual): 1024 bf16/fp16 FLOP or 2048 int8 OP per
// cycle per core, i.e. one full-tile instruction every 16 cycles.
inline constexpr int kTileFlopPerCycle = 1024;
inline constexpr int kTileOpPerCycle = 2048;

// A kernel's row, its counts derived from the conventions (peak_lanes, peak_ops_per_lane): one instruction
// per chain and trip (two for mul+add). constexpr, so the tables are constant-initialized data.
constexpr PeakVariant peak_row(std::string_view name, PeakOp op, Precision precision, Isa isa, int vector_bits,
                               int chains, std::uint32_t required, std::string_view instruction, PeakFn fn,
                               int ops_per_cycle_per_core = 0) {
  return {name, op, precision, isa, vector_bits, chains, op == PeakOp::muladd ? 2 * chains : chains,
          peak_lanes(op, precision, vector_bits) * peak_ops_per_lane(op, precision), required, instruction, fn,
          ops_per_cycle_per_core};
}
// A row whose registers are SVE's, of the length the CPU has (PeakVariant::scalable).
constexpr PeakVariant scalable_row(PeakVariant v) {
  v.scalable = true;
  return v;
}
// The precision of a floating-point kernel's element type.
template <class E>
constexpr Precision precision_of() {
  if constexpr (std::is_same_v<E, double>) return Precision::fp64;
  else if constexpr (std::is_same_v<E, float>) return Precision::fp32;
  else return Precision::fp16;  // _Float16
}
// The row of kernel `name` (defined just before), as the constant name##_row.
#define ROOFLINE_PEAK_ROW(name, ...) constexpr PeakVariant name##_row = peak_row(#name, __VA_ARGS__, name);
// This file's table (one of the PeakRows above) from its kernels' rows.
#define ROOFLINE_PEAK_TABLE(table, ...)                  \
  const PeakVariant table##_data[] = {__VA_ARGS__};      \
  extern const PeakRows table = {table##_data, std::size(table##_data)};

// The hot loops are inline assembly: one asm statement per trip holding one instruction per chain, with
// every accumulator an in/out register operand. With intrinsics, g++ 12 copies the accumulators between
// registers (and spills them) around tied-operand builtins such as vpdpbusd, halving throughput; the asm
// fixes the instruction stream whatever the compiler version. AT&T operand order: `op %[a], %[m], %[x]` is
// Intel `op x, m, a` (x = m * x + a for vfmadd213*, x += dot(m, a) for vpdpbusd/vdpbf16ps).
#define ROOFLINE_STEP(op, i) op " %[a], %[m], %[x" #i "]\n\t"
#define ROOFLINE_STEP1(op, src, i) op " %[" #src "], %[x" #i "]\n\t"
// One instruction per chain: 12 chains (legacy, 16 registers), or 10 (half of the 20 EVEX chains).
#define ROOFLINE_STEPS12(op) \
  ROOFLINE_STEP(op, 0) ROOFLINE_STEP(op, 1) ROOFLINE_STEP(op, 2) ROOFLINE_STEP(op, 3) \
  ROOFLINE_STEP(op, 4) ROOFLINE_STEP(op, 5) ROOFLINE_STEP(op, 6) ROOFLINE_STEP(op, 7) \
  ROOFLINE_STEP(op, 8) ROOFLINE_STEP(op, 9) ROOFLINE_STEP(op, 10) ROOFLINE_STEP(op, 11)
#define ROOFLINE_STEPS10(op) \
  ROOFLINE_STEP(op, 0) ROOFLINE_STEP(op, 1) ROOFLINE_STEP(op, 2) ROOFLINE_STEP(op, 3) \
  ROOFLINE_STEP(op, 4) ROOFLINE_STEP(op, 5) ROOFLINE_STEP(op, 6) ROOFLINE_STEP(op, 7) \
  ROOFLINE_STEP(op, 8) ROOFLINE_STEP(op, 9)
// Two-operand SSE2 mul then add per chain (x = x * m; x = x + a).
#define ROOFLINE_MULADD12(op1, op2) \
  ROOFLINE_STEP1(op1, m, 0) ROOFLINE_STEP1(op1, m, 1) ROOFLINE_STEP1(op1, m, 2) ROOFLINE_STEP1(op1, m, 3) \
  ROOFLINE_STEP1(op1, m, 4) ROOFLINE_STEP1(op1, m, 5) ROOFLINE_STEP1(op1, m, 6) ROOFLINE_STEP1(op1, m, 7) \
  ROOFLINE_STEP1(op1, m, 8) ROOFLINE_STEP1(op1, m, 9) ROOFLINE_STEP1(op1, m, 10) ROOFLINE_STEP1(op1, m, 11) \
  ROOFLINE_STEP1(op2, a, 0) ROOFLINE_STEP1(op2, a, 1) ROOFLINE_STEP1(op2, a, 2) ROOFLINE_STEP1(op2, a, 3) \
  ROOFLINE_STEP1(op2, a, 4) ROOFLINE_STEP1(op2, a, 5) ROOFLINE_STEP1(op2, a, 6) ROOFLINE_STEP1(op2, a, 7) \
  ROOFLINE_STEP1(op2, a, 8) ROOFLINE_STEP1(op2, a, 9) ROOFLINE_STEP1(op2, a, 10) ROOFLINE_STEP1(op2, a, 11)
// Accumulators acc[0..] as in/out operands with constraint c ("+x" legacy, "+v" EVEX).
#define ROOFLINE_ACC12(c) \
  [x0] c(acc[0]), [x1] c(acc[1]), [x2] c(acc[2]), [x3] c(acc[3]), \
  [x4] c(acc[4]), [x5] c(acc[5]), [x6] c(acc[6]), [x7] c(acc[7]), \
  [x8] c(acc[8]), [x9] c(acc[9]), [x10] c(acc[10]), [x11] c(acc[11])
// acc[base..base+9] (an asm statement takes at most 30 operands, and each in/out operand counts twice).
#define ROOFLINE_ACC10(c, base) \
  [x0] c(acc[base + 0]), [x1] c(acc[base + 1]), [x2] c(acc[base + 2]), [x3] c(acc[base + 3]), \
  [x4] c(acc[base + 4]), [x5] c(acc[base + 5]), [x6] c(acc[base + 6]), [x7] c(acc[base + 7]), \
  [x8] c(acc[base + 8]), [x9] c(acc[base + 9])

// Runs `n` trips of the asm `body` (one of the step macros) over `chains` accumulators in acc[], with the
// inputs m and a in registers.
#define ROOFLINE_CHAIN_LOOP(n, body, accs, m, a, in_constraint)                 \
  for (std::int64_t trip = 0; trip < (n); ++trip) {                            \
    asm volatile(body : accs : [m] in_constraint(m), [a] in_constraint(a));    \
  }

// The EVEX form: 20 chains per trip as two asm statements of 10 (see ROOFLINE_ACC10), one instruction `op`
// per chain.
#define ROOFLINE_CHAIN_LOOP20(n, op, m, a)                                                   \
  for (std::int64_t trip = 0; trip < (n); ++trip) {                                          \
    asm volatile(ROOFLINE_STEPS10(op) : ROOFLINE_ACC10("+v", 0) : [m] "v"(m), [a] "v"(a));   \
    asm volatile(ROOFLINE_STEPS10(op) : ROOFLINE_ACC10("+v", 10) : [m] "v"(m), [a] "v"(a));  \
  }

namespace {
// Chain c's start value (all lanes). In an unnamed namespace, like everything defined in this header, so
// each ISA's translation unit keeps its own copy compiled with its own flags.
inline double chain_start(const PeakInputs& in, int c) { return in.start + c * in.chain_step; }

// Calls f(c) for c = 0..N-1 with c a compile-time constant, so that acc[c] always has a constant index
// and the compiler keeps the accumulator array in registers (a loop over c makes it live in memory, and
// then every trip stores all accumulators back).
template <int N, class F>
[[gnu::always_inline]] inline void for_each_chain(F&& f) {
  [&]<int... C>(std::integer_sequence<int, C...>) { (f(std::integral_constant<int, C>{}), ...); }(
      std::make_integer_sequence<int, N>{});
}

// Writes the lanes of register x (element type E) as doubles to out. Lanes are read by subscript, not
// through memory, for the same reason.
template <class E, std::size_t Bytes>
struct GenericVector;
template <std::size_t Bytes>
struct GenericVector<double, Bytes> { typedef double type __attribute__((vector_size(Bytes))); };
template <std::size_t Bytes>
struct GenericVector<float, Bytes> { typedef float type __attribute__((vector_size(Bytes))); };
template <std::size_t Bytes>
struct GenericVector<int, Bytes> { typedef int type __attribute__((vector_size(Bytes))); };
// _Float16 where the compiler has it in C++ (GCC 12 on x86-64; on ARM64 from GCC 13): a feature test
// (kernels/cpu/CMakeLists.txt), not an architecture's, since the type is what the fp16 rows need.
#if ROOFLINE_HAVE_FLOAT16
template <std::size_t Bytes>
struct GenericVector<_Float16, Bytes> { typedef _Float16 type __attribute__((vector_size(Bytes))); };
#endif

template <class E, class V>
[[gnu::always_inline]] inline void store_lanes(double* out, V x) {
  using Generic = typename GenericVector<E, sizeof(V)>::type;
  const auto g = reinterpret_cast<Generic&>(x);
  for (std::size_t l = 0; l < sizeof(V) / sizeof(E); ++l) out[l] = static_cast<double>(g[l]);
}

// Chain c's lanes of register x (element type E; a plain E for scalar kernels) written to out.
template <class E, class V>
[[gnu::always_inline]] inline void store_chain(double* out, int c, V x) {
  if constexpr (std::is_arithmetic_v<V>) {
    out[c] = static_cast<double>(x);
  } else {
    store_lanes<E>(out + sizeof(V) / sizeof(E) * static_cast<std::size_t>(c), x);
  }
}

// The register type of a kernel: E itself for scalar kernels (Bytes == sizeof(E)), else a vector of Bytes.
template <class E, std::size_t Bytes>
using KernelRegister = std::conditional_t<Bytes == sizeof(E), E, typename GenericVector<E, Bytes>::type>;
}  // namespace

// A floating-point peak kernel `name`: `chains` accumulators of element type E in registers of `bytes`
// (bytes == sizeof(E): scalar), started at the chain starts, `loop` (a ROOFLINE_CHAIN_LOOP* over the asm of
// one instruction per chain, a macro argument because the asm template must be a string literal), then
// every lane written out for the validator. Each ISA's translation unit instantiates it with its flags.
#define ROOFLINE_FP_KERNEL(name, E, bytes, chains, loop)                                          \
  void name(std::int64_t n, const PeakInputs& in, double* out) {                                  \
    using V = KernelRegister<E, bytes>;                                                           \
    const V m = V{} + static_cast<E>(in.multiplier);                                              \
    const V a = V{} + static_cast<E>(in.addend);                                                  \
    V acc[chains];                                                                                \
    for_each_chain<chains>([&](int c) { acc[c] = V{} + static_cast<E>(chain_start(in, c)); });    \
    loop                                                                                          \
    for_each_chain<chains>([&](int c) { store_chain<E>(out, c, acc[c]); });                       \
  }

// A floating-point peak kernel and its row in one: ROOFLINE_FP_KERNEL, then `name##_row` (operation `op`
// at ISA level `isa` needing `required`, `instruction` for people), its precision from E and its width from
// `bytes`.
#define ROOFLINE_FP_PEAK(name, op, isa, E, bytes, chains, required, instruction, loop) \
  ROOFLINE_FP_KERNEL(name, E, bytes, chains, loop)                                     \
  constexpr PeakVariant name##_row =                                                   \
      peak_row(#name, op, precision_of<E>(), isa, 8 * (bytes), chains, required, instruction, name);

}  // namespace roofline::peak_isa
