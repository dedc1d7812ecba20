// The OpenCL target's suites as DeviceWork (issue 22): what the harness times (device_benchmark) and what a test
// runs on its own. Each builder returns one batch whose works share device buffers and are made ready (built,
// filled, warmed up) before they are returned; run the batch, then drop it to free the device's memory. Every
// work validates its result after timing. A work whose device fails throws TargetLost naming the device.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "roofline/harness/benchmark_name.hpp"
#include "roofline/harness/target.hpp"
#include "roofline/opencl/measure.hpp"

namespace roofline::opencl {

struct WorkOptions {
  bool full = false;                      // the full profile: more sizes and batches
  std::vector<std::uint64_t> sizes;       // bandwidth working sets (--sizes); empty: the profile's sweep
  std::int64_t gemm_m = 0, gemm_k = 0;    // 0: the CPU gemm suite's default shape
  std::vector<int> batches;               // empty: the profile's batches
  double min_time_s = 0.05;
  int repetitions = 3;
  std::vector<int> widths;                // bandwidth widths to run; empty: every one of kVectorWidths
};

// The works' names, written by the harness (benchmark_name.hpp: these three, and transfer_benchmark_name and
// latency_benchmark_name, which every target with a host link shares); the plan (device_plan.cpp) names its entries
// with these too, so that a plan and its work cannot disagree.
std::string bandwidth_name(MemoryKernel k, int width, std::uint64_t working_set_bytes);
std::string compute_name(ComputeKind k, int width);
std::string gemm_name(const std::string& precision, std::int64_t m, std::int64_t k, int batch);

// One memory kernel at one working set in every vector width, or those of o.widths (labels kernel, width, bytes).
std::vector<DeviceWork> bandwidth_work(const std::shared_ptr<Session>& s, MemoryKernel k, std::uint64_t bytes,
                                       const WorkOptions& o, std::vector<std::string>& notes);
// One compute kind in every vector width, enough work-groups to fill every compute unit (labels precision,
// engine "vector", width). The caller checks supports() first.
std::vector<DeviceWork> compute_work(const std::shared_ptr<Session>& s, ComputeKind k, const WorkOptions& o,
                                     std::vector<std::string>& notes);
// Host-to-device and device-to-host copies of `bytes` (capped at the max allocation, said), from pinned
// (CL_MEM_ALLOC_HOST_PTR, mapped) and pageable (ordinary heap) host memory.
std::vector<DeviceWork> transfer_work(const std::shared_ptr<Session>& s, std::uint64_t bytes, const WorkOptions& o,
                                      std::vector<std::string>& notes);
// Kernel launch latency: an empty one-work-item kernel, enqueue to completion on the host clock.
std::vector<DeviceWork> latency_work(const std::shared_ptr<Session>& s, const WorkOptions& o);

// GEMV/GEMM through CLBlast: C (M x N) = A (M x K, row-major, the weights) x B (K x N, column-major) in
// precision "fp32" (SGEMV at batch 1, SGEMM above) or "fp16" (HGEMV/HGEMM), every batch of gemm_batches() on
// one set of device-resident operands (each batch uses the first N columns), checked exactly (small integers)
// on three columns of C, all rows. Labels as the CPU gemm suite's, backend "clblast". Empty, with a note, when
// built without CLBlast or when CLBlast refuses the device.
bool have_clblast();
std::vector<int> gemm_batches(const WorkOptions& o);
// The shape is o.gemm_m x o.gemm_k (the plan's, device_plan.hpp; 0: the CPU's default), every batch of
// gemm_batches(o) runs: nothing is left out at run time.
std::vector<DeviceWork> gemm_work(const std::shared_ptr<Session>& s, const std::string& precision,
                                  const WorkOptions& o, std::vector<std::string>& notes);

// What a harness-free caller does with a work: `iterations` timed runs, then validation. Returns the rate
// (bytes, FLOP or OP per second, whichever the work counts); throws std::runtime_error on a wrong result.
double run_and_validate(const DeviceWork& w, std::int64_t iterations);

}  // namespace roofline::opencl
