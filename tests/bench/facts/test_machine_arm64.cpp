// ARM64's machine facts (cmake/arch/arm64.cmake), on the live CPU (under qemu-user in the cross build: its HWCAP is
// the emulated CPU's, its /proc/cpuinfo the host's).
#include <gtest/gtest.h>

#include "roofline/facts/machine.hpp"

namespace roofline {

TEST(Machine, Arm64FeaturesFromHwcap) {
  const MachineFacts m = detect_machine();
  EXPECT_TRUE(m.isa.neon);  // every ARMv8-A core has Advanced SIMD
  EXPECT_TRUE(m.isa.supports(Isa::neon));
  EXPECT_FALSE(m.isa.sse2);
  EXPECT_FALSE(m.amx.usable());
  EXPECT_FALSE(m.cpu_model.empty());
  // A run capped at neon uses no SVE, whatever the CPU has.
  EXPECT_FALSE(m.isa.capped(Isa::neon).supports(Isa::sve));
}

}  // namespace roofline
