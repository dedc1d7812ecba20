// Deliberate leaks of ours on the host (issue 37), one per case, each in a named function of this file:
//   plain    a new[] in our code, nothing third-party in the stack
//   openmp   a new[] inside an OpenMP region, on a libgomp worker thread (libgomp frames under ours)
//   hwloc    a topology loaded and never destroyed (hwloc's frames above ours)
// A suppression by library (leak:libgomp, leak:libhwloc) would hide the last two; expect_leak.sh fails then.
#include <hwloc.h>
#include <omp.h>

#include "leak_cases.hpp"

namespace roofline::sanitize_selfcheck {
namespace {

[[gnu::noinline]] int leak_plain() {
  drop(new char[48]);
  return 0;
}

[[gnu::noinline]] void leak_on_worker_thread() { drop(new char[40]); }

[[gnu::noinline]] int leak_in_openmp_region() {
  int leaked = 0;
#pragma omp parallel num_threads(2) reduction(+ : leaked)
  {
    if (omp_get_thread_num() == 1) {  // not the main thread: the stack starts in libgomp
      leak_on_worker_thread();
      leaked = 1;
    }
  }
  if (leaked != 1) {
    std::fprintf(stderr, "deliberate_leak: the OpenMP region ran on one thread only\n");
    return 1;
  }
  return 0;
}

[[gnu::noinline]] int leak_hwloc_topology() {
  hwloc_topology_t topology = nullptr;
  if (hwloc_topology_init(&topology) != 0 || hwloc_topology_load(topology) != 0) {
    std::fprintf(stderr, "deliberate_leak: hwloc could not load the topology\n");
    return 1;
  }
  drop(topology);  // never hwloc_topology_destroy'ed
  return 0;
}

constexpr Case kCases[] = {
    {"plain", leak_plain}, {"openmp", leak_in_openmp_region}, {"hwloc", leak_hwloc_topology}};

}  // namespace
}  // namespace roofline::sanitize_selfcheck

int main(int argc, char** argv) {
  return roofline::sanitize_selfcheck::run_case(argc, argv, roofline::sanitize_selfcheck::kCases);
}
