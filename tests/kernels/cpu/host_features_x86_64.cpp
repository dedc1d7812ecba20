// x86-64's side of the kernel tests' seam (host_features.hpp): the compiler's cpuid helper (and cpuid itself for F16C,
// the dequant-dot kernels' fp16 scale conversion).
#include <cpuid.h>

#include "host_features.hpp"

namespace roofline::testing {

IsaFeatures host_features() {
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
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(1, &a, &b, &c, &d)) f.f16c = (c & bit_F16C) != 0;
  return f;
}


std::vector<Isa> stream_isas() { return {Isa::sse, Isa::avx2, Isa::avx512}; }

IsaFeatures features_for(Isa isa) {
  IsaFeatures f;
  f.sse2 = f.avx = f.avx2 = f.fma = true;
  f.avx512f = f.avx512dq = f.avx512bw = f.avx512vl = true;
  f.max_isa = isa;
  return f.capped(isa);
}

bool cpu_has(Isa isa) {
  __builtin_cpu_init();
  switch (isa) {
    case Isa::avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
    case Isa::avx2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    default: return true;
  }
}

}  // namespace roofline::testing
