// STREAM loops for AVX2+FMA (compiled with -mavx2 -mfma only): ymm vectors, vmovntpd ymm streaming stores.
#include <immintrin.h>

#include "stream_isa.hpp"

namespace roofline::detail {
namespace {
struct NtVec {
  static constexpr int kWidth = 4;
  static constexpr int kReadLanes = 32;  // 8 ymm accumulators
  static __m256d load(const double* p) { return _mm256_load_pd(p); }
  static __m256d broadcast(double v) { return _mm256_set1_pd(v); }
  static __m256d mul_add(__m256d a, __m256d b, __m256d c) { return _mm256_fmadd_pd(a, b, c); }
  static void stream(double* p, __m256d v) { _mm256_stream_pd(p, v); }
  static void fence() { _mm_sfence(); }
};
}  // namespace
}  // namespace roofline::detail

#define ROOFLINE_STREAM_FN stream_run_avx2
#include "stream_loops.hpp"
