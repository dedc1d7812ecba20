// STREAM loops for ARM64's Advanced SIMD (NEON, part of every ARMv8-A core): the portable loops of stream_loops.hpp
// auto-vectorized to q registers, and streaming stores with STNP, the non-temporal store pair. One NtVec vector is
// a pair of q registers (4 doubles), so that each streaming store is one STNP of 32 bytes.
#include <arm_neon.h>

#include "stream_isa.hpp"

namespace roofline::detail {
namespace {
struct NtVec {
  static constexpr int kWidth = 4;
  static constexpr int kReadLanes = 8 * kWidth;
  static float64x2x2_t load(const double* p) { return {vld1q_f64(p), vld1q_f64(p + 2)}; }
  static float64x2x2_t broadcast(double v) { return {vdupq_n_f64(v), vdupq_n_f64(v)}; }
  // a * b + c, fused (FMLA).
  static float64x2x2_t mul_add(float64x2x2_t a, float64x2x2_t b, float64x2x2_t c) {
    return {vfmaq_f64(c.val[0], a.val[0], b.val[0]), vfmaq_f64(c.val[1], a.val[1], b.val[1])};
  }
  static void stream(double* p, float64x2x2_t v) {
    asm volatile("stnp %q[lo], %q[hi], [%[p]]" ::[lo] "w"(v.val[0]), [hi] "w"(v.val[1]), [p] "r"(p) : "memory");
  }
  // STNP's stores are ordered like any other (ARM's non-temporal hint does not weaken ordering); the barrier
  // keeps the contract of the x86 policies: the block's stores are done before the kernel returns.
  static void fence() { asm volatile("dmb ishst" ::: "memory"); }
};
}  // namespace
}  // namespace roofline::detail

#define ROOFLINE_STREAM_FN stream_run_neon
#include "stream_loops.hpp"
