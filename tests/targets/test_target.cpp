// The test-only target (issue 21): a second target whose "kernels" return prepared timings, so the whole seam
// (roofline run → results file → report, compare, fleet, llm --results) is exercised on any machine, with
// figures known in advance. Nothing here measures anything; every figure is the prepared one below, and the
// facts say so. Its knobs (environment variables, for the CLI tests):
//   ROOFLINE_TEST_TARGET_HBM_GBPS   the main-memory bandwidth it reports (default 100 GB/s): a slowed copy
//                                   gates as a regression in compare
//   ROOFLINE_TEST_TARGET_FAIL       a suite whose first benchmark fails its validation (exit 1, named)
//   ROOFLINE_TEST_TARGET_LOSE       a suite in which the device is "lost" (TargetLost: exit 1, the CPU kept)
#include "test_target.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "roofline/harness/benchmark_name.hpp"
#include "roofline/common/gemm_labels.hpp"
#include "roofline/harness/run_config.hpp"
#include "roofline/harness/run_plan.hpp"
#include "roofline/common/gemm_count.hpp"

namespace roofline::testing {
namespace {

constexpr double kGB = 1e9;
constexpr std::uint64_t kL2Bytes = 4ull << 20;
constexpr double kL2BytesPerSecond = 400 * kGB;
constexpr double kFp32FlopPerSecond = 1.0e12;       // 97.7 % of the units_clock model below (4 x 1 GHz x 256)
constexpr double kBf16MatrixFlopPerSecond = 3.5e12; // 85.4 % of 4 x 1 GHz x 1024
constexpr double kGemmEfficiency = 0.8;             // of min(peak, bandwidth x AI) at the operands' level

double env_number(const char* name, double fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::strtod(v, nullptr) : fallback;
}

bool env_is(const char* name, const std::string& suite) {
  const char* v = std::getenv(name);
  return v != nullptr && suite == v;
}

double hbm_bytes_per_second() { return env_number("ROOFLINE_TEST_TARGET_HBM_GBPS", 100.0) * kGB; }

// Work whose time is prepared: `seconds_per_iteration` exactly, no noise.
DeviceWork prepared(std::string name, nlohmann::json labels, double seconds_per_iteration) {
  DeviceWork w;
  w.name = std::move(name);
  w.labels = std::move(labels);
  w.run = [seconds_per_iteration](std::int64_t iterations) { return seconds_per_iteration * static_cast<double>(iterations); };
  w.validate = [] { return std::string(); };
  w.min_time_s = 0.001;
  w.repetitions = 3;
  return w;
}

std::vector<DeviceWork> bandwidth_work() {
  std::vector<DeviceWork> out;
  for (const char* kernel : {"read", "triad"}) {
    // Four sizes per octave from 64 KiB to 256 MiB: an L2 plateau to 4 MiB, HBM beyond.
    for (double size = 64.0 * 1024; size <= 256.0 * 1024 * 1024 + 1; size *= std::pow(2.0, 0.25)) {
      const double bytes = std::round(size / 64) * 64;
      const double rate = bytes <= static_cast<double>(kL2Bytes) ? kL2BytesPerSecond : hbm_bytes_per_second();
      BenchmarkKey key("bandwidth", {kernel});
      key.bytes = static_cast<std::uint64_t>(bytes);  // a whole number of 64-byte lines
      DeviceWork w = prepared(benchmark_name(key),
                              {{"suite", "bandwidth"}, {"kernel", kernel}, {"precision", "fp32"}, {"width", 4}},
                              bytes / rate);
      w.bytes = bytes;  // each element of the working set moved once per pass (STREAM's convention)
      w.working_set_bytes = bytes;
      out.push_back(std::move(w));
    }
  }
  return out;
}

std::vector<DeviceWork> compute_work() {
  const double flop = 1e9;
  DeviceWork fp32 = prepared(benchmark_name(BenchmarkKey("compute", {"fp32", "vector"})),
                             {{"suite", "compute"}, {"precision", "fp32"}, {"engine", "vector"}, {"width", 4}},
                             flop / kFp32FlopPerSecond);
  fp32.flop = flop;
  DeviceWork bf16 = prepared(benchmark_name(BenchmarkKey("compute", {"bf16", "matrix"})),
                             {{"suite", "compute"}, {"precision", "bf16"}, {"engine", "matrix"}, {"width", 16}},
                             flop / kBf16MatrixFlopPerSecond);
  bf16.flop = flop;
  return {fp32, bf16};
}

std::vector<DeviceWork> gemm_work() {
  std::vector<DeviceWork> out;
  // 4096^2 at batch 1..512, and a 8192^2 GEMV whose 256 MiB of operands live in HBM whatever the labels say.
  for (const GemmShape shape : {GemmShape{4096, 1, 4096}, GemmShape{4096, 8, 4096}, GemmShape{4096, 64, 4096},
                                GemmShape{4096, 512, 4096}, GemmShape{8192, 1, 8192}}) {
    const std::int64_t m = shape.m, n = shape.n, k = shape.k;
    const double flop = gemm_operations(shape);
    const double bytes = gemm_compulsory_bytes(shape, Precision::fp32);
    const double bandwidth = bytes <= static_cast<double>(kL2Bytes) ? kL2BytesPerSecond : hbm_bytes_per_second();
    const double attainable = std::min(kFp32FlopPerSecond, bandwidth * flop / bytes);
    BenchmarkKey key("gemm", {"prepared", "fp32"});
    key.m = m;
    key.k = k;
    key.batch = n;
    DeviceWork w = prepared(benchmark_name(key),
                            {{"suite", "gemm"}, {"kernel", n == 1 ? "gemv" : "gemm"}, {"backend", "prepared"},
                             {"precision", "fp32"}, {"engine", "vector"}},
                            flop / (attainable * kGemmEfficiency));
    w.labels.update(gemm_labels_json(shape, gemm_operand_bytes(Precision::fp32)));  // the one writer
    w.flop = flop;
    w.bytes = bytes;
    w.working_set_bytes = bytes;
    out.push_back(std::move(w));
  }
  return out;
}

std::vector<DeviceWork> transfer_work() {
  std::vector<DeviceWork> out;
  const double bytes = 256.0 * 1024 * 1024;
  for (const char* direction : {"host_to_device", "device_to_host"}) {
    for (const auto& [memory, rate] : {std::pair{"pinned", 25 * kGB}, std::pair{"pageable", 12 * kGB}}) {
      DeviceWork w = prepared(benchmark_name(BenchmarkKey("transfer", {direction, memory})),
                              {{"suite", "transfer"}, {"direction", direction}, {"memory", memory}}, bytes / rate);
      w.bytes = bytes;
      out.push_back(std::move(w));
    }
  }
  return out;
}

std::vector<DeviceWork> latency_work() {
  return {prepared(benchmark_name(BenchmarkKey("latency", {"launch"})), {{"suite", "latency"}, {"kernel", "empty"}}, 5e-6)};
}

std::vector<DeviceWork> suite_work(const std::string& suite) {
  return suite == "bandwidth" ? bandwidth_work()
         : suite == "compute" ? compute_work()
         : suite == "gemm"    ? gemm_work()
         : suite == "transfer" ? transfer_work()
                               : latency_work();
}

class TestTarget final : public Target {
 public:
  explicit TestTarget(TargetFacts facts) : facts_(std::move(facts)) {}
  [[nodiscard]] const TargetFacts& facts() const override { return facts_; }
  [[nodiscard]] std::vector<std::string> suites() const override {
    return {"bandwidth", "compute", "gemm", "transfer", "latency"};
  }
  // Its plan is its prepared work, named as the work names it: the suites `config` asks for, in run order, each
  // entry's repetitions (issue 61, step 4: every target plans). Estimated at twice each repetition's minimum time
  // (Google Benchmark's search for the iteration count) and 10 ms an entry for the harness around it.
  [[nodiscard]] std::vector<SuitePlan> plan(const RunConfig& config) override {
    std::vector<SuitePlan> out;
    for (const std::string& suite : suites()) {
      if (!config.wants_suite(suite)) continue;
      SuitePlan s{facts_.target, suite, 0.0, {}, {}};
      for (const DeviceWork& w : suite_work(suite)) {
        s.entries.push_back({facts_.target, suite, w.name, 0, w.repetitions, 0.01 + 2.0 * w.repetitions * w.min_time_s});
      }
      out.push_back(std::move(s));
    }
    return out;
  }
  void run_suite(const std::string& suite, const RunConfig&, Runner& runner, SuiteOutput& out) override {
    if (env_is("ROOFLINE_TEST_TARGET_LOSE", suite)) throw TargetLost(fmt::format("prepared loss during {}", suite));
    std::vector<DeviceWork> work = suite_work(suite);
    if (env_is("ROOFLINE_TEST_TARGET_FAIL", suite)) {
      work.front().validate = [] { return std::string("prepared wrong result (ROOFLINE_TEST_TARGET_FAIL)"); };
    }
    std::vector<BenchmarkSpec> specs;
    for (const DeviceWork& w : work) specs.push_back(device_benchmark(w));
    runner.run(specs);
    out.context["prepared"] = true;
  }

 private:
  TargetFacts facts_;
};

}  // namespace

TargetFacts test_target_facts() {
  TargetFacts f;
  f.target = "test:0";
  f.kind = "other";
  f.name = "roofline test target (prepared timings)";
  f.vendor = "roofline";
  f.api = "test";
  f.driver = "none";
  f.compute_units = 4;
  f.clock_hz = 1e9;
  f.memory_total_bytes = 8ull << 30;
  f.memory_available_bytes = 6ull << 30;
  f.memory_levels = {{"L2", kL2Bytes, false}, {"HBM", 0, true}};
  f.peak_model = "units_clock";
  f.ops_per_unit_per_clock = {{"fp32/vector", 256}, {"bf16/matrix", 1024}};
  f.details = {{"prepared", true}};
  f.notes = {"every figure of this target is prepared by tests/targets/test_target.cpp, none is measured"};
  return f;
}

TargetProvider test_target_provider() {
  TargetProvider p;
  p.api = "test";
  p.list = [](std::vector<std::string>&) { return std::vector<TargetFacts>{test_target_facts()}; };
  p.open = [](const TargetFacts& f) -> std::unique_ptr<Target> { return std::make_unique<TestTarget>(f); };
  return p;
}

}  // namespace roofline::testing
