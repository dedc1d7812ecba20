// The STREAM loops, compiled once per ISA level: stream_sse2.cpp, stream_avx2.cpp and stream_avx512.cpp
// each define a `NtVec` policy (vector type, load, streaming store, fma; ROOFLINE_STREAM_NT_VEC in
// stream_isa.hpp) and ROOFLINE_STREAM_FN (the exported function's name), then include this file.
// Everything here has internal linkage, so the differently-compiled copies never mix (one binary, chosen
// at run time from cpuid).
//
// Portable kernels are plain loops that GCC auto-vectorizes (`omp simd` makes it unconditional). The
// non-temporal ones use the policy's streaming store, since GCC has no portable way to ask for one.
//
// Checked code generation (g++ 12.2, -O3, `objdump -d` of the objects, noted once):
//  - avx512 (-mprefer-vector-width=512): copy/scale/add/triad/write are zmm vmovapd/vmulpd/vfmadd
//    loops; read keeps 8 zmm accumulators (vaddpd zmm, 64 doubles per iteration); the _nt kernels are
//    vmovntpd zmm; no call to memcpy/memset (loop-to-libcall distribution is switched off below, since
//    glibc's memcpy switches to streaming stores for large sizes and would turn `copy` into `copy_nt`).
//  - avx2: the same with ymm (read: 8 ymm accumulators); sse2: xmm (read: 8 xmm accumulators).
#pragma once

#include <chrono>
#include <cstddef>

#include <omp.h>

#include "roofline/kernels/cpu/stream.hpp"

#ifndef ROOFLINE_STREAM_FN
#error "define ROOFLINE_STREAM_FN (and the NtVec policy) before including stream_loops.hpp"
#endif

