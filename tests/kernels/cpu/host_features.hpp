// What this CPU has, for kernel tests: from the compiler's cpuid helper, independent of bench/'s detection
// (the kernels library cannot depend on bench/, and a second opinion is what a test wants anyway).
#pragma once

#include "roofline/common/vocabulary.hpp"

namespace roofline::testing {

inline IsaFeatures host_features() {
  __builtin_cpu_init();
  // __builtin_cpu_supports takes a string literal only, so the table holds the answers, not the names.
  struct Feature {
    bool IsaFeatures::*field;
    bool present;
  };
#define ROOFLINE_HOST_FEATURE(field, name) Feature{&IsaFeatures::field, __builtin_cpu_supports(name) != 0}
  const Feature table[] = {
      ROOFLINE_HOST_FEATURE(sse2, "sse2"), ROOFLINE_HOST_FEATURE(sse4_2, "sse4.2"), ROOFLINE_HOST_FEATURE(avx, "avx"),
      ROOFLINE_HOST_FEATURE(avx2, "avx2"), ROOFLINE_HOST_FEATURE(fma, "fma"), ROOFLINE_HOST_FEATURE(avx512f, "avx512f"),
      ROOFLINE_HOST_FEATURE(avx512dq, "avx512dq"), ROOFLINE_HOST_FEATURE(avx512bw, "avx512bw"),
      ROOFLINE_HOST_FEATURE(avx512vl, "avx512vl"), ROOFLINE_HOST_FEATURE(avx512_vnni, "avx512vnni"),
      ROOFLINE_HOST_FEATURE(avx512_bf16, "avx512bf16"), ROOFLINE_HOST_FEATURE(avx512_fp16, "avx512fp16"),
      ROOFLINE_HOST_FEATURE(avx_vnni, "avxvnni")};
#undef ROOFLINE_HOST_FEATURE
  IsaFeatures f;
  for (const Feature& x : table) f.*(x.field) = x.present;
  return f;
}

}  // namespace roofline::testing
