// The kernel's own record of this process's page advice, for the tests of the huge-page pool (tests/common) and of the
// page record (tests/bench/facts): the VmFlags line of a mapping in /proc/self/smaps, read directly (not by the code
// under test), and whether page advice reaches that record at all. Natively the kernel records the advice it accepted;
// qemu-user returns 0 from madvise but drops the hint, which never reaches the host's kernel (issue 62): a test of
// the advice skips there, detected by page_advice_is_dropped, never assumed.
#pragma once

#include <sys/mman.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

namespace roofline::testing {

// The VmFlags line of the mapping holding `p`, or "" when smaps cannot be read or holds no such mapping.
inline std::string vm_flags_of(const void* p) {
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

// True when a fresh 4 MiB mapping advised with `advice` (madvise accepting it) shows no `flag` (" hg", " nh") in a
// readable VmFlags line: the advice is dropped before the kernel. False natively, and when nothing can be told.
inline bool page_advice_is_dropped(int advice, const char* flag) {
  const std::size_t bytes = 4u << 20;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return false;
  const bool accepted = madvise(p, bytes, advice) == 0;
  const std::string flags = vm_flags_of(p);
  munmap(p, bytes);
  return accepted && !flags.empty() && flags.find(flag) == std::string::npos;
}

}  // namespace roofline::testing
