// The CUDA target: see target.hpp. Each suite plans from the device's facts (plan.hpp), prepares its work
// (measure.hpp) and hands it to the harness as DeviceWork, timed by CUDA events; a device error mid-run becomes
// TargetLost, cuBLASLt's "no algorithm for this shape" a note.
#include "roofline/cuda/target.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>

#include <fmt/format.h>

#include "roofline/bench/run_config.hpp"
#include "roofline/bench/suite.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/cuda/facts.hpp"
#include "roofline/cuda/measure.hpp"
#include "roofline/cuda/nvml.hpp"
#include "roofline/cuda/plan.hpp"
#include "roofline/kernels/cuda/check.hpp"

namespace roofline::cuda {
namespace {

DeviceWork to_device_work(Work w) {
  DeviceWork d;
  d.name = std::move(w.name);
  d.labels = nlohmann::json::object();
  for (auto& [key, value] : w.text_labels) d.labels[key] = value;
  for (auto& [key, value] : w.number_labels) d.labels[key] = value;
  d.run = std::move(w.run);
  d.validate = std::move(w.validate);
  d.bytes = w.bytes;
  d.flop = w.flop;
  d.op = w.op;
  d.working_set_bytes = w.working_set_bytes;
  d.device_timed = w.device_timed;
  return d;
}

void run_works(std::vector<Work> works, Runner& runner) {
  std::vector<BenchmarkSpec> specs;
  specs.reserve(works.size());
  for (Work& w : works) specs.push_back(device_benchmark(to_device_work(std::move(w))));
  runner.run(specs);
}

nlohmann::json sample_json(const NvmlSample& s) {
  if (!s.valid) return {{"valid", false}, {"error", s.error}};
  return {{"valid", true}, {"sm_clock_hz", s.sm_clock_hz}, {"max_sm_clock_hz", s.max_sm_clock_hz},
          {"throttle_reasons", s.throttle_reasons}, {"throttle_names", s.throttle_names},
          {"temperature_c", s.temperature_c}, {"power_w", s.power_w}};
}

class CudaTarget final : public Target {
 public:
  CudaTarget(CudaProperties props, TargetFacts facts) : props_(std::move(props)), facts_(std::move(facts)) {
    check_cuda(cudaSetDevice(props_.index), "cudaSetDevice");
  }
  [[nodiscard]] const TargetFacts& facts() const override { return facts_; }
  [[nodiscard]] std::vector<std::string> suites() const override { return cuda_suites(); }

  void run_suite(const std::string& suite, const RunConfig& config, Runner& runner, SuiteOutput& out) override {
    try {
      check_cuda(cudaSetDevice(props_.index), "cudaSetDevice");
      const CudaPlan plan = make_plan(config);
      for (const std::string& note : plan.notes) out.notes.push_back(facts_.target + ": " + note);
      if (suite == "bandwidth") return run_bandwidth(plan, runner, out);
      if (suite == "compute") return run_compute(plan, runner, out);
      if (suite == "gemm") return run_gemm(plan, runner, out);
      if (suite == "transfer") return run_transfer(plan, runner, out);
      if (suite == "latency") return run_works({launch_work()}, runner);
      throw InputError(fmt::format("--suites: the CUDA target has no suite '{}' (it has {})", suite,
                                   fmt::join(cuda_suites(), ", ")));
    } catch (const CudaError& e) {
      throw TargetLost(fmt::format("{} ({}): {}", facts_.target, facts_.name, e.what()));
    }
  }

 private:
  CudaPlan make_plan(const RunConfig& config) const {
    std::size_t free = 0;
    std::size_t total = 0;
    check_cuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    CudaPlan plan = plan_cuda({config.profile == Profile::quick, props_.l2_bytes, free, compute_capability(props_)});
    // --sizes and --batches apply to the device as to the CPU (working sets of all arrays; batches of every sweep).
    if (!config.sizes.empty()) {
      plan.bandwidth_bytes.clear();
      for (std::uint64_t b : config.sizes) plan.bandwidth_bytes.push_back(std::max<std::uint64_t>(48, b / 48 * 48));
      if (bandwidth_allocation_bytes(*std::max_element(config.sizes.begin(), config.sizes.end())) > free) {
        throw InputError(fmt::format("--sizes: the largest size does not fit {}'s free memory ({} bytes)", facts_.target, free));
      }
    }
    if (!config.batches.empty()) {
      for (GemmSweep& sweep : plan.gemm_sweeps) sweep.batches = config.batches;
    }
    return plan;
  }

