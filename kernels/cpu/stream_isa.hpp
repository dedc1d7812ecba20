// The per-ISA builds of the STREAM loops (stream_loops.hpp), chosen at run time by stream.cpp.
#pragma once

#include "roofline/kernels/cpu/stream.hpp"

namespace roofline::detail {

double stream_run_sse2(StreamKernel kernel, const StreamArrays& arrays, int threads, int repeats,
                       double* thread_seconds);
double stream_run_avx2(StreamKernel kernel, const StreamArrays& arrays, int threads, int repeats,
                       double* thread_seconds);
double stream_run_avx512(StreamKernel kernel, const StreamArrays& arrays, int threads, int repeats,
                       double* thread_seconds);
double stream_run_neon(StreamKernel kernel, const StreamArrays& arrays, int threads, int repeats,
                       double* thread_seconds);
double stream_run_sve(StreamKernel kernel, const StreamArrays& arrays, int threads, int repeats,
                       double* thread_seconds);
// Doubles in one SVE vector on this CPU (svcntd: 2 to 32); call only where HWCAP says sve.
std::size_t stream_sve_doubles();

}  // namespace roofline::detail

// The `NtVec` policy that stream_loops.hpp needs, for one x86 vector type (stream_neon.cpp writes its own): VEC (__m128d, __m256d, __m512d),
// the prefix of its intrinsics (_mm, _mm256, _mm512), its width in doubles and its multiply-add
// (a function of three vectors). The read kernel keeps 8 accumulators, so it reads 8 vectors a step.
#define ROOFLINE_STREAM_NT_VEC(VEC, PREFIX, WIDTH, MUL_ADD)                        \
  namespace roofline::detail {                                                     \
  namespace {                                                                      \
  struct NtVec {                                                                   \
    static constexpr int kWidth = WIDTH;                                           \
    static constexpr int kReadLanes = 8 * (WIDTH);                                 \
    static VEC load(const double* p) { return PREFIX##_load_pd(p); }               \
    static VEC broadcast(double v) { return PREFIX##_set1_pd(v); }                 \
    static VEC mul_add(VEC a, VEC b, VEC c) { return MUL_ADD(a, b, c); }           \
    static void stream(double* p, VEC v) { PREFIX##_stream_pd(p, v); }             \
    static void fence() { _mm_sfence(); }                                          \
  };                                                                               \
  }                                                                                \
  }
