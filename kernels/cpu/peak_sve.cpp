// Peak kernels on SVE, vector length agnostic (compiled with +sve for this translation unit only, run where HWCAP says
// sve): FMA on fp64, fp32 and fp16 and the int8 dot product (SDOT .s), each on whole vectors of the CPU's length, which
// a row learns at run time (PeakVariant::scalable: peak_variants() fills vector_bits in from prctl(PR_SVE_GET_VL)).
// SVE registers have no compile-time size, so neither arrays of them nor the NEON files' register operands: one asm
// statement holds the whole kernel on fixed registers, z0-z19 the 20 chains (kChainsA64), z20 and z21 the inputs, p0 all
// true. It broadcasts each chain's start from memory, runs the n trips of one instruction per chain, and stores every
// lane, converted by C++ afterwards. fp64/fp32: FMLA (x += m * a, the rows' m = 1, as peak_neon.cpp); fp16: FMAD
// (x = x * m + a, the fp16 inputs multiply the accumulator: x * -1 + 3), so the x86 rows' closed form validates all of
// them; SDOT's bytes are peak_int8.hpp's, as on NEON. SVE's base set has FP16 arithmetic and SDOT: no other flag.
#include <arm_sve.h>

#include "peak_arm64.hpp"
#include "peak_int8.hpp"

