// roofline_opencl_probe: a preliminary figure from the OpenCL target's kernels before `roofline run --target`
// exists (issue 22): best-of-N global memory bandwidth per kernel and width, and the mad-chain peaks per kind and
// width, on one device, each validated. Not installed; for side-by-side checks with clpeak.
//   roofline_opencl_probe [P.D] [MiB per kernel, default 256] [mad steps, default 1024] [reps, default 5]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "roofline/opencl/discovery.hpp"
#include "roofline/opencl/measure.hpp"

using namespace roofline::opencl;

namespace {
double best_rate(const Timing& t) { return t.work_per_rep / *std::min_element(t.seconds.begin(), t.seconds.end()); }

void report(const std::string& what, int width, const Timing& t, const char* unit) {
  std::printf("%-6s w%-2d %9.2f %s  %s  build %.2f s  global %llu x local %llu%s%s\n", what.c_str(), width,
              best_rate(t) / 1e9, unit, t.validated ? "validated" : ("INVALID: " + t.validation_error).c_str(),
              t.build_seconds, static_cast<unsigned long long>(t.global_size),
              static_cast<unsigned long long>(t.local_size), t.device_timing ? "" : "  (host timing)",
              t.notes.empty() ? "" : ("  [" + t.notes.front() + "]").c_str());
}
}  // namespace

int main(int argc, char** argv) {
  const std::string id = argc > 1 ? argv[1] : "0.0";
  const std::uint64_t mib = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 256;
  const std::int64_t steps = argc > 3 ? std::strtoll(argv[3], nullptr, 10) : 1024;
  const int reps = argc > 4 ? std::atoi(argv[4]) : 5;
  const DeviceList list = discover_devices();
  for (const std::string& n : list.notes) std::printf("note: %s\n", n.c_str());
  for (const DeviceFacts& d : list.devices) {
    if (id != std::to_string(d.platform_index) + "." + std::to_string(d.device_index)) continue;
    std::printf("%s", format_device(d).c_str());
    Session s(d);
    for (MemoryKernel k : kMemoryKernels) {
      for (int w : kVectorWidths) report(to_string(k), w, measure_memory(s, k, w, mib << 20, reps), "GB/s");
    }
    for (ComputeKind k : kComputeKinds) {
      if ((k == ComputeKind::fp64 && !d.fp64) || (k == ComputeKind::fp16 && !d.fp16)) continue;
      for (int w : kVectorWidths) report(to_string(k), w, measure_compute(s, k, w, steps, reps), "G(FL)OP/s");
    }
    return 0;
  }
  std::printf("no OpenCL device %s\n", id.c_str());
  return 2;
}
