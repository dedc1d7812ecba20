// What this CPU has, for kernel tests: from the compiler's cpuid helper, independent of bench/'s detection
// (the kernels library cannot depend on bench/, and a second opinion is what a test wants anyway).
#pragma once

#include "roofline/common/vocabulary.hpp"

namespace roofline::testing {

inline IsaFeatures host_features() {
  IsaFeatures f;
  __builtin_cpu_init();
  f.sse2 = __builtin_cpu_supports("sse2");
  f.sse4_2 = __builtin_cpu_supports("sse4.2");
  f.avx = __builtin_cpu_supports("avx");
  f.avx2 = __builtin_cpu_supports("avx2");
  f.fma = __builtin_cpu_supports("fma");
  f.avx512f = __builtin_cpu_supports("avx512f");
  f.avx512dq = __builtin_cpu_supports("avx512dq");
  f.avx512bw = __builtin_cpu_supports("avx512bw");
  f.avx512vl = __builtin_cpu_supports("avx512vl");
  f.avx512_vnni = __builtin_cpu_supports("avx512vnni");
  f.avx512_bf16 = __builtin_cpu_supports("avx512bf16");
  f.avx512_fp16 = __builtin_cpu_supports("avx512fp16");
  f.avx_vnni = __builtin_cpu_supports("avxvnni");
  return f;
}

}  // namespace roofline::testing
