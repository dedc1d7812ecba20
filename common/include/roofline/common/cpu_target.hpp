// The host CPU as a target (issue 61, step 5): host_cpu_target, the one function that makes the CPU's target facts
// from the host's, for the entry a run writes in context.targets[] (bench's cpu_target_facts) and for the CPU the
// analysis synthesizes for a file from before targets (recorded_targets). Each side adds only what is its own: the
// run a note pointing at context.machine; the analysis the measured clock, the host's notes and that it was
// synthesized.
#pragma once

#include <string>
#include <vector>

#include "roofline/common/reported_levels.hpp"

namespace roofline {

// What of the host's facts the CPU's target facts come from.
struct HostCpu {
  std::string model;   // "AMD EPYC 9R14 96-Core Processor"
  std::string vendor;  // "AuthenticAMD"
  long long cores = 0;
  double memory_total_bytes = 0.0;
  double memory_available_bytes = 0.0;
  std::vector<ReportedCache> caches;  // as the host's facts report them
};

struct CpuTargetFacts {
  std::string id, kind, name, vendor, api;
  long long compute_units = 0;  // its cores
  double memory_total_bytes = 0.0;
  double memory_available_bytes = 0.0;
  std::vector<CpuMemoryLevel> memory_levels;  // cpu_memory_levels of its caches
  std::string peak_model;                     // "x86_pipes": threads x measured clock x the pipes (of x86 or ARM64)
};

CpuTargetFacts host_cpu_target(const HostCpu& host);

}  // namespace roofline
