// ARM64's side of the kernels' architecture seam (arch.hpp): the NEON and SVE STREAM loops, the peak tables of the ARM64
// translation units (cmake/arch/arm64.cmake) and SVE's vector length, the dequant-dot kernels (scalar, NEON, NEON with
// SDOT), Eigen's NEON copy and the clock chain, chosen at run time from HWCAP's features (bench/facts/cpu_arm64.cpp
// fills them).
#include <sys/prctl.h>

#include "arch.hpp"
#include "stream_isa.hpp"

namespace roofline {
namespace arch {

Isa stream_baseline_isa() { return Isa::neon; }  // Advanced SIMD is part of every ARMv8-A core

Isa stream_isa(const IsaFeatures& features) { return features.supports(Isa::sve) ? Isa::sve : Isa::neon; }

// SVE: one vector of this CPU's length; NEON (stream_neon.cpp): a pair of q registers.
std::size_t stream_vector_doubles(const IsaFeatures& features) {
  return stream_isa(features) == Isa::sve ? detail::stream_sve_doubles() : 4;
}

double stream_run(Isa isa, StreamKernel kernel, const StreamArrays& arrays, int threads, int repeats,
                  double* thread_seconds) {
  if (isa == Isa::sve) return detail::stream_run_sve(kernel, arrays, threads, repeats, thread_seconds);
  return detail::stream_run_neon(kernel, arrays, threads, repeats, thread_seconds);
}

std::span<const peak_isa::PeakRows* const> peak_row_tables() {
  using namespace peak_isa;
  static const PeakRows* const tables[] = {&kNeonRows,     &kNeonDotRows,  &kNeonFp16Rows,
                                           &kNeonI8mmRows, &kNeonBf16Rows, &kSveRows};
  return tables;
}

// The kernel's word for this thread's SVE vector length (prctl, not an SVE instruction, so that it is safe to ask on
// any core: EINVAL without SVE; under qemu-user, the emulated CPU's). Threads inherit it.
int scalable_vector_bits() {
  const int vl = prctl(PR_SVE_GET_VL, 0, 0, 0, 0);
  return vl < 0 ? 0 : 8 * (vl & PR_SVE_VL_LEN_MASK);
}

std::span<const quant::QuantIsaRow> quant_isa_rows() {
  static const quant::QuantIsaRow rows[] = {
      {&quant::kScalarKernels, "scalar", Isa::scalar, 64, 0, false, "scalar imul/add", "scalar cvt+mulss/addss"},
      {&quant::kNeonKernels, "neon", Isa::neon, 128, 0, false, "smull+sadalp v.8h", "scvtf+fmla v.4s"},
      {&quant::kNeonDotKernels, "neon_dotprod", Isa::neon, 128, kNeedsNeonDotprod, false, "sdot v.4s", ""},
  };
  return rows;
}

gemm_detail::EigenVariant eigen_variant(const IsaFeatures&) { return gemm_detail::eigen_variant_neon(); }

}  // namespace arch

std::int64_t clock_chain(std::int64_t iterations, std::int64_t step) {
  std::int64_t acc = 0;
  if (iterations <= 0) return acc;
  // 64 dependent adds per trip; the subs/b.ne pair is a separate chain that overlaps them.
  asm volatile(
      "1:\n\t"
      ".rept 64\n\t"
      "add %[acc], %[acc], %[s]\n\t"
      ".endr\n\t"
      "subs %[n], %[n], #1\n\t"
      "b.ne 1b\n\t"
      : [acc] "+r"(acc), [n] "+r"(iterations)
      : [s] "r"(step)
      : "cc");
  return acc;
}

}  // namespace roofline
