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
};

// Seconds between two CUDA events around `launch` (recorded on the default stream), synchronized.
double time_with_events(const std::function<void()>& launch);

// Launch geometry for memory and compute kernels: `blocks_per_sm` blocks of 256 threads on every SM.
struct Geometry {
  int blocks = 0;
  int threads = 256;
};
Geometry full_occupancy(const CudaProperties& p);

// The bandwidth sweep: every kernel at every working set (bytes of all its arrays together), over buffers allocated
// once for the largest. A launch makes enough passes to move at least 1 GiB, so launch cost stays under a percent.
std::vector<Work> bandwidth_works(const CudaProperties& p, const std::vector<std::uint64_t>& working_sets);
// The FMA chains, one launch about 10 ms on the device the table expects.
std::vector<Work> fma_works(const CudaProperties& p);
// One cuBLASLt problem; throws Unsupported when cuBLASLt has no algorithm for it. `suite`: "compute" (a tensor
// ceiling, labels kernel "gemm") or "gemm" (labels kernel gemv when n = 1, else gemm). The engine label is
// "matrix" when cuBLASLt chose a tensor-core kernel, else "vector".
Work gemm_work(LtContext& context, GemmType type, std::int64_t m, std::int64_t n, std::int64_t k, const std::string& suite);
// Host-device copies of `bytes`, pinned (cudaMallocHost) or pageable (plain host memory, touched first).
Work transfer_work(bool host_to_device, bool pinned, std::uint64_t bytes);
// Empty-kernel launches, each waited for (host clock): the launch latency.
Work launch_work();

// The SM clock under an fp32 FMA load: clock64() cycles of the longest block over the kernel's event time.
double measure_sm_clock_hz(const CudaProperties& p);

GemmType gemm_type_from_precision(const std::string& precision);  // "fp8" -> fp8_e4m3; throws std::invalid_argument

}  // namespace roofline::cuda
