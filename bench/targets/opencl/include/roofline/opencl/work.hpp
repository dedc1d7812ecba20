// The OpenCL target's suites as DeviceWork (issue 22): what the harness times (device_benchmark) and what a test
// runs on its own. Each builder returns one batch whose works share device buffers and are made ready (built,
// filled, warmed up) before they are returned; run the batch, then drop it to free the device's memory. Every
// work validates its result after timing. A work whose device fails throws TargetLost naming the device.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "roofline/bench/budget.hpp"
#include "roofline/bench/target.hpp"
#include "roofline/opencl/measure.hpp"

namespace roofline::opencl {

struct WorkOptions {
  bool full = false;                      // the full profile: more sizes and batches
  std::vector<std::uint64_t> sizes;       // bandwidth working sets (--sizes); empty: the profile's sweep
  std::int64_t gemm_m = 0, gemm_k = 0;    // 0: the CPU gemm suite's default shape
  std::vector<int> batches;               // empty: the profile's batches
  double min_time_s = 0.05;
  int repetitions = 3;
  SuiteBudget* budget = nullptr;          // the running suite's (the harness'): work that would end past it is cut
  double cache_bytes = 0.0;               // the largest cache the bandwidth curve showed (quick GEMM shapes); 0: none
  std::vector<int> widths;                // bandwidth widths to run; empty: every one of kVectorWidths
};

// The bandwidth sweep: from the smallest size every kernel fills (16 KiB at 64 work-items) by octaves (the full
// profile adds x1.5 within each) to at least 4x the global cache and at least 256 MiB, each size's buffers capped
// at the max allocation (said in notes). One size per octave is what the plateau detection needs to find the
// cache and global-memory levels (at x4, 8 sizes, PoCL's curve gave one level).
std::vector<std::uint64_t> bandwidth_sizes(const DeviceFacts& d, const WorkOptions& o, std::vector<std::string>& notes);
// Whether kernel `k` runs at sizes[index] of `count`: read (the roof kernel) and triad at every size; the quick
// profile runs copy and write at every other size and the largest (as the CPU's quick sweep: two kernels swept,
// the others spot-checked); --sizes and the full profile run every kernel at every size.
bool sweeps_at(MemoryKernel k, std::size_t index, std::size_t count, const WorkOptions& o);

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
// The quick profile's shape: quick_gemm_side (bench/gemm_shape.hpp) of o.cache_bytes, else the CPU's default; the
// budget (o.budget) decides which batches run: one call is timed first and a batch whose estimated cost (its calls
// grow linearly with the batch) would end past the budget is left out with a note.
std::vector<DeviceWork> gemm_work(const std::shared_ptr<Session>& s, const std::string& precision,
                                  const WorkOptions& o, std::vector<std::string>& notes);

// What a harness-free caller does with a work: `iterations` timed runs, then validation. Returns the rate
// (bytes, FLOP or OP per second, whichever the work counts); throws std::runtime_error on a wrong result.
double run_and_validate(const DeviceWork& w, std::int64_t iterations);

}  // namespace roofline::opencl
