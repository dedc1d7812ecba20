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
  const Feature table[] = {
      {&IsaFeatures::sse2, __builtin_cpu_supports("sse2") != 0},
      {&IsaFeatures::sse4_2, __builtin_cpu_supports("sse4.2") != 0},
      {&IsaFeatures::avx, __builtin_cpu_supports("avx") != 0},
      {&IsaFeatures::avx2, __builtin_cpu_supports("avx2") != 0},
      {&IsaFeatures::fma, __builtin_cpu_supports("fma") != 0},
      {&IsaFeatures::avx512f, __builtin_cpu_supports("avx512f") != 0},
      {&IsaFeatures::avx512dq, __builtin_cpu_supports("avx512dq") != 0},
      {&IsaFeatures::avx512bw, __builtin_cpu_supports("avx512bw") != 0},
      {&IsaFeatures::avx512vl, __builtin_cpu_supports("avx512vl") != 0},
      {&IsaFeatures::avx512_vnni, __builtin_cpu_supports("avx512vnni") != 0},
      {&IsaFeatures::avx512_bf16, __builtin_cpu_supports("avx512bf16") != 0},
      {&IsaFeatures::avx512_fp16, __builtin_cpu_supports("avx512fp16") != 0},
      {&IsaFeatures::avx_vnni, __builtin_cpu_supports("avxvnni") != 0},
  };
  IsaFeatures f;
  for (const Feature& x : table) f.*(x.field) = x.present;
  return f;
}

}  // namespace roofline::testing
