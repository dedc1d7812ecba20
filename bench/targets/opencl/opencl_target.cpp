// The OpenCL Target: a device's suites run batch by batch through the harness (device_benchmark turns each
// DeviceWork into a manual-time BenchmarkSpec), each batch's device memory freed before the next; a device that
// fails mid-run ends the target with TargetLost naming it.
#include <chrono>
#include <cstdlib>
#include <algorithm>
#include <map>

#include <unistd.h>  // environ

#include <fmt/format.h>

#include "roofline/bench/gemm_shape.hpp"
#include "roofline/bench/runner.hpp"
#include "roofline/bench/sweep_stop.hpp"
#include "roofline/common/statistics.hpp"
#include "roofline/common/units.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/opencl/provider.hpp"
#include "session_impl.hpp"

namespace roofline::opencl {
namespace {

// A CPU device's cache when neither the curve nor the device says: 16 MiB, a usual host last level (its quick
// GEMM weights are then 4096 x 4096 in fp32, which an untuned CLBlast on PoCL runs in ~0.1 s a GEMV).
constexpr double kCpuDeviceCache = 16.0 * 1024 * 1024;

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
    WorkOptions o = work_options(config);
    o.budget = &runner.budget();
    if (suite == "bandwidth") return bandwidth(o, runner, out);
    if (suite == "compute") return compute(o, runner, out);
    if (suite == "gemm") return gemm(o, runner, out);
    if (suite == "transfer") {
      run_batch(transfer_work(s_, o.full ? 256ull << 20 : 64ull << 20, o, out.notes), runner);
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
  // The sweep by sizes (work.hpp); in `quick`, until the read curve reaches DRAM (sweep_stop.hpp: the best width's
  // repetitions at each size), and in any profile while the next size (estimated from the last two) fits the budget.
  void bandwidth(const WorkOptions& o, Runner& runner, SuiteOutput& out) {
    const std::vector<std::uint64_t> sizes = bandwidth_sizes(s_->facts(), o, out.notes);
    const bool quick = !o.full && o.sizes.empty();
    // The least end: twice the global cache (at least 32 MiB); a CPU device's caches are the host's, whose flat L3
    // must not pass for DRAM: as the CPU's sweep, at least kSweepMinEndBytes.
    const std::uint64_t least = s_->facts().type == "cpu" ? kSweepMinEndBytes : 32ull << 20;
    const std::uint64_t floor = std::min<std::uint64_t>(
        sizes.empty() ? 0 : sizes.back(), std::max<std::uint64_t>(2 * s_->facts().global_cache_bytes, least));
    std::map<std::uint64_t, std::vector<double>> best;  // size -> the best read width's repetitions
    std::map<MemoryKernel, std::vector<int>> widths;     // quick: the widths each kernel runs at its next size
    std::vector<std::uint64_t> measured;
    double last_s = 0.0, growth = 2.0;  // the next size costs the last one's time x their growth (1x to 2x)
    DramVerdict v;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      // The first size's time holds the kernels' builds: the estimates start from the second.
      if (i > 1 && !o.budget->allows(growth * last_s)) {
        out.notes.push_back(o.budget->cut(facts_.target + " bandwidth",
                                          fmt::format("sizes {} to {}", format_bytes(double(sizes[i])),
                                                      format_bytes(double(sizes.back())))));
        break;
      }
      const auto started = std::chrono::steady_clock::now();
      for (MemoryKernel k : kMemoryKernels) {
        if (!sweeps_at(k, i, sizes.size(), o)) continue;
        WorkOptions ok = o;
        if (quick && widths.count(k) > 0) ok.widths = widths[k];
        const std::vector<nlohmann::json> entries = run_batch(bandwidth_work(s_, k, sizes[i], ok, out.notes), runner);
        if (k == MemoryKernel::read) best[sizes[i]] = best_width(entries);
        // quick: every width at a kernel's first size, then the two that were best at its last size (a ceiling is
        // the best width's; the others only cost time: 5 widths made PoCL's quick sweep 59 s on a Zen 4 guest).
        widths[k] = best_widths(entries, 2);
      }
      measured.push_back(sizes[i]);
      const double size_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      if (i > 1) growth = std::clamp(size_s / last_s, 1.0, 2.0);
      last_s = size_s;
      std::vector<SweepPoint> points;
      for (const auto& [bytes, bw] : best) points.push_back({bytes, bw});
      v = dram_reached(points, floor);
      if (!quick || !v.reached) continue;
      // Stopping here: the kernels the quick sweep runs only at some sizes run at this last one too.
      for (MemoryKernel k : kMemoryKernels) {
        if (!sweeps_at(k, i, sizes.size(), o)) run_batch(bandwidth_work(s_, k, sizes[i], o, out.notes), runner);
      }
      if (i + 1 < sizes.size()) {
        out.notes.push_back(fmt::format("{}: the quick sweep stopped at {}: DRAM reached ({})", facts_.target,
                                        format_bytes(double(sizes[i])), v.why));
      }
      break;
    }
    if (v.reached) cache_bytes_ = static_cast<double>(v.cache_end_bytes);
    if (!o.full && o.sizes.empty()) {
      out.notes.push_back(fmt::format("{}: the quick profile sweeps read and triad at every size, copy and write at "
                                      "every other size and the largest, each in every width at its first size and then "
                                      "in the two widths best at its size before (--profile full: every kernel in every "
                                      "width, 2 sizes per octave)", facts_.target));
    }
    out.context["sizes"] = measured;
    out.context["planned_sizes"] = sizes;
    out.context["dram_reached"] = v.reached;
    out.context["stop_rule"] = v.why;
    out.context["largest_cache_bytes"] = v.reached ? nlohmann::json(v.cache_end_bytes) : nlohmann::json(nullptr);
    say_build(out);
  }