  LtContext& lt() {
    if (!lt_) lt_ = std::make_unique<LtContext>();
    return *lt_;
  }

  void run_bandwidth(const CudaPlan& plan, Runner& runner, SuiteOutput& out) {
    out.context["working_sets"] = plan.bandwidth_bytes;
    out.context["target_bytes"] = plan.bandwidth_target_bytes;
    nlohmann::json rows = nlohmann::json::array();
    for (MemoryKernel k : kMemoryKernels) {
      const MemoryKernelRow& r = memory_row(k);
      rows.push_back({{"kernel", r.name}, {"arrays_read", r.arrays_read}, {"arrays_written", r.arrays_written}});
    }
    out.context["kernels"] = rows;
    run_works(bandwidth_works(props_, plan.bandwidth_bytes), runner);
  }

  void run_compute(const CudaPlan& plan, Runner& runner, SuiteOutput& out) {
    run_works(fma_works(props_), runner);
    const double clock = measure_sm_clock_hz(props_);
    const NvmlSample after_fma = nvml_.sample(props_.pci_bus_id);
    out.context["sm_clock_under_load_hz"] = clock;
    out.context["nvml_after_fma"] = sample_json(after_fma);
    if (!nvml_.available()) out.notes.push_back(facts_.target + ": no NVML samples: " + nvml_.why_not());
    for (const std::string& precision : plan.ceiling_precisions) {
      try {
        std::vector<Work> one;
        one.push_back(gemm_work(lt(), gemm_type_from_precision(precision), plan.ceiling_size, plan.ceiling_size,
                                plan.ceiling_size, "compute"));
        run_works(std::move(one), runner);
      } catch (const Unsupported& e) {
        out.notes.push_back(facts_.target + ": " + e.what());
      }
    }
    out.context["nvml_after_tensor"] = sample_json(nvml_.sample(props_.pci_bus_id));
  }

  void run_gemm(const CudaPlan& plan, Runner& runner, SuiteOutput& out) {
    nlohmann::json shapes = nlohmann::json::array();
    for (const WeightShape& s : plan.gemm_shapes) shapes.push_back({{"m", s.m}, {"k", s.k}, {"why", s.why}});
    out.context["shapes"] = shapes;
    for (const WeightShape& shape : plan.gemm_shapes) {
      for (const GemmSweep& sweep : plan.gemm_sweeps) {
        for (int n : sweep.batches) {
          // One problem at a time: its operands are freed before the next is allocated.
          try {
            std::vector<Work> one;
            one.push_back(gemm_work(lt(), gemm_type_from_precision(sweep.precision), shape.m, n, shape.k, "gemm"));
            run_works(std::move(one), runner);
          } catch (const Unsupported& e) {
            out.notes.push_back(facts_.target + ": " + e.what());
          }
        }
      }
    }
  }

  void run_transfer(const CudaPlan& plan, Runner& runner, SuiteOutput& out) {
    out.context["bytes"] = plan.transfer_bytes;
    std::vector<Work> works;
    for (bool to_device : {true, false}) {
      for (bool pinned : {true, false}) works.push_back(transfer_work(to_device, pinned, plan.transfer_bytes));
    }
    run_works(std::move(works), runner);
  }

  CudaProperties props_;
  TargetFacts facts_;
  Nvml nvml_;
  std::unique_ptr<LtContext> lt_;
};

}  // namespace

const std::vector<std::string>& cuda_suites() {
  static const std::vector<std::string> suites{"bandwidth", "compute", "gemm", "transfer", "latency"};
  return suites;
}

TargetProvider cuda_target_provider() {
  TargetProvider p;
  p.api = kCudaApi;
  p.list = [](std::vector<std::string>& notes) {
    std::vector<TargetFacts> out;
    for (const CudaProperties& props : discover_cuda_devices(notes)) out.push_back(cuda_target_facts(props));
    return out;
  };
  p.open = [](const TargetFacts& facts) -> std::unique_ptr<Target> {
    try {
      return std::make_unique<CudaTarget>(cuda_properties_from_json(facts.details), facts);
    } catch (const CudaError& e) {
      throw TargetLost(fmt::format("{} ({}): {}", facts.target, facts.name, e.what()));
    }
  };
  return p;
}

}  // namespace roofline::cuda
