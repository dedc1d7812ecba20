// The host CPU's target facts: see cpu_target.hpp.
#include "roofline/common/cpu_target.hpp"

#include "roofline/common/target_id.hpp"

namespace roofline {

CpuTargetFacts host_cpu_target(const HostCpu& host) {
  CpuTargetFacts f;
  f.id = kCpuTargetId;
  f.kind = "cpu";
  f.name = host.model;
  f.vendor = host.vendor;
  f.api = kCpuApi;
  f.compute_units = host.cores;
  f.memory_total_bytes = host.memory_total_bytes;
  f.memory_available_bytes = host.memory_available_bytes;
  // A cache the facts do not report is there at 0 bytes, its size unknown (cpu_memory_levels).
  f.memory_levels = cpu_memory_levels(host.caches);
  f.peak_model = "x86_pipes";
  return f;
}

}  // namespace roofline