namespace roofline::detail {
namespace {

// Keeps each repeated pass: without it the compiler could merge passes over unchanged data.
inline void compiler_barrier() { asm volatile("" ::: "memory"); }

#define ROOFLINE_ALIGNED(p) static_cast<double*>(__builtin_assume_aligned((p), 64))

// Portable kernels on [begin, end). `begin` is a multiple of 8, so the pointers are 64-byte aligned.
__attribute__((optimize("no-tree-loop-distribute-patterns")))
void copy_range(const double* __restrict a, double* __restrict c, std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t i = begin; i < end; ++i) c[i] = a[i];
}

void scale_range(double* __restrict b, const double* __restrict c, std::size_t begin, std::size_t end) {
  const double s = kStreamScalar;
#pragma omp simd
  for (std::size_t i = begin; i < end; ++i) b[i] = s * c[i];
}

void add_range(const double* __restrict a, const double* __restrict b, double* __restrict c, std::size_t begin,
               std::size_t end) {
#pragma omp simd
  for (std::size_t i = begin; i < end; ++i) c[i] = a[i] + b[i];
}

void triad_range(double* __restrict a, const double* __restrict b, const double* __restrict c, std::size_t begin,
                 std::size_t end) {
  const double s = kStreamScalar;
#pragma omp simd
  for (std::size_t i = begin; i < end; ++i) a[i] = b[i] + s * c[i];
}

__attribute__((optimize("no-tree-loop-distribute-patterns")))
void write_range(double* __restrict a, std::size_t begin, std::size_t end) {
  const double v = kStreamFillValue;
#pragma omp simd
  for (std::size_t i = begin; i < end; ++i) a[i] = v;
}

// A sum needs several independent accumulators, or it runs at one vector add per add-latency (4 cycles)
// instead of the two loads per cycle we want to measure: kReadLanes doubles = 8 vector registers. The
// accumulators live across all passes, so the final reduction (a dependent chain) is paid once per call,
// not once per pass over an L1-sized block. Returns the mean sum per pass (exact: all passes are equal).
//
// Past the caches (a block of kReadPrefetchMinBytes and more) each step also prefetches one line
// kReadPrefetchBytes ahead (issue 32): the hardware prefetchers stop at every 4 KiB page, and on 4 KiB pages a
// guest's nested page walk then stalls the stream at each page; a software prefetch two pages ahead starts that
// walk (and the first lines of the page) early, so it overlaps the current page's loads. Prefetches never fault,
// so the ones past the block's end are harmless. Inside the caches the plain loop runs (no extra instruction).
inline constexpr std::size_t kReadPrefetchBytes = 8192;
inline constexpr std::size_t kReadPrefetchMinBytes = 4u << 20;

template <bool kPrefetch>
__attribute__((always_inline)) inline void read_pass(const double* __restrict a, std::size_t& i, std::size_t end, double* __restrict acc) {
  constexpr int lanes = NtVec::kReadLanes;
  // Two blocks per iteration: half the loop overhead per load, measurably closer to 2 loads/cycle.
  for (; i + 2 * lanes <= end; i += 2 * lanes) {
    if constexpr (kPrefetch) __builtin_prefetch(reinterpret_cast<const char*>(a + i) + kReadPrefetchBytes, 0, 3);
#pragma omp simd
    for (int j = 0; j < lanes; ++j) acc[j] += a[i + j];
#pragma omp simd
    for (int j = 0; j < lanes; ++j) acc[j] += a[i + lanes + j];
  }
}

double read_passes(const double* __restrict a, std::size_t begin, std::size_t end, int passes) {
  constexpr int lanes = NtVec::kReadLanes;
  constexpr int width = NtVec::kWidth;
  static_assert(lanes == 8 * width, "stream_step_elements assumes 8 vector accumulators");
  const bool prefetch = (end - begin) * sizeof(double) >= kReadPrefetchMinBytes;
  double acc[lanes] = {};
  double tail = 0.0;
  for (int r = 0; r < passes; ++r) {
    std::size_t i = begin;
    if (prefetch) read_pass<true>(a, i, end, acc);
    else read_pass<false>(a, i, end, acc);
    // The tail in whole vectors, each vector on its own accumulator (constant indices, so they all stay
    // in registers) and no add waiting on another: a block that is not a whole number of steps costs only
    // its extra loads. (A one-accumulator loop and a scalar chain here once made non-power-of-two sizes
    // inside L1 30-80% slower than their neighbours.)
    if (i + lanes <= end) {
#pragma omp simd
      for (int j = 0; j < lanes; ++j) acc[j] += a[i + j];
      i += lanes;
    }
#define ROOFLINE_TAIL_VECTOR(v)                                              \
  if (i + width <= end) {                                                   \
    _Pragma("omp simd") for (int j = 0; j < width; ++j) acc[(v) * width + j] += a[i + j]; \
    i += width;                                                             \
  }
    ROOFLINE_TAIL_VECTOR(0) ROOFLINE_TAIL_VECTOR(1) ROOFLINE_TAIL_VECTOR(2) ROOFLINE_TAIL_VECTOR(3)
    ROOFLINE_TAIL_VECTOR(4) ROOFLINE_TAIL_VECTOR(5) ROOFLINE_TAIL_VECTOR(6)
#undef ROOFLINE_TAIL_VECTOR
    for (; i < end; ++i) tail += a[i];  // below one vector: only for n not a multiple of the width
    // The next pass must load again, but the accumulators may stay in registers: hide only `a`.
    asm volatile("" : "+r"(a));
  }
  for (int w = lanes / 2; w >= 1; w /= 2) {
    for (int j = 0; j < w; ++j) acc[j] += acc[j + w];
  }
  return (acc[0] + tail) / passes;
}

// Streaming stores need aligned addresses: vector part on whole vectors, the tail with scalar stores.
void copy_nt_range(const double* a, double* c, std::size_t begin, std::size_t end) {
  constexpr std::size_t w = NtVec::kWidth;
  std::size_t i = begin;
  for (; i + w <= end; i += w) NtVec::stream(c + i, NtVec::load(a + i));
  for (; i < end; ++i) c[i] = a[i];
}

void triad_nt_range(double* a, const double* b, const double* c, std::size_t begin, std::size_t end) {
  constexpr std::size_t w = NtVec::kWidth;
  const auto s = NtVec::broadcast(kStreamScalar);
  std::size_t i = begin;
  for (; i + w <= end; i += w) NtVec::stream(a + i, NtVec::mul_add(s, NtVec::load(c + i), NtVec::load(b + i)));
  for (; i < end; ++i) a[i] = b[i] + kStreamScalar * c[i];
}

void write_nt_range(double* a, std::size_t begin, std::size_t end) {
  constexpr std::size_t w = NtVec::kWidth;
  const auto v = NtVec::broadcast(kStreamFillValue);
  std::size_t i = begin;
  for (; i + w <= end; i += w) NtVec::stream(a + i, v);
  for (; i < end; ++i) a[i] = kStreamFillValue;
}

// One thread's `repeats` passes over its block. Returns the mean sum per pass for `read`, else 0.
double run_block(StreamKernel kernel, const StreamArrays& x, std::size_t begin, std::size_t end, int repeats) {
  if (kernel == StreamKernel::read) return read_passes(ROOFLINE_ALIGNED(x.a), begin, end, repeats);
  for (int r = 0; r < repeats; ++r) {
    switch (kernel) {
      case StreamKernel::copy: copy_range(ROOFLINE_ALIGNED(x.a), ROOFLINE_ALIGNED(x.c), begin, end); break;
      case StreamKernel::scale: scale_range(ROOFLINE_ALIGNED(x.b), ROOFLINE_ALIGNED(x.c), begin, end); break;
      case StreamKernel::add:
        add_range(ROOFLINE_ALIGNED(x.a), ROOFLINE_ALIGNED(x.b), ROOFLINE_ALIGNED(x.c), begin, end);
        break;
      case StreamKernel::triad:
        triad_range(ROOFLINE_ALIGNED(x.a), ROOFLINE_ALIGNED(x.b), ROOFLINE_ALIGNED(x.c), begin, end);
        break;
      case StreamKernel::read: break;  // read_passes above
      case StreamKernel::write: write_range(ROOFLINE_ALIGNED(x.a), begin, end); break;
      case StreamKernel::copy_nt: copy_nt_range(x.a, x.c, begin, end); break;
      case StreamKernel::triad_nt: triad_nt_range(x.a, x.b, x.c, begin, end); break;
      case StreamKernel::write_nt: write_nt_range(x.a, begin, end); break;
    }
    compiler_barrier();
  }
  if (stream_kernel_info(kernel).non_temporal) NtVec::fence();  // streaming stores are weakly ordered
  return 0.0;
}

#undef ROOFLINE_ALIGNED

}  // namespace

double ROOFLINE_STREAM_FN(StreamKernel kernel, const StreamArrays& arrays, int threads, int repeats,
                          double* thread_seconds) {
  double total = 0.0;
#pragma omp parallel num_threads(threads) reduction(+ : total)
  {
    const int t = omp_get_thread_num();
    const StreamRange r = stream_chunk(arrays.n, omp_get_num_threads(), t);
    if (thread_seconds == nullptr) {
      total += run_block(kernel, arrays, r.begin, r.end, repeats);
    } else {
      const auto start = std::chrono::steady_clock::now();
      total += run_block(kernel, arrays, r.begin, r.end, repeats);
      thread_seconds[t] += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
  }
  return total;
}

}  // namespace roofline::detail
