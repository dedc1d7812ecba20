// One measurement (`roofline run`, each rank of `run --mpi`, and `roofline llm --measure`, whose chain is a target of
// its own: roofline/drivers/llm_target.hpp): every target's suites through one Runner, the environment guard around
// them, and the results document of what was measured (context and benchmarks). The harness owns timing, progress
// and the document; the targets bring their facts and suites (target.hpp). It derives nothing (issue 47): the caller
// (bench/cli/cmd_run.cpp's measure_and_derive) adds the roofline section (analysis' derive_roofline).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/facts/machine.hpp"
#include "roofline/harness/phase_clock.hpp"
#include "roofline/harness/run_config.hpp"
#include "roofline/harness/target.hpp"

namespace roofline {

struct Measured {
  nlohmann::json doc;  // context and benchmarks; no roofline section (the caller derives it)
  std::vector<std::string> failures;  // benchmarks that failed validation, targets lost mid-run
  double seconds = 0.0;
};

// Our fields of a results file's `context` (schema version, build, profile, threads and binding, ISA cap, budget,
// machine facts, notes).
nlohmann::json run_context(const RunConfig& config, const MachineFacts& machine, const std::vector<std::string>& notes);

// A suite's context.suites.<suite>.overhead_seconds: where its `wall_s` went beside its timed loops (`timed_s`), by
// phase (phase_clock.hpp): calibration, setup, validation, probes, harness (Google Benchmark's own), body_untimed (the
// bodies' wall less the timed loops: pinning, Google Benchmark's trial runs) and other (the rest of the wall: the suite's own code
// outside every phase). The timed seconds and every phase add up to the wall.
nlohmann::json overhead_seconds(const PhaseClock& phases, double wall_s, double timed_s);

// Every target the built providers reach here (the CPU's first), each provider's notes appended to `notes`.
std::vector<TargetFacts> available_targets(std::vector<std::string>& notes);

// The targets a run measures: the CPU unless `skip_cpu`, then those --target names (select_targets), opened.
// InputError for an unknown target or a --suites name none of them offers; TargetLost for one that cannot open.
std::vector<std::unique_ptr<Target>> open_targets(const std::vector<std::string>& requested, bool skip_cpu,
                                                  const RunConfig& config);

// The run's plan (run_plan.hpp): every target's, in run order, before anything is measured. A target that plans at
// run time is named in its notes.
RunPlan plan_run(std::vector<std::unique_ptr<Target>>& targets, const RunConfig& config);

// Runs the suites of `targets` that `config` asks for, as planned (plan_run: context.plan); a target lost mid-run is a failure named in the result,
// the other targets' entries are kept.
Measured measure(const MachineFacts& machine, const RunConfig& config, std::vector<std::unique_ptr<Target>>& targets);

}  // namespace roofline
