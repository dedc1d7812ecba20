// The target seam (issue 21): a target is one thing with its own roofline: the host CPU, an OpenCL device, a
// CUDA GPU, or the test-only target of tests/targets/. The harness drives every target through this one
// interface and owns timing (Google Benchmark, through Runner), repetitions, profiles, progress, the results file
// and every benchmark's name (from the BenchmarkKey a target gives: benchmark_name.hpp); a target brings its facts,
// its suites and the validation of its own results. Nothing outside a target's own folder asks which target it is.
//
// What lands in the results file (results/README.md, "Targets"):
//  - context.targets[]: one TargetFacts per target measured (the CPU's too), to_json() below;
//  - every benchmark entry's labels.target: the target's id (absent in older files: "cpu");
//  - the roofline section's entries carry `target` (analysis derives each target's ceilings from its own entries
//    and facts, target-blind: it chooses a theoretical-peak model by its name and nothing else).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/common/target_id.hpp"
#include "roofline/harness/run_plan.hpp"
#include "roofline/harness/runner.hpp"

namespace roofline {

struct RunConfig;

// What a suite may write into the results file's context besides its benchmark entries: e.g.
// context["suites"]["bandwidth"] = {"stopped_early_at_bytes": ...}. Notes are sentences for people.
struct SuiteOutput {
  nlohmann::json context = nlohmann::json::object();
  std::vector<std::string> notes;
};


// Every suite name a target may offer, in the order a target runs them (--suites takes these). The llm suite
// (bench/drivers/suite_llm.cpp) is the one suite of the llm target (roofline/drivers/llm_target.hpp), which measure()
// runs from `roofline llm --measure` with a model's inputs; `run --suites` does not take it.
inline constexpr std::array<std::string_view, 5> kSuiteNames{"bandwidth", "compute", "gemm", "transfer", "latency"};

// The host CPU's target id, kCpuTargetId (also what a file without target fields means), and target_prefix, the
// prefix of a target's names: common's target_id.hpp, the one rule the analysis reads them back by.

// One memory level of a target, innermost first. The last level of the list is the target's main memory
// (DRAM on a CPU, HBM/global memory on a GPU): capacity 0. `shared`: whether other work on the machine (other
// tenants, other cores) competes for it, which decides whether the environment canary speaks for its figures.
struct TargetMemoryLevel {
  std::string name;                 // "L1", "L2", "L3", "DRAM"; "L2", "HBM"; "global"
  std::uint64_t capacity_bytes = 0; // of the whole target (a CPU's per-thread scaling is analysis' x86 model)
  bool shared = true;
};

// A target's facts, stored as one entry of context.targets[].
struct TargetFacts {
  std::string target;               // id: "cpu", "opencl:0.0", "cuda:0", "test:0" (what --target takes)
  std::string kind;                 // "cpu", "gpu", "other"
  std::string name;                 // "NVIDIA H200", "pthread-AMD EPYC 9R14", ...
  std::string vendor;
  std::string api;                  // "native", "opencl", "cuda", "test"
  std::string driver;               // driver / runtime version, "" when none
  int compute_units = 0;            // cores, CUs, SMs
  double clock_hz = 0.0;            // the clock the facts report (max clock); measured clocks go in `details`
  std::uint64_t memory_total_bytes = 0;
  std::uint64_t memory_available_bytes = 0;
  std::vector<TargetMemoryLevel> memory_levels;
  // The theoretical-peak model analysis applies, by name (analysis/model/compute_ceilings.cpp):
  //  "x86_pipes"   the CPU: threads x measured clock x the microarchitecture's pipes (context.machine);
  //  "units_clock" compute_units x clock_hz x ops_per_unit_per_clock["<precision>/<engine>"];
  //  ""            none known: the theoretical figure is "unknown", said.
  std::string peak_model;
  nlohmann::json ops_per_unit_per_clock = nlohmann::json::object();  // {"fp32/vector": 128, "bf16/matrix": 4096}
  nlohmann::json details = nlohmann::json::object();  // the API's own facts (OpenCL DeviceFacts, CUDA properties)
  std::vector<std::string> notes;
};

nlohmann::json to_json(const TargetFacts& facts);
// Reads an entry of context.targets[]; throws InputError naming the first missing or mistyped field.
TargetFacts target_facts_from_json(const nlohmann::json& j);

// One timed piece of work on a device target, for targets whose time comes from the device (events) or from
// prepared figures rather than from the host's clock around a loop. device_benchmark() turns it into a
// BenchmarkSpec timed with Google Benchmark's manual time, so every target is timed by the same harness.
struct DeviceWork {
  std::string name;                 // unique in the run, by benchmark_name(): "bandwidth/read/width:4/bytes:1048576"
  nlohmann::json labels;            // suite, kernel, precision, engine, batch, backend, ... (target is added)
  // Runs the work `iterations` times back to back and returns the seconds they took (device events when
  // `device_timed`, else the host clock around the calls). Throws on a device error.
  std::function<double(std::int64_t iterations)> run;
  // After timing: "" when the result is right, else what was wrong (the entry fails loudly).
  std::function<std::string()> validate;
  // Counted per iteration (results/README.md's convention): bytes moved, FLOP (floating point) or OP (integer),
  // the working set. Zero fields are not written.
  double bytes = 0.0;
  double flop = 0.0;
  double op = 0.0;
  double working_set_bytes = 0.0;
  bool device_timed = true;
  double min_time_s = 0.05;
  int repetitions = 3;
  // Optional, for compute works: the clock the device ran the work at, measured right after each repetition
  // (Hz; 0: no figure). Written as the entry's `clock_hz` counter; analysis then takes a theoretical peak at
  // this clock instead of the clock the facts report (the reported maximum is not what runs under load).
  std::function<double()> clock_hz;
};

// The BenchmarkSpec the harness runs for one DeviceWork: manual time from `run`, counters bytes_per_second,
// flop_per_second / op_per_second, working_set_bytes, validation after timing, labels.timing "device"|"host".
BenchmarkSpec device_benchmark(const DeviceWork& work);

class Target {
 public:
  virtual ~Target() = default;
  [[nodiscard]] virtual const TargetFacts& facts() const = 0;
  // The suites this target offers, in the order they run: "bandwidth", "compute", "gemm", "transfer",
  // "latency" (a target offers what it has).
  [[nodiscard]] virtual std::vector<std::string> suites() const = 0;
  // Put before the names of its benchmarks and its suites' contexts: target_prefix(id), "<id>/" (the CPU's is empty,
  // so its names stay as in every earlier file).
  [[nodiscard]] std::string benchmark_prefix() const { return target_prefix(facts().target); }
  // Runs one of its suites through `runner` (the harness stamps labels.target on every spec). Notes and the
  // suite's context go to `out`. Throws TargetLost when the device fails mid-run (the run keeps the other
  // targets' results and exits 1 naming it); InputError for bad input.
  virtual void run_suite(const std::string& suite, const RunConfig& config, Runner& runner, SuiteOutput& out) = 0;
  // What it will run for `config`, fixed before the first measurement (run_plan.hpp), the suites `config` asks for
  // in run order; empty for a target that plans at run time (its sweep follows its own curve).
  [[nodiscard]] virtual std::vector<SuitePlan> plan(const RunConfig& config) {
    (void)config;
    return {};
  }
};

// A device failed or was lost mid-run.
class TargetLost : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One API through which targets are reached. cli/targets.cpp lists the providers that were built (the one place
// that knows); a test executable registers its own with register_target_provider.
struct TargetProvider {
  std::string api;                  // "native" (the CPU), "opencl", "cuda", "test": ids are "<api>:<index>"
  // The targets this API reaches here, with their facts (nothing measured). Appends to `notes` when the API is
  // present but lists nothing usable (no platform, no driver).
  std::function<std::vector<TargetFacts>(std::vector<std::string>& notes)> list;
  // Opens one of them for measuring; throws TargetLost when the device cannot be opened.
  std::function<std::unique_ptr<Target>(const TargetFacts& facts)> open;
};

// The providers built into this executable, the CPU's first.
std::vector<TargetProvider>& target_providers();
void register_target_provider(TargetProvider provider);

// Resolves --target values: an id ("cpu", "opencl:0.0"; "opencl:0" means "opencl:0.0"), a part of a target's
// name ("H200"), or "all". Throws InputError listing the available targets for one that matches none.
std::vector<TargetFacts> select_targets(const std::vector<std::string>& requested,
                                        const std::vector<TargetFacts>& available);

}  // namespace roofline
