// ARM64's side of the kernel tests' seam (host_features.hpp): this process's AT_HWCAP and AT_HWCAP2 (under qemu-user,
// the emulated CPU's: `-cpu max,sve=off` takes SVE away, `-cpu cortex-a72` every extension).
#include <sys/auxv.h>

#include <asm/hwcap.h>

#include "host_features.hpp"

namespace roofline::testing {

IsaFeatures host_features() {
  const unsigned long hwcap = getauxval(AT_HWCAP);
  const unsigned long hwcap2 = getauxval(AT_HWCAP2);
  IsaFeatures f;
  f.neon = (hwcap & HWCAP_ASIMD) != 0;
  f.neon_fp16 = (hwcap & HWCAP_ASIMDHP) != 0;
  f.neon_dotprod = (hwcap & HWCAP_ASIMDDP) != 0;
  f.neon_i8mm = (hwcap2 & HWCAP2_I8MM) != 0;
  f.neon_bf16 = (hwcap2 & HWCAP2_BF16) != 0;
  f.sve = (hwcap & HWCAP_SVE) != 0;
  return f;
}

std::vector<Isa> stream_isas() { return {Isa::neon}; }

IsaFeatures features_for(Isa isa) {
  IsaFeatures f;
  f.neon = f.neon_fp16 = f.neon_dotprod = f.neon_i8mm = f.neon_bf16 = f.sve = true;
  f.max_isa = isa;
  return f.capped(isa);
}

bool cpu_has(Isa isa) {
  const IsaFeatures host = host_features();
  return host.supports(isa);
}

}  // namespace roofline::testing
