// STREAM loops for SVE, vector length agnostic: the same kernels as stream_loops.hpp, written with the SVE ACLE
// (arm_sve.h) because its vectors have no compile-time size (stream_loops.hpp's policies need one). Every loop steps by
// svcntd() doubles under a svwhilelt predicate, so one binary runs at any vector length (128 to 2048 bits) and needs
// no scalar tail; streaming stores are STNT1D. Compiled with +sve for this translation unit only
// (cmake/arch/arm64.cmake) and chosen where HWCAP says sve (arch_arm64.cpp).
#include <arm_sve.h>
#include <chrono>
#include <omp.h>

#include "stream_isa.hpp"

namespace roofline::detail {
namespace {

inline void compiler_barrier() { asm volatile("" ::: "memory"); }

template <bool kNt>
void store(svbool_t p, double* x, svfloat64_t v) {
  if constexpr (kNt) svstnt1_f64(p, x, v);
  else svst1_f64(p, x, v);
}

template <bool kNt>
void copy_range(const double* a, double* c, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; i += svcntd()) {
    const svbool_t p = svwhilelt_b64(i, end);
    store<kNt>(p, c + i, svld1_f64(p, a + i));
  }
}

void scale_range(double* b, const double* c, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; i += svcntd()) {
    const svbool_t p = svwhilelt_b64(i, end);
    svst1_f64(p, b + i, svmul_n_f64_x(p, svld1_f64(p, c + i), kStreamScalar));
  }
}

void add_range(const double* a, const double* b, double* c, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; i += svcntd()) {
    const svbool_t p = svwhilelt_b64(i, end);
    svst1_f64(p, c + i, svadd_f64_x(p, svld1_f64(p, a + i), svld1_f64(p, b + i)));
  }
}

// a = b + s * c: one FMLA per vector (b + c * s).
template <bool kNt>
void triad_range(double* a, const double* b, const double* c, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; i += svcntd()) {
    const svbool_t p = svwhilelt_b64(i, end);
    store<kNt>(p, a + i, svmla_n_f64_x(p, svld1_f64(p, b + i), svld1_f64(p, c + i), kStreamScalar));
  }
}

template <bool kNt>
void write_range(double* a, std::size_t begin, std::size_t end) {
  const svfloat64_t v = svdup_n_f64(kStreamFillValue);
  for (std::size_t i = begin; i < end; i += svcntd()) store<kNt>(svwhilelt_b64(i, end), a + i, v);
}

// The sum over 8 accumulators (the latency x pipes of the adds), two blocks of 8 vectors a step as the other ISAs'
// read (stream_step_elements); the rest under predicates into the first accumulator. Returns the mean sum per pass.
double read_passes(const double* a, std::size_t begin, std::size_t end, int passes) {
  const svbool_t all = svptrue_b64();
  const std::size_t vl = svcntd();
  svfloat64_t s0 = svdup_n_f64(0.0), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
  for (int r = 0; r < passes; ++r) {
    std::size_t i = begin;
    for (; i + 16 * vl <= end; i += 16 * vl) {
#define ROOFLINE_SVE_READ(acc, k)                                       \
  acc = svadd_f64_x(all, acc, svld1_vnum_f64(all, a + i, k));           \
  acc = svadd_f64_x(all, acc, svld1_vnum_f64(all, a + i, (k) + 8));
      ROOFLINE_SVE_READ(s0, 0) ROOFLINE_SVE_READ(s1, 1) ROOFLINE_SVE_READ(s2, 2) ROOFLINE_SVE_READ(s3, 3)
      ROOFLINE_SVE_READ(s4, 4) ROOFLINE_SVE_READ(s5, 5) ROOFLINE_SVE_READ(s6, 6) ROOFLINE_SVE_READ(s7, 7)
#undef ROOFLINE_SVE_READ
    }
    for (; i < end; i += vl) {
      const svbool_t p = svwhilelt_b64(i, end);
      s0 = svadd_f64_m(p, s0, svld1_f64(p, a + i));
    }
    asm volatile("" : "+r"(a));  // the next pass must load again
  }
  const svfloat64_t s = svadd_f64_x(all, svadd_f64_x(all, svadd_f64_x(all, s0, s1), svadd_f64_x(all, s2, s3)),
                                    svadd_f64_x(all, svadd_f64_x(all, s4, s5), svadd_f64_x(all, s6, s7)));
  return svaddv_f64(all, s) / passes;
}

void one_pass(StreamKernel kernel, const StreamArrays& x, std::size_t begin, std::size_t end) {
  switch (kernel) {
    case StreamKernel::copy: copy_range<false>(x.a, x.c, begin, end); break;
    case StreamKernel::scale: scale_range(x.b, x.c, begin, end); break;
    case StreamKernel::add: add_range(x.a, x.b, x.c, begin, end); break;
    case StreamKernel::triad: triad_range<false>(x.a, x.b, x.c, begin, end); break;
    case StreamKernel::read: break;  // read_passes
    case StreamKernel::write: write_range<false>(x.a, begin, end); break;
    case StreamKernel::copy_nt: copy_range<true>(x.a, x.c, begin, end); break;
    case StreamKernel::triad_nt: triad_range<true>(x.a, x.b, x.c, begin, end); break;
    case StreamKernel::write_nt: write_range<true>(x.a, begin, end); break;
  }
}

double run_block(StreamKernel kernel, const StreamArrays& x, std::size_t begin, std::size_t end, int repeats) {
  if (kernel == StreamKernel::read) return read_passes(x.a, begin, end, repeats);
  for (int r = 0; r < repeats; ++r) {
    one_pass(kernel, x, begin, end);
    compiler_barrier();
  }
  if (stream_kernel_info(kernel).non_temporal) asm volatile("dmb ishst" ::: "memory");
  return 0.0;
}

}  // namespace

std::size_t stream_sve_doubles() { return svcntd(); }

double stream_run_sve(StreamKernel kernel, const StreamArrays& arrays, int threads, int repeats, double* thread_seconds) {
  double total = 0.0;
#pragma omp parallel num_threads(threads) reduction(+ : total)
  {
    const int t = omp_get_thread_num();
    const StreamRange r = stream_chunk(arrays.n, omp_get_num_threads(), t);
    const auto start = std::chrono::steady_clock::now();
    total += run_block(kernel, arrays, r.begin, r.end, repeats);
    if (thread_seconds != nullptr) {
      thread_seconds[t] += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
  }
  return total;
}

}  // namespace roofline::detail
