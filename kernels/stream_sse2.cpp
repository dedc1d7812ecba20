// STREAM loops for any x86-64 (SSE2 baseline): xmm vectors, movntpd streaming stores.
#include <emmintrin.h>

#include "stream_isa.hpp"

namespace roofline::detail {
namespace {
struct NtVec {
  static constexpr int kWidth = 2;
  static constexpr int kReadLanes = 16;  // 8 xmm accumulators
  static __m128d load(const double* p) { return _mm_load_pd(p); }
  static __m128d broadcast(double v) { return _mm_set1_pd(v); }
  static __m128d mul_add(__m128d a, __m128d b, __m128d c) { return _mm_add_pd(_mm_mul_pd(a, b), c); }
  static void stream(double* p, __m128d v) { _mm_stream_pd(p, v); }
  static void fence() { _mm_sfence(); }
};
}  // namespace
}  // namespace roofline::detail

#define ROOFLINE_STREAM_FN stream_run_sse2
#include "stream_loops.hpp"
