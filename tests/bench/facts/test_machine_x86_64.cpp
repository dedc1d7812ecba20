// x86-64's machine facts (cmake/arch/x86_64.cmake): the live CPU through cpuid, and the microarchitecture table.
#include <gtest/gtest.h>

#include "roofline/facts/cpuid.hpp"
#include "roofline/facts/machine.hpp"

namespace roofline {

TEST(Machine, X86IdentityFromCpuid) {
  const MachineFacts m = detect_machine();
  EXPECT_FALSE(m.cpu_vendor.empty());
  EXPECT_TRUE(m.isa.sse2);  // every x86-64 has it
  EXPECT_FALSE(m.isa.neon);
}

TEST(Machine, MicroarchitectureTable) {
  EXPECT_EQ(microarchitecture_name("GenuineIntel", 6, 0xCF), "emerald_rapids");
  EXPECT_EQ(microarchitecture_name("GenuineIntel", 6, 0x8F), "sapphire_rapids");
  EXPECT_EQ(microarchitecture_name("AuthenticAMD", 0x1A, 0x02), "zen5");
  EXPECT_EQ(microarchitecture_name("AuthenticAMD", 0x19, 0x11), "zen4");
  EXPECT_EQ(microarchitecture_name("GenuineIntel", 99, 1), "");
}

}  // namespace roofline
