// x86-64's side of the kernels' architecture seam (arch.hpp): the SSE2/AVX2/AVX-512 STREAM loops, the peak and
// dequant-dot tables of the x86 translation units (each compiled with its ISA's flags: cmake/arch/x86_64.cmake),
// the Eigen copies per ISA level and the clock chain, chosen at run time from cpuid's features. Baseline flags.
#include "arch.hpp"
#include "stream_isa.hpp"

namespace roofline {
namespace arch {

Isa stream_baseline_isa() { return Isa::sse; }  // movntpd is SSE2, part of x86-64

Isa stream_isa(const IsaFeatures& features) {
  if (features.supports(Isa::avx512)) return Isa::avx512;
  if (features.supports(Isa::avx2)) return Isa::avx2;
  return Isa::sse;  // SSE2 is part of x86-64
}

std::size_t stream_vector_doubles(const IsaFeatures& features) {
  switch (stream_isa(features)) {
    case Isa::avx512: return 8;
    case Isa::avx2: return 4;
    default: return 2;  // SSE2: 2 doubles per xmm
  }
}

double stream_run(Isa isa, StreamKernel kernel, const StreamArrays& arrays, int threads, int repeats,
                  double* thread_seconds) {
  switch (isa) {
    case Isa::avx512: return detail::stream_run_avx512(kernel, arrays, threads, repeats, thread_seconds);
    case Isa::avx2: return detail::stream_run_avx2(kernel, arrays, threads, repeats, thread_seconds);
    default: return detail::stream_run_sse2(kernel, arrays, threads, repeats, thread_seconds);
  }
}

std::span<const peak_isa::PeakRows* const> peak_row_tables() {
  using namespace peak_isa;
  static const PeakRows* const tables[] = {&kBaselineRows,   &kFmaRows,        &kAvx512Rows,  &kAvx512Bf16Rows,
                                           &kAvx512Fp16Rows, &kAvx512VnniRows, &kAvxVnniRows, &kAmxRows};
  return tables;
}

int scalable_vector_bits() { return 0; }  // no scalable vectors on x86-64

std::span<const quant::QuantIsaRow> quant_isa_rows() {
  using namespace quant;
  static const QuantIsaRow rows[] = {
      {&kScalarKernels, "scalar", Isa::scalar, 64, 0, false, "scalar imul/add", "scalar cvt+mulss/addss"},
      {&kAvx2Kernels, "avx2", Isa::avx2, 256, kNeedsAvx2 | kNeedsFma, true, "vpmaddubsw+vpmaddwd ymm",
       "vcvtdq2ps+vfmadd ymm"},
      {&kAvxVnniKernels, "avx_vnni", Isa::avx_vnni, 256, kNeedsAvxVnni | kNeedsAvx2 | kNeedsFma, true,
       "vpdpbusd/vpdpwssd ymm", ""},
      {&kAvx512Kernels, "avx512", Isa::avx512, 512, kNeedsAvx512 | kNeedsFma, true, "vpmaddubsw+vpmaddwd zmm",
       "vcvtdq2ps+vfmadd zmm"},
      {&kAvx512VnniKernels, "avx512_vnni", Isa::avx512, 512, kNeedsAvx512 | kNeedsAvx512Vnni | kNeedsFma, true,
       "vpdpbusd/vpdpwssd zmm", ""},
  };
  return rows;
}

gemm_detail::EigenVariant eigen_variant(const IsaFeatures& features) {
  if (features.supports(Isa::avx512)) return gemm_detail::eigen_variant_avx512();
  if (features.supports(Isa::avx2)) return gemm_detail::eigen_variant_avx2();
  return gemm_detail::eigen_variant_baseline();
}

}  // namespace arch

std::int64_t clock_chain(std::int64_t iterations, std::int64_t step) {
  std::int64_t acc = 0;
  if (iterations <= 0) return acc;
  // 64 dependent adds per trip; the dec/jnz pair is a separate (macro-fused) chain that overlaps them.
  asm volatile(
      "1:\n\t"
      ".rept 64\n\t"
      "add %[s], %[acc]\n\t"
      ".endr\n\t"
      "dec %[n]\n\t"
      "jnz 1b\n\t"
      : [acc] "+r"(acc), [n] "+r"(iterations)
      : [s] "r"(step)
      : "cc");
  return acc;
}

}  // namespace roofline
