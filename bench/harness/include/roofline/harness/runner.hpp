// Running benchmarks through Google Benchmark and collecting their entries. A suite describes each
// benchmark as a BenchmarkSpec (name, labels, body, options) and hands a batch to Runner::run, which
// registers them, runs them with a progress line, and returns their entries: per repetition plus the
// median/mean/stddev/cv/max aggregates. The runner keeps them typed (roofline::records' BenchmarkEntry, built by
// its own reporter from Google Benchmark's Run: issue 61); the results file is written by the records' to_json. Suites may call run() several times (e.g. a sweep that stops
// once the curve is flat); all entries end up in one results file.
#pragma once

#include <cstdint>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include "roofline/harness/budget.hpp"
#include "roofline/harness/phase_clock.hpp"
#include "roofline/records/results_document.hpp"

namespace roofline {

class Progress;

// A measurement taken right around one spec's repetitions (issue 33: the roof of the moment, a short read
// probe of the level the operands sit in). The runner calls `measure` right before the spec's first
// repetition and right after its last, the spec running alone (its repetitions back to back, not interleaved
// with other specs), and stores {"before": ..., "after": ...} in every entry of the spec under `key`. A
// `measure` that throws (its own validation failed) fails the spec as a wrong result would.
struct SpecBracket {
  std::string key;
  std::function<nlohmann::json()> measure;
};

struct BenchmarkSpec {
  // Unique, '/'-separated, e.g. "bandwidth/triad/threads:2/bytes:32768".
  std::string name;
  // Stored as the entry's "labels" object: suite, kernel, precision, isa, threads, batch, backend, ...
  nlohmann::json labels;
  // The benchmark body. Setup outside the timed loop; validate after it and call
  // state.SkipWithError(...) on a wrong result (the run then fails loudly at the end).
  std::function<void(benchmark::State&)> body;
  double min_time_s = 0.05;
  int repetitions = 3;
  // Further Google Benchmark options (e.g. Iterations); UseRealTime() is applied unless `manual_time`.
  std::function<void(benchmark::internal::Benchmark*)> configure;
  // The body reports each iteration's time itself (state.SetIterationTime): device targets' event timing.
  bool manual_time = false;
  // Measured before and after this spec's repetitions (see SpecBracket); empty: none.
  std::optional<SpecBracket> bracket;
  // Each repetition runs exactly this many iterations (Google Benchmark's Iterations); 0: see `calibrate`.
  std::int64_t iterations = 0;
  // With iterations 0: true: the runner first runs the body once with one iteration (a warm-up whose entry is
  // not kept) and gives every repetition ceil(min_time_s / that call's time) iterations, so each repetition's
  // timed window is min_time_s from the call's own rate; false: Google Benchmark's own search (a run of 1, 10,
  // 100 ... iterations until one reaches a tenth of min_time_s, then 1.4x min_time_s for every repetition: for
  // short calls about 60% more wall time than the windows need; issue 46).
  bool calibrate = false;
  // With `calibrate`: the seconds of one call the suite already timed (e.g. its own warm-up call); the runner then
  // runs no calibration call. 0: the runner times one.
  double calibration_call_s = 0.0;
  // Set by the runner: the iteration count came from a calibration. The entries keep Google Benchmark's
  // "/min_time:T" name (not "/iterations:N", which would differ from run to run), so that two runs' names match.
  bool calibrated = false;
  // The plan's estimate of this spec's wall time, set-up included (run_plan.hpp; 0: not estimated). Planning only:
  // nothing measured depends on it.
  double estimate_s = 0.0;
};

// Repetitions of each run() batch are shuffled (Google Benchmark's random interleaving); the context
// records it as "random_interleaving".
inline constexpr bool kRandomInterleaving = true;

class Runner {
 public:
  explicit Runner(Progress* progress = nullptr) : progress_(progress) {}

  // Registers, runs and returns the entries of these benchmarks as the results file writes them (Google Benchmark's
  // JSON format, with "labels" added; for the suites that read them as JSON). Entries with error_occurred are kept and remembered in failures(). Specs with a
  // bracket run first, each alone between its two measurements; the others together, interleaved.
  // A batch of the CPU's at more than one thread (labels.threads) runs between two probes of where the host put the
  // threads (thread_round_trip.hpp; a probe less than a tenth of a second old at that thread count is reused), whose
  // mean every entry at more than one thread gets as thread_round_trip_ns (issue 59).
  std::vector<nlohmann::json> run(const std::vector<BenchmarkSpec>& specs);

  // Every entry collected by all run() calls, in order, typed.
  [[nodiscard]] const std::vector<BenchmarkEntry>& records() const { return entries_; }
  // The same as the results file writes them (to_json), for the suites that read them as JSON.
  [[nodiscard]] std::vector<nlohmann::json> entries() const;
  // Google Benchmark's context object from the first run() call.
  [[nodiscard]] const nlohmann::json& context() const { return context_; }
  // The progress line the runner shows (nullptr: none), for a suite that says what it sets up between its specs.
  [[nodiscard]] Progress* progress() const { return progress_; }
  // "name: message" for each benchmark that failed (validation or setup).
  [[nodiscard]] const std::vector<std::string>& failures() const { return failures_; }
  // The target whose benchmarks run next: stamped as labels.target on every spec that does not name one;
  // `name_prefix` is put before every name (Target::benchmark_prefix(): names stay unique across targets).
  void set_target(std::string target, std::string name_prefix) {
    target_ = std::move(target);
    name_prefix_ = std::move(name_prefix);
  }
  // The suite about to run gets a fresh budget of `seconds` (0: none); suites read it through budget().
  SuiteBudget& begin_suite(double seconds) {
    budget_ = SuiteBudget(seconds);
    return budget_;
  }
  [[nodiscard]] SuiteBudget& budget() { return budget_; }
  // Where the seconds outside the timed loops go (phase_clock.hpp): the runner's phases, and the suites' set-up,
  // validation and probes, which they open on it; measure() resets it before each suite and reads it after.
  [[nodiscard]] PhaseClock& phases() { return phases_; }

 private:
  // The thread round trip at `threads` now: the last probe's when under a tenth of a second old, else a new one.
  double round_trip_now(int threads);
  struct RoundTrip {
    int threads = 0;
    double ns = 0.0;
    std::chrono::steady_clock::time_point at;
  } last_round_trip_;
  // Each appends its entries to entries_.
  void run_together(const std::vector<BenchmarkSpec>& specs);
  void run_bracketed(const BenchmarkSpec& spec);
  // Fills `iterations` of the specs that ask to be calibrated (BenchmarkSpec::calibrate).
  void calibrate(std::vector<BenchmarkSpec>& specs);

  Progress* progress_;
  std::vector<BenchmarkEntry> entries_;
  nlohmann::json context_;
  std::vector<std::string> failures_;
  std::string target_;
  std::string name_prefix_;
  SuiteBudget budget_;
  PhaseClock phases_;
};

}  // namespace roofline
