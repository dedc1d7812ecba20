// The CUDA target: see target.hpp. Each suite plans from the device's facts (plan.hpp), prepares its work
// (measure.hpp) and hands it to the harness as DeviceWork, timed by CUDA events. A call that fails while one entry
// is prepared (an allocation, cuBLASLt refusing a shape with an error) fails that entry, named, and the suite goes
// on; only a sticky device error (check.hpp: the context is lost) becomes TargetLost. cuBLASLt's "no algorithm for
// this type and shape" (Unsupported) is a note: such an entry was never possible (fp8 at n = 1).
#include "roofline/cuda/target.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "roofline/harness/benchmark_name.hpp"
#include "roofline/harness/run_config.hpp"
#include "roofline/harness/runner.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/cuda/device_work.hpp"
#include "roofline/cuda/facts.hpp"
#include "roofline/cuda/measure.hpp"
#include "roofline/cuda/nvml.hpp"
#include "roofline/cuda/plan.hpp"
#include "roofline/cuda/suite_plan.hpp"
#include "roofline/kernels/cuda/check.hpp"

namespace roofline::cuda {
namespace {

using Labels = nlohmann::json;

// After a suite's entries ran: a sticky error caught inside one of them (the harness fails that entry) means the
// context is gone and every later entry would fail too, so the target is lost.
void check_device_alive() {
  const cudaError_t status = cudaDeviceSynchronize();
  if (is_sticky_cuda_error(status)) {
    throw CudaError(std::string("device lost: ") + cudaGetErrorString(status), status, true);
  }
  if (status != cudaSuccess) (void)cudaGetLastError();  // a non-sticky error was an entry's, already reported
}

void run_works(std::vector<Work> works, Runner& runner) {
  std::vector<BenchmarkSpec> specs;
  specs.reserve(works.size());
  for (Work& w : works) specs.push_back(device_benchmark(to_device_work(std::move(w))));
  runner.run(specs);
  check_device_alive();
}

// An entry whose preparation failed: it runs as a DeviceWork whose every call throws `why`, so the results file
// holds it as a failed entry (error_occurred, its name and labels) and the run exits 1 naming it.
DeviceWork failed_work(const std::string& name, nlohmann::json labels, const std::string& why) {
  DeviceWork d;
  d.name = name;
  d.labels = std::move(labels);
  d.run = [why](std::int64_t) -> double { throw std::runtime_error("preparing it failed: " + why); };
  d.repetitions = 1;
  d.min_time_s = 1e-6;  // one iteration: there is nothing to time
  return d;
}

// Prepares one entry's (or one batch's) work and runs it; a non-sticky CudaError while preparing becomes the failed
// entry `name`, a sticky one goes up (TargetLost), Unsupported becomes a note.
template <typename Prepare>
void run_prepared(const std::string& name, const nlohmann::json& labels, Prepare&& prepare, Runner& runner,
                  SuiteOutput& out, const std::string& target) {
  std::vector<Work> works;
  try {
    works = prepare();
  } catch (const Unsupported& e) {
    out.notes.push_back(target + ": " + e.what());
    return;
  } catch (const CudaError& e) {
    if (e.sticky()) throw;
    (void)cudaGetLastError();  // clear a non-sticky error so that the next entry starts clean
    runner.run({device_benchmark(failed_work(name, labels, e.what()))});
    return;
  }
  run_works(std::move(works), runner);
}

nlohmann::json sample_json(const NvmlSample& s) {
  if (!s.valid) return {{"valid", false}, {"error", s.error}};
  return {{"valid", true}, {"sm_clock_hz", s.sm_clock_hz}, {"max_sm_clock_hz", s.max_sm_clock_hz},
          {"throttle_reasons", s.throttle_reasons}, {"throttle_names", s.throttle_names},
          {"temperature_c", s.temperature_c}, {"power_w", s.power_w}};
}

nlohmann::json summary_json(const NvmlSummary& s) {
  if (s.samples == 0) return {{"samples", 0}};
  return {{"samples", s.samples}, {"sm_clock_hz_min", s.sm_clock_hz_min}, {"sm_clock_hz_mean", s.sm_clock_hz_mean},
          {"sm_clock_hz_max", s.sm_clock_hz_max}, {"throttle_names", s.throttle_names}, {"power_w_max", s.power_w_max},
          {"temperature_c_max", s.temperature_c_max}};
}

class CudaTarget final : public Target {
 public:
  CudaTarget(CudaProperties props, TargetFacts facts) : props_(std::move(props)), facts_(std::move(facts)) {
    check_cuda(cudaSetDevice(props_.index), "cudaSetDevice");
  }
  [[nodiscard]] const TargetFacts& facts() const override { return facts_; }
  [[nodiscard]] std::vector<std::string> suites() const override { return cuda_suites(); }

