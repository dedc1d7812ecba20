// STREAM loops for any x86-64 (SSE2 baseline): xmm vectors, movntpd streaming stores.
#include <emmintrin.h>

#include "stream_isa.hpp"

namespace roofline::detail {
namespace {
// SSE2 has no fused multiply-add.
__m128d mul_add_sse2(__m128d a, __m128d b, __m128d c) { return _mm_add_pd(_mm_mul_pd(a, b), c); }
}  // namespace
}  // namespace roofline::detail

ROOFLINE_STREAM_NT_VEC(__m128d, _mm, 2, mul_add_sse2)

#define ROOFLINE_STREAM_FN stream_run_sse2
#include "stream_loops.hpp"
