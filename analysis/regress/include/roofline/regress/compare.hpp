// Comparing two runs for CI regression tracking (`roofline compare BASE NEW`). Two roofline results files
// are gated on their key figures only (compare_gate.hpp: history noise model, floors, environment,
// verdict regression/clean/inconclusive); their benchmarks, ceilings and placements are matched by name
// and shown (median of the repetitions, change, Mann-Whitney U p-value) but never gate. Plain Google
// Benchmark JSON (no roofline section) is gated as compare.py does: a regression needs a U test on the
// repetitions with p < alpha and a change beyond the relative threshold in the worse direction.
// A machine is its hardware (CPU model, cores, ISA the CPU has, memory): runs of different machines are
// refused unless allowed. A run's configuration (ISA cap, threads, profile, binding, compiler and flags)
// is not: runs that differ in it are compared on the figures both have, and the differences are stated.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/regress/compare_gate.hpp"
#include "roofline/regress/judge.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/results_document.hpp"

namespace roofline {

// Fewer repetitions than this on either side: no usable U test (the quick profile records 5), so the
// benchmark is gated on the threshold alone and marked low-confidence. With 5 against 5 the smallest
// two-sided exact p-value is 2/252 = 0.008, so a clean shift can reach alpha = 0.05.
inline constexpr int kConfidentRepetitions = 5;

struct CompareOptions {
  double threshold = 0.05;  // relative change, 0.05 = 5 % (benchmark rows; plain Google Benchmark files gate on it)
  double alpha = 0.05;      // significance level of the U test
  bool allow_machine_mismatch = false;
  bool fail_on_inconclusive = false;  // exit 3 instead of 0 on an inconclusive verdict
  GateOptions gate;                   // the key-figure gate of two roofline files
};

enum class RowKind { benchmark, memory_ceiling, compute_ceiling, placement };
std::string_view to_string(RowKind kind);

// Whether a larger value of this metric is better: rates (`*_per_second`, `*_hz`) yes; times (`real_time`,
// `cpu_time`, `*_time`, `*_seconds`, `latency*`) no. Unknown names are treated as times (lower better).
bool higher_is_better(std::string_view metric);

struct CompareRow {
  RowKind kind = RowKind::benchmark;
  std::string name;
  std::string metric;  // counter compared: "flop_per_second", "real_time", "value", ...
  std::string unit;    // base unit of base/next: "FLOP/s", "B/s", "s", ...
  bool higher_better = true;
  double base = 0.0;   // median of the repetitions (the value itself for ceilings)
  double next = 0.0;
  double change = 0.0;  // (next - base) / |base|, as compare.py's calculate_change
  int base_repetitions = 1;
  int next_repetitions = 1;
  std::optional<double> p_value;       // U test of `metric` (>= 2 repetitions each side)
  std::optional<double> time_pvalue;   // compare.py's "Time" U test (real_time), when the entries have it
  std::optional<double> cpu_pvalue;    // compare.py's "CPU" U test (cpu_time)
  bool low_confidence = false;         // fewer than kConfidentRepetitions: gated on threshold alone
  bool significant = false;            // p_value < alpha (always false when low_confidence)
  bool gates = true;                   // whether this row's verdict can fail the comparison
  Verdict verdict = Verdict::ok;  // judge.hpp: unclear when beyond the threshold but not significant
};

struct RunInfo {
  std::string path;
  ResultsKind kind = ResultsKind::google_benchmark;
  std::string date, git_revision, host, cpu_model;
};

struct Comparison {
  RunInfo base, next;
  CompareOptions options;
  bool same_machine = true;
  std::vector<std::string> machine_differences;        // "cpu_model: A -> B", ...
  std::vector<std::string> configuration_differences;  // "max_isa: avx512 -> avx2", ...: compared, stated
  std::vector<CompareRow> rows;
  std::vector<std::string> only_in_base, only_in_next;  // benchmark names without a partner
  std::vector<std::string> notes;
  std::optional<Gate> gate;  // two roofline files: the key-figure gate decides

  [[nodiscard]] int count(Verdict v, bool gating_only) const;
  // Gate: 0 clean, 1 regression, 0/3 inconclusive; plain files: 1 on a gating regression. (A machine
  // mismatch without allow is an InputError.)
  [[nodiscard]] int exit_code() const;
};

// Compares two read files (read_results: a roofline results file, or plain Google Benchmark JSON without a
// roofline section; `*_path` name them in messages), whose reader already refused a file of neither kind or of
// another schema version. Throws InputError for an entry without a name and when the runs have no benchmark in
// common. A machine mismatch is recorded in
// the result; the caller decides (see machine_mismatch_error).
// `noise`: the history's noise model for the new run (nullptr: no history).
Comparison compare_runs(const ResultsDocument& base, const std::string& base_path, const ResultsDocument& next,
                        const std::string& next_path, const CompareOptions& options, const NoiseModel* noise = nullptr);


// One line for the InputError raised when machines differ and mismatch is not allowed.
std::string machine_mismatch_error(const Comparison& comparison);

// Renderers: an aligned terminal table, GitHub-flavoured Markdown (CI step summary, PR comment; strings
// from input escaped), and JSON.
std::string render_compare_text(const Comparison& comparison);
std::string render_compare_markdown(const Comparison& comparison);
nlohmann::json compare_to_json(const Comparison& comparison);


}  // namespace roofline