namespace roofline::peak_isa {
namespace {

constexpr std::size_t kMaxSveBytes = 256;  // 2048 bits, the architecture's longest vector

// Calls step(i, args) for the chains 0..19; each expands to a string literal.
#define ROOFLINE_SVE_EACH20(step, ...)                                                                                \
  step(0, __VA_ARGS__) step(1, __VA_ARGS__) step(2, __VA_ARGS__) step(3, __VA_ARGS__) step(4, __VA_ARGS__)            \
  step(5, __VA_ARGS__) step(6, __VA_ARGS__) step(7, __VA_ARGS__) step(8, __VA_ARGS__) step(9, __VA_ARGS__)            \
  step(10, __VA_ARGS__) step(11, __VA_ARGS__) step(12, __VA_ARGS__) step(13, __VA_ARGS__) step(14, __VA_ARGS__)       \
  step(15, __VA_ARGS__) step(16, __VA_ARGS__) step(17, __VA_ARGS__) step(18, __VA_ARGS__) step(19, __VA_ARGS__)
// Chain i's start broadcast from *s (ld1rd/ld1rw/ld1rh: `ld`, arrangement `t`), then s to the next element (`bytes`).
#define ROOFLINE_SVE_START(i, ld, t, bytes) ld " {z" #i "." t "}, p0/z, [%[s]]\n\tadd %[s], %[s], #" bytes "\n\t"
// Chain i's vector stored at o (st1d/st1w/st1h), then o one vector on.
#define ROOFLINE_SVE_STORE(i, st, t) st " {z" #i "." t "}, p0, [%[o]]\n\taddvl %[o], %[o], #1\n\t"
// The hot instructions: z20 = m, z21 = a.
#define ROOFLINE_SVE_FMLA(i, t) "fmla z" #i "." t ", p0/m, z20." t ", z21." t "\n\t"
#define ROOFLINE_SVE_FMAD(i, t) "fmad z" #i "." t ", p0/m, z20." t ", z21." t "\n\t"
#define ROOFLINE_SVE_SDOT(i, t) "sdot z" #i ".s, z20.b, z21.b\n\t"

// A kernel over element type E (its SVE arrangement `t`, load `ld`, store `st`, size `bytes`) whose instruction per
// chain is step(i, t); the chains start at the E values start(c) and the inputs are m and a (as E).
#define ROOFLINE_SVE_KERNEL(name, E, t, ld, st, bytes, step, m_value, a_value, start)                                 \
  void name(std::int64_t n, const PeakInputs& in, double* out) {                                                      \
    E starts[kChainsA64];                                                                                             \
    for (int c = 0; c < kChainsA64; ++c) starts[c] = start(chain_start(in, c));                                       \
    const E m = m_value, a = a_value;                                                                                 \
    E lanes[kChainsA64 * kMaxSveBytes / sizeof(E)];                                                                   \
    const E* s = starts;                                                                                              \
    E* o = lanes;                                                                                                     \
    asm volatile("ptrue p0." t "\n\t" ld " {z20." t "}, p0/z, [%[m]]\n\t" ld " {z21." t "}, p0/z, [%[a]]\n\t"        \
                 ROOFLINE_SVE_EACH20(ROOFLINE_SVE_START, ld, t, bytes)                                                \
                 "cmp %[n], #0\n\tb.le 2f\n"                                                                          \
                 "1:\n\t" ROOFLINE_SVE_EACH20(step, t)                                                                \
                 "subs %[n], %[n], #1\n\tb.ne 1b\n"                                                                   \
                 "2:\n\t" ROOFLINE_SVE_EACH20(ROOFLINE_SVE_STORE, st, t)                                              \
                 : [n] "+r"(n), [s] "+r"(s), [o] "+r"(o)                                                              \
                 : [m] "r"(&m), [a] "r"(&a)                                                                           \
                 : "cc", "memory", "p0", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11",   \
                   "v12", "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21");                            \
    const std::size_t count = kChainsA64 * (svcntb() / sizeof(E));                                                    \
    for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<double>(lanes[i]);                                   \
  }

template <class E>
E element(double x) { return static_cast<E>(x); }
int int32_start(double x) { return static_cast<int>(x); }

ROOFLINE_SVE_KERNEL(fma_fp64_sve, double, "d", "ld1rd", "st1d", "8", ROOFLINE_SVE_FMLA, element<double>(in.multiplier),
                    element<double>(in.addend), element<double>)
ROOFLINE_SVE_KERNEL(fma_fp32_sve, float, "s", "ld1rw", "st1w", "4", ROOFLINE_SVE_FMLA, element<float>(in.multiplier),
                    element<float>(in.addend), element<float>)
ROOFLINE_SVE_KERNEL(fma_fp16_sve, __fp16, "h", "ld1rh", "st1h", "2", ROOFLINE_SVE_FMAD, element<__fp16>(in.multiplier),
                    element<__fp16>(in.addend), element<__fp16>)
ROOFLINE_SVE_KERNEL(dot_int8_sve, int, "s", "ld1rw", "st1w", "4", ROOFLINE_SVE_SDOT, u8_quad(in.multiplier),
                    s8_quad(in.addend), int32_start)

// The rows: 128 bits in the file (SVE's shortest vector), the CPU's length once peak_variants() has read it.
constexpr PeakVariant fma_fp64_sve_row = scalable_row(
    peak_row("fma_fp64_sve", PeakOp::fma, Precision::fp64, Isa::sve, 128, kChainsA64, 0, "fmla z.d", fma_fp64_sve));
constexpr PeakVariant fma_fp32_sve_row = scalable_row(
    peak_row("fma_fp32_sve", PeakOp::fma, Precision::fp32, Isa::sve, 128, kChainsA64, 0, "fmla z.s", fma_fp32_sve));
constexpr PeakVariant fma_fp16_sve_row = scalable_row(
    peak_row("fma_fp16_sve", PeakOp::fma, Precision::fp16, Isa::sve, 128, kChainsA64, 0, "fmad z.h", fma_fp16_sve));
constexpr PeakVariant dot_int8_sve_row = scalable_row(
    peak_row("dot_int8_sve", PeakOp::dot, Precision::int8, Isa::sve, 128, kChainsA64, 0, "sdot z.s", dot_int8_sve));

}  // namespace

ROOFLINE_PEAK_TABLE(kSveRows, fma_fp64_sve_row, fma_fp32_sve_row, fma_fp16_sve_row, dot_int8_sve_row)

}  // namespace roofline::peak_isa
