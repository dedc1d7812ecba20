// The CUDA target's plan of a run: see suite_plan.hpp. The estimates use planning rates on the low end of the parts
// the peak table covers (a plain HBM part, cuBLASLt at a tenth of its tensor peak), as the OpenCL plan's do: they say
// what the run will take, they decide nothing, and a suite that takes longer says so (measure.cpp).
#include "roofline/cuda/suite_plan.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/common/vocabulary.hpp"
#include "roofline/cuda/measure.hpp"
#include "roofline/cuda/names.hpp"
#include "roofline/harness/benchmark_name.hpp"
#include "roofline/harness/profile.hpp"
#include "roofline/harness/target.hpp"

namespace roofline::cuda {
namespace {

constexpr double kBytesPerS = 1e12;         // device memory
constexpr double kFlopPerS = 5e13;          // cuBLASLt GEMMs
constexpr double kFillBytesPerS = 1e11;     // operands and arrays allocated and filled on the device
constexpr double kTransferBytesPerS = 1e10; // PCIe, pageable
constexpr double kHostFillBytesPerS = 1e9;  // a transfer's host buffer written by one thread
constexpr double kLtSetupS = 0.01;          // cuBLASLt's heuristic and descriptors, per problem
constexpr double kFmaLaunchS = 0.01;        // an FMA chain launch (measure.cpp: about 10 ms)
constexpr double kClockS = 0.07;            // the SM clock under load after the FMA chains (60 ms and its warm-up)
constexpr double kLaunchS = 1e-5;           // an empty kernel launched and waited for
constexpr std::uint64_t kGiB = 1ULL << 30U;

// A work as the harness runs it (DeviceWork's defaults): the untimed call and hold_at_least's timing call, then
// each repetition: one call when it fills the minimum time, else the sizing call and the window (~1.4x its growth).
double work_seconds(double call_s) {
  const DeviceWork d;
  const double repetition = call_s >= d.min_time_s ? call_s : call_s + 1.4 * d.min_time_s;
  return 2.0 * call_s + d.repetitions * repetition;
}

// A device-timed call holds at least a millisecond (hold_at_least).
double held(double call_s) { return std::max(call_s, kMinSecondsPerCall); }

// One cuBLASLt problem: its operands made, its algorithm chosen, its work (compute- or memory-bound).
double gemm_seconds(const std::string& precision, std::int64_t m, std::int64_t n, std::int64_t k) {
  const std::optional<Precision> p = parse_precision(precision);
  const double bytes_per_value = p ? element_bytes(*p) : 4.0;
  const double flop = 2.0 * double(m) * double(n) * double(k);
  const double bytes = (double(m) * double(k) + double(k) * double(n) + double(m) * double(n)) * bytes_per_value;
  return bytes / kFillBytesPerS + kLtSetupS + work_seconds(held(std::max(flop / kFlopPerS, bytes / kBytesPerS)));
}

PlanEntry entry(const std::string& target, const std::string& suite, std::string name, double estimate_s) {
  return {target, suite, std::move(name), 0, DeviceWork{}.repetitions, estimate_s};
}

SuitePlan bandwidth_suite(const CudaPlan& plan, const std::string& target, SuitePlan s) {
  const std::uint64_t largest = plan.bandwidth_bytes.empty() ? 0 : plan.bandwidth_bytes.back();
  double allocation = double(bandwidth_allocation_bytes(largest)) / kFillBytesPerS;  // counted once, first
  for (MemoryKernel k : kMemoryKernels) {
    for (std::uint64_t ws : plan.bandwidth_bytes) {
      // A launch makes enough passes to move at least 1 GiB (measure.cpp), its arrays filled on its first call.
      const double launch = double(std::max(bandwidth_counted_bytes(k, ws), kGiB)) / kBytesPerS;
      s.entries.push_back(entry(target, "bandwidth", bandwidth_name(k, ws),
                                allocation + double(ws) / kFillBytesPerS + work_seconds(held(launch))));
      allocation = 0.0;
    }
  }
  s.notes = plan.notes;
  return s;
}

SuitePlan compute_suite(const CudaPlan& plan, const std::string& target, SuitePlan s) {
  for (ComputeKind k : kComputeKinds) {
    const bool last = k == kComputeKinds.back();  // the SM clock is measured after the last chain
    s.entries.push_back(entry(target, "compute", fma_name(k), work_seconds(kFmaLaunchS) + (last ? kClockS : 0.0)));
  }
  const std::int64_t n = plan.ceiling_size;
  for (const std::string& precision : plan.ceiling_precisions) {
    s.entries.push_back(entry(target, "compute", gemm_name("compute", precision, n, n, n), gemm_seconds(precision, n, n, n)));
  }
  return s;
}

SuitePlan gemm_suite(const CudaPlan& plan, const std::string& target, SuitePlan s) {
  for (const WeightShape& shape : plan.gemm_shapes) {
    for (const GemmSweep& sweep : plan.gemm_sweeps) {
      for (int n : sweep.batches) {
        s.entries.push_back(entry(target, "gemm", gemm_name("gemm", sweep.precision, shape.m, n, shape.k),
                                  gemm_seconds(sweep.precision, shape.m, n, shape.k)));
      }
    }
  }
  return s;
}

SuitePlan transfer_suite(const CudaPlan& plan, const std::string& target, SuitePlan s) {
  const auto bytes = double(plan.transfer_bytes);
  for (bool to_device : {true, false}) {
    for (bool pinned : {true, false}) {
      s.entries.push_back(entry(target, "transfer",
                                transfer_benchmark_name(to_device ? "host_to_device" : "device_to_host",
                                                        pinned ? "pinned" : "pageable", plan.transfer_bytes),
                                bytes / kHostFillBytesPerS + work_seconds(held(bytes / kTransferBytesPerS))));
    }
  }
  return s;
}

}  // namespace

const std::vector<std::string>& cuda_suites() {
  static const std::vector<std::string> suites{"bandwidth", "compute", "gemm", "transfer", "latency"};
  return suites;
}

CudaPlan plan_cuda_run(const CudaPlanInput& in, const RunConfig& config, const std::string& target) {
  CudaPlan plan = plan_cuda(in);
  // --sizes and --batches apply to the device as to the CPU (working sets of all arrays; batches of every sweep).
  if (!config.sizes.empty()) {
    plan.bandwidth_bytes.clear();
    for (std::uint64_t b : config.sizes) plan.bandwidth_bytes.push_back(std::max<std::uint64_t>(48, b / 48 * 48));
    if (bandwidth_allocation_bytes(*std::max_element(config.sizes.begin(), config.sizes.end())) > in.memory_free_bytes) {
      throw InputError(fmt::format("--sizes: the largest size does not fit {}'s free memory ({} bytes)", target,
                                   in.memory_free_bytes));
    }
  }
  if (!config.batches.empty()) {
    for (GemmSweep& sweep : plan.gemm_sweeps) sweep.batches = config.batches;
  }
  return plan;
}

std::vector<SuitePlan> cuda_suite_plans(const CudaPlan& plan, const RunConfig& config, const std::string& target) {
  std::vector<SuitePlan> out;
  for (const std::string& suite : cuda_suites()) {
    if (!config.wants_suite(suite)) continue;
    SuitePlan s{target, suite, suite_budget_seconds(config.profile, true, suite), {}, {}};
    if (suite == "bandwidth") s = bandwidth_suite(plan, target, std::move(s));
    if (suite == "compute") s = compute_suite(plan, target, std::move(s));
    if (suite == "gemm") s = gemm_suite(plan, target, std::move(s));
    if (suite == "transfer") s = transfer_suite(plan, target, std::move(s));
    if (suite == "latency") s.entries.push_back(entry(target, "latency", latency_benchmark_name(), work_seconds(kLaunchS)));
    if (s.budget_s > 0.0 && s.estimated_seconds() > s.budget_s) {
      s.notes.push_back(fmt::format("estimated {:.1f} s, over its {:.0f} s budget: nothing is cut at run time",
                                    s.estimated_seconds(), s.budget_s));
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace roofline::cuda
