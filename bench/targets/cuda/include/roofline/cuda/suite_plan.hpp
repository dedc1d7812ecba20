// The CUDA target's plan of a run (issue 61, step 4), fixed before the first measurement like every other target's
// (run_plan.hpp: `roofline run --plan`, context.plan): plan_cuda's sweep and shapes for the run's configuration
// (--sizes, --batches) and free memory, and every benchmark it will run, named as its work names it (names.hpp), with
// its repetitions and an estimated time. The target (target.cpp) plans once and its suites run exactly this plan.
// Plain C++ (no CUDA), so host tests check it without a GPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "roofline/cuda/plan.hpp"
#include "roofline/harness/run_config.hpp"
#include "roofline/harness/run_plan.hpp"

namespace roofline::cuda {

// The suites the CUDA target offers, in the order they run.
const std::vector<std::string>& cuda_suites();

// plan_cuda for `config`: the quick sweep for every profile but full, --sizes as the working sets (whole 48-byte
// steps; InputError naming `target` when the largest does not fit `in.memory_free_bytes`), --batches as every
// GEMM sweep's batches.
CudaPlan plan_cuda_run(const CudaPlanInput& in, const RunConfig& config, const std::string& target);

// Every benchmark of the suites `config` asks for, in run order, as the target's suites run them: the bandwidth
// sweep (each kernel at each working set), the FMA chains and the tensor ceilings, the GEMV/GEMM sweeps per shape,
// the four transfers and the launch latency. Each suite carries its device budget and, when the estimate is over
// it, says so (nothing is cut at run time). The plan's notes (caps, types left out) are the bandwidth suite's.
std::vector<SuitePlan> cuda_suite_plans(const CudaPlan& plan, const RunConfig& config, const std::string& target);

}  // namespace roofline::cuda
