// The plan of a run (issue 46), fixed before the first measurement: per target and suite, every benchmark that
// will run (its name, thread count, repetitions) with an estimated wall time, from the machine facts and the
// profile alone, so two runs of one build on one machine measure the same benchmarks. `roofline run --plan`
// prints it and measures nothing; the results file records its hash and estimate (context.plan); the budget
// shapes it before it runs (a suite's plan is made smaller, deterministically and said), never at run time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace roofline {

// What one sample of the environment guard costs (its DRAM, core and C-library canaries, /proc reads), as measured
// on the 2-vCPU guests: 0.3-0.35 s each.
inline constexpr double kEnvironmentSampleSeconds = 0.33;

struct PlanEntry {
  std::string target;        // "cpu", "opencl:0.0"
  std::string suite;         // "bandwidth", "compute", "gemm", ...
  std::string name;          // the benchmark's name as the results file will hold it (a device's: without prefix)
  int threads = 0;           // 0 where a thread count does not apply (a device)
  int repetitions = 0;
  double estimate_s = 0.0;   // estimated wall time, set-up included
};

// What one target plans for one suite: its entries and what shaped them (the budget, the memory).
struct SuitePlan {
  std::string target;
  std::string suite;
  double budget_s = 0.0;  // the profile's budget for it (0: none)
  std::vector<PlanEntry> entries;
  std::vector<std::string> notes;
  [[nodiscard]] double estimated_seconds() const;
};

struct RunPlan {
  std::vector<SuitePlan> suites;
  std::vector<std::string> notes;  // e.g. a target whose suites are planned at run time
  // The run's own checks outside every suite: the environment guard's canaries at its start, before each suite but
  // the first, and at its end (kEnvironmentSampleSeconds each; environment.hpp).
  double environment_s = 0.0;
  // The suites' estimates and environment_s: what `--plan` says the run takes.
  [[nodiscard]] double estimated_seconds() const;
  [[nodiscard]] std::size_t entry_count() const;
  // FNV-1a 64 over every entry's target, suite, name, threads and repetitions (not the estimates: a better
  // estimate is the same plan), as 16 hex digits.
  [[nodiscard]] std::string hash() const;
  // What `roofline run --plan` prints: one line per entry, each suite's total against its budget, the notes.
  [[nodiscard]] std::string text() const;
  // context.plan: {hash, entries, estimated_seconds, suites: {"<prefix><suite>": {entries, estimated_seconds,
  // budget_seconds}}, notes}.
  [[nodiscard]] nlohmann::json to_json() const;
};

}  // namespace roofline
