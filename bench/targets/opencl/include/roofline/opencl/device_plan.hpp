// An OpenCL device's plan (issue 46, item 5), fixed before the first measurement from the device's facts, the
// host's plausible caches (a CPU device's caches are the host's) and the profile alone, as the CPU's (cpu_plan.hpp):
// the bandwidth sweep (sweep_plan.hpp: past the device's last cache to 8x it, 1 GiB when no size is known, capped by
// the device's max allocation and global memory), each size's kernels and vector widths, the compute kinds, the
// GEMM shape and batches, the transfers and the launch latency, each benchmark's name and estimated time. The suites
// run exactly this; over a suite's budget the plan is made smaller here (fewer sizes per octave, fewer batches),
// deterministically and said, never the run shorter.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "roofline/facts/machine.hpp"
#include "roofline/harness/run_config.hpp"
#include "roofline/harness/run_plan.hpp"
#include "roofline/harness/sweep_plan.hpp"
#include "roofline/opencl/device_facts.hpp"
#include "roofline/opencl/measure.hpp"
#include "roofline/opencl/target_facts.hpp"

namespace roofline::opencl {

// The host's caches (HostCaches, target_facts.hpp) from its machine facts.
HostCaches host_caches(const MachineFacts& machine);

// One size of the sweep for one kernel, in these vector widths.
struct DeviceBandwidthStep {
  MemoryKernel kernel = MemoryKernel::read;
  std::uint64_t bytes = 0;  // the size asked for (PreparedMemory rounds it: planned_working_set)
  std::vector<int> widths;
};

struct DevicePlan {
  SweepPlan sweep;
  std::uint64_t last_cache_bytes = 0;  // the cache the sweep's end and the GEMM shape come from (0: none known)
  std::string cache_source;            // a sentence: where that cache comes from
  std::vector<DeviceBandwidthStep> bandwidth;  // in run order: by size, the kernels of each size
  std::vector<ComputeKind> compute;            // the kinds the device supports
  std::int64_t gemm_m = 0, gemm_k = 0;
  std::vector<std::string> gemm_precisions;    // "fp32", "fp16" (where the device has it and K allows the check)
  std::vector<int> gemm_batches;
  std::string shape_source;
  std::uint64_t transfer_bytes = 0;
  std::vector<SuitePlan> suites;  // those asked for, in run order, every benchmark with its estimate
};

// The smallest working set every memory kernel fills: triad's 3 buffers of one work-group of the widest width.
std::uint64_t device_sweep_start(const DeviceFacts& d);
// The work-group size a Session launches with on this device (at most 64).
std::uint64_t default_local_size(std::uint64_t max_work_group_size);
// The 32-bit words per buffer PreparedMemory makes for kernel `k` at `bytes` (capped at the max allocation, a whole
// number of work-groups of the widest width), and the working set it then names (all buffers).
std::uint64_t planned_words(MemoryKernel k, std::uint64_t bytes, std::uint64_t max_allocation_bytes,
                            std::uint64_t local_size);
std::uint64_t planned_working_set(const DeviceFacts& d, MemoryKernel k, std::uint64_t bytes);

// The plan of `suites` (the device's, those the run asks for, in its order) for `config`.
DevicePlan plan_device(const DeviceFacts& d, const HostCaches& host, const RunConfig& config,
                       const std::vector<std::string>& suites);

}  // namespace roofline::opencl
