// Private to kernels/: the ARM64 NEON peak kernels' chain loop (peak_neon*.cpp). Like peak_isa.hpp's x86
// loops, one asm statement holds one instruction per chain with every accumulator an in/out register operand, so the
// instruction stream is fixed whatever the compiler. 20 chains as two statements of 10 (an asm statement takes at most
// 30 operands): FMA latency 4 x up to 4 pipes (Neoverse V2) needs 16 in flight, and the 32 vector registers hold the
// 20 accumulators and the two inputs. ARM operand order: `fmla x.2d, m.2d, a.2d` is x += m * a.
#pragma once

#include "peak_isa.hpp"

// One instruction `op` per chain: the accumulator with arrangement `acc_t`, the inputs with `in_t` (fmla: both "2d";
// sdot: "4s" and "16b").
#define ROOFLINE_A64_STEP(op, acc_t, in_t, i) op " %[x" #i "]." acc_t ", %[m]." in_t ", %[a]." in_t "\n\t"
// The accumulator as its own multiplicand, x += x * k (peak_neon_fp16.cpp: x * (1 + k) with one FMLA).
#define ROOFLINE_A64_SELF_STEP(op, acc_t, in_t, i) op " %[x" #i "]." acc_t ", %[x" #i "]." in_t ", %[k]." in_t "\n\t"
#define ROOFLINE_A64_STEPS10(step, op, acc_t, in_t)                                                     \
  step(op, acc_t, in_t, 0) step(op, acc_t, in_t, 1) step(op, acc_t, in_t, 2) step(op, acc_t, in_t, 3)  \
  step(op, acc_t, in_t, 4) step(op, acc_t, in_t, 5) step(op, acc_t, in_t, 6) step(op, acc_t, in_t, 7)  \
  step(op, acc_t, in_t, 8) step(op, acc_t, in_t, 9)
// `n` trips of 20 chains in acc[0..19] over the inputs m and a (NEON registers: constraint "w").
#define ROOFLINE_A64_LOOP20(n, op, acc_t, in_t, m, a)                                                           \
  for (std::int64_t trip = 0; trip < (n); ++trip) {                                                             \
    asm volatile(ROOFLINE_A64_STEPS10(ROOFLINE_A64_STEP, op, acc_t, in_t) : ROOFLINE_ACC10("+w", 0)             \
                 : [m] "w"(m), [a] "w"(a));                                                                     \
    asm volatile(ROOFLINE_A64_STEPS10(ROOFLINE_A64_STEP, op, acc_t, in_t) : ROOFLINE_ACC10("+w", 10)            \
                 : [m] "w"(m), [a] "w"(a));                                                                     \
  }
// `n` trips of 20 chains x += x * k, arrangement `t`.
#define ROOFLINE_A64_SELF_LOOP20(n, op, t, k)                                                                   \
  for (std::int64_t trip = 0; trip < (n); ++trip) {                                                             \
    asm volatile(ROOFLINE_A64_STEPS10(ROOFLINE_A64_SELF_STEP, op, t, t) : ROOFLINE_ACC10("+w", 0) : [k] "w"(k)); \
    asm volatile(ROOFLINE_A64_STEPS10(ROOFLINE_A64_SELF_STEP, op, t, t) : ROOFLINE_ACC10("+w", 10) : [k] "w"(k)); \
  }

namespace roofline::peak_isa {
inline constexpr int kChainsA64 = 20;
}  // namespace roofline::peak_isa
