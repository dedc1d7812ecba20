// The deliberate-leak self-check (issue 37): each binary holds a table of cases, each a function of ours that
// leaks on purpose in one kind of stack (plain, on a libgomp thread, inside hwloc, in OpenCL objects, in a
// callback run by PoCL). expect_leak.sh runs one case under the sanitize preset's LeakSanitizer settings and
// passes only when the leak is reported with that function in its stack: the suppressions must not hide it.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <utility>

namespace roofline::sanitize_selfcheck {

// The pointer leaves through a volatile store (so the compiler keeps the allocation) and is then overwritten,
// so nothing is left for LeakSanitizer to find it by: a leak.
inline void* volatile escape = nullptr;

inline void drop(void* p) {
  escape = p;
  escape = nullptr;
}

// Overwrites the stack the case ran on: a handle left in a dead frame (hwloc_topology_t, cl_program) would
// otherwise still be found there by LeakSanitizer's scan at exit, and the allocation taken for reachable.
[[gnu::noinline]] inline void scrub_stack() {
  volatile char bytes[64 * 1024];
  for (std::size_t i = 0; i < sizeof bytes; ++i) bytes[i] = 0;
}

// Exit codes: 0 the case ran (LeakSanitizer then reports the leak at exit), 2 an unknown case, 77 the case
// cannot run here (no OpenCL device), said on one line.
using Case = std::pair<const char*, int (*)()>;

template <std::size_t N>
int run_case(int argc, char** argv, const Case (&cases)[N]) {
  if (argc == 2) {
    for (const auto& [name, run] : cases) {
      if (std::strcmp(argv[1], name) != 0) continue;
      const int rc = run();
      scrub_stack();
      return rc;
    }
  }
  std::fprintf(stderr, "%s: expected one case:", argv[0]);
  for (const auto& c : cases) std::fprintf(stderr, " %s", c.first);
  std::fprintf(stderr, "\n");
  return 2;
}

}  // namespace roofline::sanitize_selfcheck