  // The plan of the whole run (suite_plan.hpp), made once from the device's free memory now: the suites then run
  // exactly it, whatever another process allocates in between. An entry cuBLASLt refuses at run time (no algorithm
  // for its type and shape) stays planned; the run's notes name it.
  [[nodiscard]] std::vector<SuitePlan> plan(const RunConfig& config) override {
    try {
      return cuda_suite_plans(planned(config), config, facts_.target);
    } catch (const CudaError& e) {
      throw TargetLost(fmt::format("{} ({}): planning: {}", facts_.target, facts_.name, e.what()));
    }
  }

  void run_suite(const std::string& suite, const RunConfig& config, Runner& runner, SuiteOutput& out) override {
    try {
      check_cuda(cudaSetDevice(props_.index), "cudaSetDevice");
      const CudaPlan& plan = planned(config);
      for (const std::string& note : plan.notes) out.notes.push_back(facts_.target + ": " + note);
      if (suite == "bandwidth") return run_bandwidth(plan, runner, out);
      if (suite == "compute") return run_compute(plan, runner, out);
      if (suite == "gemm") return run_gemm(plan, runner, out);
      if (suite == "transfer") return run_transfer(plan, runner, out);
      if (suite == "latency") {
        return run_prepared(latency_benchmark_name(), {{"suite", "latency"}}, [] { return std::vector<Work>{launch_work()}; },
                            runner, out, facts_.target);
      }
      throw InputError(fmt::format("--suites: the CUDA target has no suite '{}' (it has {})", suite,
                                   fmt::join(cuda_suites(), ", ")));
    } catch (const CudaError& e) {
      // Sticky, or outside any one entry (the plan's cudaMemGetInfo): the suite cannot go on.
      throw TargetLost(fmt::format("{} ({}): {}{}", facts_.target, facts_.name, e.what(),
                                   e.sticky() ? "" : " (outside any one entry)"));
    }
  }

 private:
  const CudaPlan& planned(const RunConfig& config) {
    if (!plan_) {
      check_cuda(cudaSetDevice(props_.index), "cudaSetDevice");
      std::size_t free = 0;
      std::size_t total = 0;
      check_cuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
      plan_ = plan_cuda_run({config.profile != Profile::full, props_.l2_bytes, free, compute_capability(props_)}, config,
                            facts_.target);
    }
    return *plan_;
  }

  const Nvml* nvml() const { return nvml_.available() ? &nvml_ : nullptr; }

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
    const std::uint64_t largest = plan.bandwidth_bytes.empty() ? 0 : plan.bandwidth_bytes.back();
    BenchmarkKey allocation("bandwidth", {"allocation"});  // the sweep's one allocation, named when it fails
    allocation.bytes = largest;
    run_prepared(benchmark_name(allocation), {{"suite", "bandwidth"}},
                 [&] { return bandwidth_works(props_, plan.bandwidth_bytes); }, runner, out, facts_.target);
  }

