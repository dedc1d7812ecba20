// Eigen GEMV/GEMM for one ISA level; compiled once per level with that level's flags and
// ROOFLINE_EIGEN_VARIANT set to its name (see gemm_eigen_variant.hpp for why and how).
#include "gemm_eigen_variant.hpp"

#include <omp.h>

#include <Eigen/Core>

#ifndef ROOFLINE_EIGEN_VARIANT
#error "ROOFLINE_EIGEN_VARIANT must name the ISA level (avx512, avx2, baseline)"
#endif
#define ROOFLINE_CAT2(a, b) a##b
#define ROOFLINE_CAT(a, b) ROOFLINE_CAT2(a, b)
#define ROOFLINE_STR2(a) #a
#define ROOFLINE_STR(a) ROOFLINE_STR2(a)

namespace roofline::gemm_detail {
namespace {

template <class T>
void eigen_gemm(const T* a, const T* b, T* c, std::int64_t m, std::int64_t n, std::int64_t k, int threads,
                bool row_split) {
  using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using ColMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;
  using Vector = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  const Eigen::Map<const RowMajor> A(a, m, k);
  // Eigen's own GEMM threading reads this (not omp_get_max_threads) once set.
  Eigen::setNbThreads(row_split ? 1 : threads);
  auto block = [&](std::int64_t r0, std::int64_t rows) {
    if (n == 1) {
      const Eigen::Map<const Vector> x(b, k);
      Eigen::Map<Vector> y(c + r0, rows);
      y.noalias() = A.middleRows(r0, rows) * x;
    } else {
      const Eigen::Map<const ColMajor> B(b, k, n);
      Eigen::Map<ColMajor, 0, Eigen::OuterStride<>> C(c + r0, rows, n, Eigen::OuterStride<>(m));
      C.noalias() = A.middleRows(r0, rows) * B;
    }
  };
  if (!row_split || threads <= 1) {
    block(0, m);
    return;
  }
  // Eigen runs GEMV on one thread only (and GEMM with fewer columns than nr x threads on fewer threads
  // than asked), so the rows of A are split over the pinned OpenMP team: each thread streams its own
  // block of A, in the same static split that first-touched it.
#pragma omp parallel num_threads(threads)
  {
    const std::int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
    // Blocks of whole 16-row groups keep each thread's rows on its own cache lines of C.
    const std::int64_t groups = (m + 15) / 16;
    const std::int64_t g0 = groups * t / nt, g1 = groups * (t + 1) / nt;
    const std::int64_t r0 = std::min<std::int64_t>(g0 * 16, m), r1 = std::min<std::int64_t>(g1 * 16, m);
    if (r1 > r0) block(r0, r1 - r0);
  }
}

void gemm_f32(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n, std::int64_t k,
              int threads, bool row_split) {
  eigen_gemm(a, b, c, m, n, k, threads, row_split);
}
void gemm_f64(const double* a, const double* b, double* c, std::int64_t m, std::int64_t n, std::int64_t k,
              int threads, bool row_split) {
  eigen_gemm(a, b, c, m, n, k, threads, row_split);
}

}  // namespace

EigenVariant ROOFLINE_CAT(eigen_variant_, ROOFLINE_EIGEN_VARIANT)() {
  EigenVariant v;
  v.isa = ROOFLINE_STR(ROOFLINE_EIGEN_VARIANT);
  v.simd = Eigen::SimdInstructionSetsInUse();
  v.nr = static_cast<int>(Eigen::internal::gebp_traits<float, float>::nr);
  v.gemm_f32 = &gemm_f32;
  v.gemm_f64 = &gemm_f64;
  return v;
}

}  // namespace roofline::gemm_detail
