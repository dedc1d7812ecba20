// The OpenCL Target: a device's suites run its plan (device_plan.hpp, fixed before the first measurement) batch by
// batch through the harness (device_benchmark turns each DeviceWork into a manual-time BenchmarkSpec), each batch's
// device memory freed before the next; nothing is cut at run time. A device that fails mid-run ends the target with
// TargetLost naming it.
#include <cstdlib>
#include <algorithm>
#include <map>

#include <unistd.h>  // environ

#include <fmt/format.h>

#include "roofline/harness/runner.hpp"
#include "roofline/harness/sweep_plan.hpp"
#include "roofline/common/statistics.hpp"
#include "roofline/common/units.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/opencl/device_plan.hpp"
#include "roofline/opencl/provider.hpp"
#include "session_impl.hpp"

namespace roofline::opencl {
namespace {

class OpenClTarget : public Target {
 public:
  OpenClTarget(TargetFacts facts, std::shared_ptr<Session> s, HostCaches host)
      : facts_(std::move(facts)), s_(std::move(s)), host_(std::move(host)) {}
  [[nodiscard]] const TargetFacts& facts() const override { return facts_; }

  [[nodiscard]] std::vector<std::string> suites() const override {
    std::vector<std::string> list{"bandwidth", "compute"};
    if (have_clblast()) list.emplace_back("gemm");
    list.insert(list.end(), {"transfer", "latency"});
    return list;
  }

  // The device's plan (device_plan.hpp), made once before the first measurement: the suites then run exactly it.
  [[nodiscard]] std::vector<SuitePlan> plan(const RunConfig& config) override {
    ensure_plan(config);
    return plan_.suites;
  }

  void run_suite(const std::string& suite, const RunConfig& config, Runner& runner, SuiteOutput& out) override {
    ensure_plan(config);
    const WorkOptions o = work_options(config);
    if (suite == "bandwidth") return bandwidth(o, runner, out);
    if (suite == "compute") return compute(o, runner, out);
    if (suite == "gemm") return gemm(o, runner, out);
    if (suite == "transfer") {
      run_batch(transfer_work(s_, plan_.transfer_bytes, o, out.notes), runner);
      return;
    }
    if (suite == "latency") {
      run_batch(latency_work(s_, o), runner);
      return;
    }
    throw InputError(fmt::format("{} has no suite '{}' (it has bandwidth, compute, gemm, transfer, latency)",
                                 facts_.target, suite));
  }

 private:
  void ensure_plan(const RunConfig& config) {
    if (planned_) return;
    std::vector<std::string> wanted;
    for (const std::string& suite : suites()) {
      if (config.wants_suite(suite)) wanted.push_back(suite);
    }
    plan_ = plan_device(s_->facts(), host_, config, wanted);
    planned_ = true;
  }

  // The planned sweep, size by size, each kernel in its planned widths: nothing is left out at run time. Where main
  // memory starts is the analysis's one rule (its memory levels, warned dram_not_reached where the curve does not
  // show it), as for every target.
  void bandwidth(const WorkOptions& o, Runner& runner, SuiteOutput& out) {
    for (const DeviceBandwidthStep& step : plan_.bandwidth) {
      WorkOptions ok = o;
      ok.widths = step.widths;
      run_batch(bandwidth_work(s_, step.kernel, step.bytes, ok, out.notes), runner);
    }
    out.context["sizes"] = plan_.sweep.sizes;
    out.context["planned_sizes"] = plan_.sweep.sizes;
    out.context["stop_rule"] = kNoStopRule;
    say_build(out);
  }

  void compute(const WorkOptions& o, Runner& runner, SuiteOutput& out) {
    for (ComputeKind k : kComputeKinds) {
      if (std::find(plan_.compute.begin(), plan_.compute.end(), k) == plan_.compute.end()) {
        out.notes.push_back(fmt::format("{}: {} not measured (the device lacks its extension)", facts_.target,
                                        to_string(k)));
        continue;
      }
      run_batch(compute_work(s_, k, o, out.notes), runner);
    }
    say_build(out);
  }

  // The planned shape, precisions and batches (device_plan.hpp: from the device's facts, never from this run's curve).
  void gemm(WorkOptions o, Runner& runner, SuiteOutput& out) {
    o.gemm_m = plan_.gemm_m;
    o.gemm_k = plan_.gemm_k;
    o.batches = plan_.gemm_batches;
    out.context["shape_source"] = plan_.shape_source;
    for (const std::string& p : plan_.gemm_precisions) run_batch(gemm_work(s_, p, o, out.notes), runner);
  }

  void say_build(SuiteOutput& out) const {
    out.context["build_seconds"] = s_->total_build_seconds();
    out.context["local_size"] = s_->local_size();
    out.context["device_timing"] = s_->device_timing();
    if (s_->facts().platform_vendor.find("pocl") != std::string::npos) out.context["pocl_environment"] = pocl_environment();
  }

  // PoCL's settings from the environment (POCL_*): POCL_WORK_GROUP_METHOD picks how a work-group's loop is
  // generated and vectorized, POCL_MAX_PTHREAD_COUNT / POCL_AFFINITY how many threads run it and where; a CPU
  // device's figures depend on them, so the run records them ({}: PoCL's defaults). On this Zen 4 guest the
  // methods read the same within noise (fp32 186 / 201 / 177 GFLOP/s default / loopvec / cbs).
  static nlohmann::json pocl_environment() {
    nlohmann::json env = nlohmann::json::object();
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
      const std::string kv = *e;
      const std::size_t eq = kv.find('=');
      if (kv.rfind("POCL_", 0) == 0 && eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    return env;
  }

  // One batch through the harness; the works (and their device buffers) are freed when it returns.
  std::vector<nlohmann::json> run_batch(std::vector<DeviceWork> works, Runner& runner) {
    std::vector<BenchmarkSpec> specs;
    specs.reserve(works.size());
    for (const DeviceWork& w : works) specs.push_back(device_benchmark(w));
    std::vector<nlohmann::json> entries = runner.run(specs);
    if (!s_->impl().lost.empty()) throw TargetLost(s_->impl().lost);  // the harness caught the work's throw
    return entries;
  }

  TargetFacts facts_;
  std::shared_ptr<Session> s_;
  HostCaches host_;
  DevicePlan plan_;
  bool planned_ = false;
};
}  // namespace

WorkOptions work_options(const RunConfig& config) {
  WorkOptions o;
  o.full = config.profile == Profile::full;
  o.sizes = config.sizes;
  o.gemm_m = config.gemm_m;
  o.gemm_k = config.gemm_k;
  o.batches = config.batches;
  return o;
}

std::unique_ptr<Target> open_target(const TargetFacts& facts, const HostCaches& host) {
  try {
    auto s = std::make_shared<Session>(device_from_json(facts.details));
    // For the tests of a device lost mid-run (tests/bench/targets/opencl, tests/bench/cli): its commands fail after this many.
    if (const char* lose = std::getenv("ROOFLINE_TEST_OPENCL_LOSE_AFTER")) s->simulate_loss_after(std::atoll(lose));
    return std::make_unique<OpenClTarget>(facts, std::move(s), host);
  } catch (const OpenClError& e) {
    throw TargetLost(fmt::format("{} ({}) could not be opened: {}", facts.target, facts.name, e.what()));
  }
}

TargetProvider opencl_provider(const MachineFacts& host) {
  const HostCaches caches = host_caches(host);
  return {"opencl", [caches](std::vector<std::string>& notes) { return list_targets(notes, caches); },
          [caches](const TargetFacts& f) { return open_target(f, caches); }};
}

}  // namespace roofline::opencl