  // The `count` widths with the best medians at this size, best first.
  static std::vector<int> best_widths(const std::vector<nlohmann::json>& entries, std::size_t count) {
    std::map<int, std::vector<double>> by_width;
    for (const nlohmann::json& e : entries) {
      if (e.value("run_type", "") != "iteration" || e.value("error_occurred", false) || !e.contains("bytes_per_second")) continue;
      by_width[e["labels"].value("width", 0)].push_back(e["bytes_per_second"].get<double>());
    }
    std::vector<std::pair<double, int>> ranked;
    for (const auto& [width, bw] : by_width) ranked.emplace_back(median(bw), width);
    std::sort(ranked.rbegin(), ranked.rend());
    std::vector<int> out;
    for (std::size_t i = 0; i < ranked.size() && i < count; ++i) out.push_back(ranked[i].second);
    return out;
  }

  // Per repetition, the bandwidths of the width whose median is the best at this size.
  static std::vector<double> best_width(const std::vector<nlohmann::json>& entries) {
    std::map<int, std::vector<double>> by_width;
    for (const nlohmann::json& e : entries) {
      if (e.value("run_type", "") != "iteration" || e.value("error_occurred", false) || !e.contains("bytes_per_second")) continue;
      by_width[e["labels"].value("width", 0)].push_back(e["bytes_per_second"].get<double>());
    }
    std::vector<double> out;
    for (const auto& [width, bw] : by_width) {
      if (out.empty() || median(bw) > median(out)) out = bw;
    }
    return out;
  }

  void compute(const WorkOptions& o, Runner& runner, SuiteOutput& out) {
    for (ComputeKind k : kComputeKinds) {
      if (!supports(s_->facts(), k)) {
        out.notes.push_back(fmt::format("{}: {} not measured (the device lacks its extension)", facts_.target,
                                        to_string(k)));
        continue;
      }
      if (o.budget->bounded() && o.budget->left() <= 0.0) {
        out.notes.push_back(o.budget->cut(facts_.target + " compute", fmt::format("{} in every width", to_string(k))));
        continue;
      }
      run_batch(compute_work(s_, k, o, out.notes), runner);
    }
    say_build(out);
  }

  void gemm(WorkOptions o, Runner& runner, SuiteOutput& out) {
    std::vector<std::string> precisions{"fp32"};
    if (s_->facts().fp16) precisions.emplace_back("fp16");
    // The quick shape from the cache the bandwidth curve showed in this run, else the reported global cache; with
    // neither, a CPU device (PoCL) gets kCpuDeviceCache, a host's usual last level, and a GPU the default shape.
    const double reported = static_cast<double>(s_->facts().global_cache_bytes);
    const bool cpu = s_->facts().type == "cpu";
    o.cache_bytes = cache_bytes_ > 0.0 ? cache_bytes_ : reported > 0.0 ? reported : cpu ? kCpuDeviceCache : 0.0;
    const std::string from = cache_bytes_ > 0.0 ? "the bandwidth curve" : reported > 0.0 ? "reported" : "assumed for a CPU device";
    out.context["shape_source"] = o.gemm_m > 0                    ? std::string("--gemm-shape")
                                  : o.full || o.cache_bytes <= 0.0 ? std::string("default")
                                                                   : fmt::format("{}x the largest cache ({}, {})",
                                                                                 kGemmCacheFactor,
                                                                                 format_bytes(o.cache_bytes), from);
    for (const std::string& p : precisions) {
      if (o.budget->bounded() && o.budget->left() <= 0.0) {
        out.notes.push_back(o.budget->cut(facts_.target + " gemm", fmt::format("CLBlast {}", p)));
        continue;
      }
      run_batch(gemm_work(s_, p, o, out.notes), runner);
    }
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
  double cache_bytes_ = 0.0;  // the largest cache the bandwidth curve showed in this run (0: not measured)
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
