// The OpenCL Target: a device's suites run batch by batch through the harness (device_benchmark turns each
// DeviceWork into a manual-time BenchmarkSpec), each batch's device memory freed before the next; a device that
// fails mid-run ends the target with TargetLost naming it.
#include <cstdlib>

#include <unistd.h>  // environ

#include <fmt/format.h>

#include "roofline/bench/suite.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/opencl/provider.hpp"
#include "session_impl.hpp"

namespace roofline::opencl {
namespace {

class OpenClTarget : public Target {
 public:
  OpenClTarget(TargetFacts facts, std::shared_ptr<Session> s) : facts_(std::move(facts)), s_(std::move(s)) {}
  [[nodiscard]] const TargetFacts& facts() const override { return facts_; }

  [[nodiscard]] std::vector<std::string> suites() const override {
    std::vector<std::string> list{"bandwidth", "compute"};
    if (have_clblast()) list.emplace_back("gemm");
    list.insert(list.end(), {"transfer", "latency"});
    return list;
  }

  void run_suite(const std::string& suite, const RunConfig& config, Runner& runner, SuiteOutput& out) override {
    const WorkOptions o = work_options(config);
    if (suite == "bandwidth") return bandwidth(o, runner, out);
    if (suite == "compute") return compute(o, runner, out);
    if (suite == "gemm") return gemm(o, runner, out);
    if (suite == "transfer") return run_batch(transfer_work(s_, o.full ? 256ull << 20 : 64ull << 20, o, out.notes), runner);
    if (suite == "latency") return run_batch(latency_work(s_, o), runner);
    throw InputError(fmt::format("{} has no suite '{}' (it has bandwidth, compute, gemm, transfer, latency)",
                                 facts_.target, suite));
  }

 private:
  void bandwidth(const WorkOptions& o, Runner& runner, SuiteOutput& out) {
    const std::vector<std::uint64_t> sizes = bandwidth_sizes(s_->facts(), o, out.notes);
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      for (MemoryKernel k : kMemoryKernels) {
        if (sweeps_at(k, i, sizes.size(), o)) run_batch(bandwidth_work(s_, k, sizes[i], o, out.notes), runner);
      }
    }
    if (!o.full && o.sizes.empty()) {
      out.notes.push_back(fmt::format("{}: the quick profile sweeps read and triad at every size, copy and write at "
                                      "every other size and the largest (--profile full: every kernel, 2 sizes per octave)",
                                      facts_.target));
    }
    out.context["sizes"] = sizes;
    say_build(out);
  }

  void compute(const WorkOptions& o, Runner& runner, SuiteOutput& out) {
    for (ComputeKind k : kComputeKinds) {
      if (!supports(s_->facts(), k)) {
        out.notes.push_back(fmt::format("{}: {} not measured (the device lacks its extension)", facts_.target,
                                        to_string(k)));
        continue;
      }
      run_batch(compute_work(s_, k, o, out.notes), runner);
    }
    say_build(out);
  }

  void gemm(const WorkOptions& o, Runner& runner, SuiteOutput& out) {
    std::vector<std::string> precisions{"fp32"};
    if (s_->facts().fp16) precisions.emplace_back("fp16");
    for (const std::string& p : precisions) run_batch(gemm_work(s_, p, o, out.notes), runner);
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
  void run_batch(std::vector<DeviceWork> works, Runner& runner) {
    std::vector<BenchmarkSpec> specs;
    specs.reserve(works.size());
    for (const DeviceWork& w : works) specs.push_back(device_benchmark(w));
    runner.run(specs);
    if (!s_->impl().lost.empty()) throw TargetLost(s_->impl().lost);  // the harness caught the work's throw
  }

  TargetFacts facts_;
  std::shared_ptr<Session> s_;
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

std::unique_ptr<Target> open_target(const TargetFacts& facts) {
  try {
    auto s = std::make_shared<Session>(device_from_json(facts.details));
    // For the tests of a device lost mid-run (tests/opencl, tests/cli): its commands fail after this many.
    if (const char* lose = std::getenv("ROOFLINE_TEST_OPENCL_LOSE_AFTER")) s->simulate_loss_after(std::atoll(lose));
    return std::make_unique<OpenClTarget>(facts, std::move(s));
  } catch (const OpenClError& e) {
    throw TargetLost(fmt::format("{} ({}) could not be opened: {}", facts.target, facts.name, e.what()));
  }
}

TargetProvider opencl_provider() { return {"opencl", list_targets, open_target}; }

}  // namespace roofline::opencl