  void run_compute(const CudaPlan& plan, Runner& runner, SuiteOutput& out) {
    const Labels compute{{"suite", "compute"}};
    run_prepared(benchmark_name(BenchmarkKey("compute", {"fma"})), compute, [&] { return fma_works(props_); }, runner,
                 out, facts_.target);
    // The SM clock under an fp32 load, NVML sampled while that load runs (power and thermal limits show then).
    NvmlSample during;
    try {
      const double clock = measure_sm_clock_hz(props_, [&] { during = nvml_.sample(props_.pci_bus_id); });
      out.context["sm_clock_under_load_hz"] = clock;
    } catch (const CudaError& e) {
      if (e.sticky()) throw;
      out.notes.push_back(facts_.target + ": the SM clock under load was not measured: " + e.what());
    }
    out.context["nvml_during_fma"] = sample_json(during);
    if (!nvml_.available()) out.notes.push_back(facts_.target + ": no NVML samples: " + nvml_.why_not());
    std::map<std::string, std::shared_ptr<std::vector<NvmlSample>>> tensor_samples;
    for (const std::string& precision : plan.ceiling_precisions) {
      const std::int64_t s = plan.ceiling_size;
      run_prepared(gemm_name("compute", precision, s, s, s),
                   {{"suite", "compute"}, {"kernel", "gemm"}, {"backend", "cublaslt"}, {"precision", precision}},
                   [&] {
                     std::vector<Work> one;
                     one.push_back(gemm_work(lt(), gemm_type_from_precision(precision), s, s, s, "compute", nvml(),
                                             props_.pci_bus_id));
                     if (one.back().samples) tensor_samples[precision] = one.back().samples;
                     return one;
                   },
                   runner, out, facts_.target);
    }
    // What NVML read while each tensor ceiling ran: its clock range, throttle reasons, power and temperature.
    nlohmann::json during_tensor = nlohmann::json::object();
    for (const auto& [precision, samples] : tensor_samples) during_tensor[precision] = summary_json(summarize(*samples));
    out.context["nvml_during_tensor"] = during_tensor;
  }

  void run_gemm(const CudaPlan& plan, Runner& runner, SuiteOutput& out) {
    nlohmann::json shapes = nlohmann::json::array();
    for (const WeightShape& s : plan.gemm_shapes) shapes.push_back({{"m", s.m}, {"k", s.k}, {"why", s.why}});
    out.context["shapes"] = shapes;
    for (const WeightShape& shape : plan.gemm_shapes) {
      for (const GemmSweep& sweep : plan.gemm_sweeps) {
        for (int n : sweep.batches) {
          // One problem at a time: its operands are freed before the next is allocated.
          run_prepared(gemm_name("gemm", sweep.precision, shape.m, n, shape.k),
                       {{"suite", "gemm"}, {"kernel", n == 1 ? "gemv" : "gemm"}, {"backend", "cublaslt"},
                        {"precision", sweep.precision}, {"batch", n}},
                       [&] {
                         std::vector<Work> one;
                         one.push_back(gemm_work(lt(), gemm_type_from_precision(sweep.precision), shape.m, n, shape.k,
                                                 "gemm", nullptr));
                         return one;
                       },
                       runner, out, facts_.target);
        }
      }
    }
  }

  void run_transfer(const CudaPlan& plan, Runner& runner, SuiteOutput& out) {
    out.context["bytes"] = plan.transfer_bytes;
    for (bool to_device : {true, false}) {
      for (bool pinned : {true, false}) {
        const std::string direction = to_device ? "host_to_device" : "device_to_host";
        const std::string memory = pinned ? "pinned" : "pageable";
        run_prepared(transfer_benchmark_name(direction, memory, plan.transfer_bytes),
                     {{"suite", "transfer"}, {"direction", direction}, {"memory", memory}},
                     [&] { return std::vector<Work>{transfer_work(to_device, pinned, plan.transfer_bytes)}; }, runner,
                     out, facts_.target);
      }
    }
  }

  CudaProperties props_;
  TargetFacts facts_;
  Nvml nvml_;
  std::unique_ptr<LtContext> lt_;
  std::optional<CudaPlan> plan_;
};

}  // namespace

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
