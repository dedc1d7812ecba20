// The CUDA target's units of measurement (issue 23): each a prepared piece of work (buffers allocated and filled,
// cuBLASLt's algorithm chosen) with a run(iterations) that returns seconds from CUDA events (the host clock for
// launch latency), a validator and the counts it moves or computes. The Target (target.cpp) hands them to the
// harness as DeviceWork; the device check's probe (probe.cpp) times them itself. Plain C++ on top of kernels/cuda,
// no harness types, so the probe builds on the GPU machine with nvcc alone.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "roofline/harness/benchmark_name.hpp"
#include "roofline/cuda/names.hpp"
#include "roofline/cuda/nvml.hpp"
#include "roofline/cuda/properties.hpp"
#include "roofline/kernels/cuda/compute.hpp"
#include "roofline/kernels/cuda/gemm_cublaslt.hpp"
#include "roofline/kernels/cuda/memory.hpp"

namespace roofline::cuda {

struct Work {
  std::string name;                                              // "bandwidth/read/bytes:1048576"
  std::vector<std::pair<std::string, std::string>> text_labels;  // suite, kernel, precision, engine, ...
  std::vector<std::pair<std::string, double>> number_labels;     // width, batch, m, n, k
  std::function<double(std::int64_t)> run;                       // seconds for `iterations` back to back
  std::function<std::string()> validate;                         // "" when right
  double bytes = 0, flop = 0, op = 0, working_set_bytes = 0;     // per iteration
  bool device_timed = true;
  // The SM clock (Hz) the work ran at in the runs since the last call, measured during them (0: none); the
  // theoretical peak of a compute entry is taken at it (DeviceWork::clock_hz). Empty: no clock for this work.
  std::function<double()> clock_hz;
  // NVML samples taken while the work ran (tensor ceilings): power and thermal limits under load, for the context.
  std::shared_ptr<std::vector<NvmlSample>> samples;
};

// Seconds between two CUDA events around `launch` (recorded on the default stream), synchronized. `during` runs
// on the host after the stop event is queued and before waiting for it, so it sees the device busy.
double time_with_events(const std::function<void()>& launch, const std::function<void()>& during = {});

// Launch geometry for memory and compute kernels: 256 threads a block, as many blocks on every SM as the
// kernel's registers and shared memory let stay resident (cudaOccupancyMaxActiveBlocksPerMultiprocessor).
struct Geometry {
  int blocks = 0;
  int threads = 256;
};
Geometry occupancy_geometry(const CudaProperties& p, int blocks_per_sm);

// Each timed call of the harness must hold at least `min_seconds` of device work, or launch cost and the event
// pair's resolution end up inside every sample: how many of one call's iterations make it, from the seconds one
// iteration took (pure, tested).
std::int64_t iterations_to_hold(double seconds_per_iteration, double min_seconds);
inline constexpr double kMinSecondsPerCall = 1e-3;
// Times one iteration of `w` (after a warm-up call) and makes each later call of w.run(n) run n x k of them, with
// bytes, FLOP and OP per iteration scaled by k and the label "iterations_per_call" = k, so that one call holds at
// least kMinSecondsPerCall. Plain C++ over Work (tested with a fake); a device-timed work only.
void hold_at_least(Work& w, double min_seconds = kMinSecondsPerCall);

// The bandwidth sweep: every kernel at every working set (bytes of all its arrays together), over buffers allocated
// once for the largest. A launch makes enough passes to move at least 1 GiB, so launch cost stays under a percent.
std::vector<Work> bandwidth_works(const CudaProperties& p, const std::vector<std::uint64_t>& working_sets);
// The FMA chains, one launch about 10 ms on the device the table expects; each work's clock_hz is the SM clock of
// its own timed launches (clock64 cycles of the longest block over the launch's event time).
std::vector<Work> fma_works(const CudaProperties& p);
// One cuBLASLt problem; throws Unsupported when cuBLASLt has no algorithm for it. `suite`: "compute" (a tensor
// ceiling, labels kernel "gemm") or "gemm" (labels kernel gemv when n = 1, else gemm). The engine label is
// "matrix" when cuBLASLt chose a tensor-core kernel, else "vector". With `nvml`, NVML is sampled during every
// timed call (samples) and clock_hz is the mean SM clock NVML read during the runs since its last call.
Work gemm_work(LtContext& context, GemmType type, std::int64_t m, std::int64_t n, std::int64_t k, const std::string& suite,
               const Nvml* nvml = nullptr, const std::string& pci_bus_id = "");
// Host-device copies of `bytes`, pinned (cudaMallocHost) or pageable (plain host memory, touched first).
Work transfer_work(bool host_to_device, bool pinned, std::uint64_t bytes);
// Empty-kernel launches, each waited for (host clock): the launch latency.
Work launch_work();

// The SM clock under an fp32 FMA load (about 60 ms): clock64() cycles of the longest block over the kernel's event
// time. `during` runs while the kernel does (an NVML sample under load).
double measure_sm_clock_hz(const CudaProperties& p, const std::function<void()>& during = {});

GemmType gemm_type_from_precision(const std::string& precision);  // "fp8" -> fp8_e4m3; throws std::invalid_argument

}  // namespace roofline::cuda
