// allocate_large: alignment by size class, and the huge-page advice on large buffers, read back from the
// kernel's own record of this process's mappings (VmFlags "hg" in /proc/self/smaps).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "roofline/common/huge_pages.hpp"

namespace roofline {
namespace {

// The VmFlags line of the mapping holding `p`, or "" when smaps cannot be read or holds no such mapping.
std::string vm_flags_of(const void* p) {
  std::ifstream in("/proc/self/smaps");
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    std::uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-') {
      inside = addr >= lo && addr < hi;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

TEST(HugePages, SmallBuffersKeepTheirAlignment) {
  void* p = allocate_large(1000, 64);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 64, 0u);
  std::memset(p, 1, 1000);
  std::free(p);
  void* empty = allocate_large(0, 4096);  // 0 bytes is one byte, never nullptr for a size of 0
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(empty) % 4096, 0u);
  std::free(empty);
}

TEST(HugePages, LargeBuffersAreHugePageAlignedAndAdvised) {
  const std::size_t bytes = kHugePageThreshold + 12345;
  void* p = allocate_large(bytes, 4096);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % kHugePageBytes, 0u);
  std::memset(p, 1, bytes);
  const std::string flags = vm_flags_of(p);
  if (flags.empty()) {
    std::free(p);
    GTEST_SKIP() << "/proc/self/smaps is not readable here";
  }
  EXPECT_NE(flags.find(" hg"), std::string::npos) << flags;
  std::free(p);
}

}  // namespace
}  // namespace roofline
