// STREAM loops for AVX-512 (compiled with -mavx512f/bw/vl/dq and a 512-bit preferred vector width):
// zmm vectors, so that one load or store moves a whole 64-byte line; vmovntpd zmm streaming stores.
#include <immintrin.h>

#include "stream_isa.hpp"

namespace roofline::detail {
namespace {
struct NtVec {
  static constexpr int kWidth = 8;
  static constexpr int kReadLanes = 64;  // 8 zmm accumulators
  static __m512d load(const double* p) { return _mm512_load_pd(p); }
  static __m512d broadcast(double v) { return _mm512_set1_pd(v); }
  static __m512d mul_add(__m512d a, __m512d b, __m512d c) { return _mm512_fmadd_pd(a, b, c); }
  static void stream(double* p, __m512d v) { _mm512_stream_pd(p, v); }
  static void fence() { _mm_sfence(); }
};
}  // namespace
}  // namespace roofline::detail

#define ROOFLINE_STREAM_FN stream_run_avx512
#include "stream_loops.hpp"
