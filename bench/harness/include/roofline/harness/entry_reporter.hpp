// The harness's own Google Benchmark reporter (issue 61, step 2): each Run Google Benchmark reports becomes a typed
// entry of the results file (roofline::records' BenchmarkEntry) as it arrives, with no JSON text between: the fields
// and values Google Benchmark's JSONReporter writes for a Run (name, family_index, run_name, run_type, repetitions,
// repetition_index, threads, aggregate_name and _unit, error_occurred and _message, iterations, real_time, cpu_time,
// time_unit, every counter, label), which the records' one writer (to_json) then writes. The runner's reporter;
// tests/bench/harness/test_entry_reporter.cpp holds it to JSONReporter's output for the same Runs.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include "roofline/records/results_document.hpp"

namespace roofline {

class Progress;

// One Run as the entry JSONReporter 1.7.1 writes for it (its PrintRunData, field for field), counters included; a
// non-finite counter (Google Benchmark writes a bare NaN, not JSON) is null. No labels: the runner adds its spec's.
BenchmarkEntry entry_of(const benchmark::BenchmarkReporter::Run& run);

// Collects the entries of one RunSpecifiedBenchmarks call, in the order Google Benchmark reports them, and shows
// progress ("3/12 bandwidth/triad/...") on each benchmark's first repetition.
class EntryReporter : public benchmark::BenchmarkReporter {
 public:
  EntryReporter(Progress* progress, std::size_t total) : progress_(progress), total_(total) {}
  // Google Benchmark's context (date, host, CPUs, caches, load, its library's build type), as its JSONReporter
  // writes it: its date format and build type are not in its public API. Its text is that context alone, no Run.
  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override {}

  [[nodiscard]] std::vector<BenchmarkEntry>& entries() { return entries_; }
  // Google Benchmark's context object; null when its text could not be read (`context_error` says why).
  [[nodiscard]] const nlohmann::json& context() const { return context_; }
  [[nodiscard]] const std::string& context_error() const { return context_error_; }

 private:
  std::vector<BenchmarkEntry> entries_;
  nlohmann::json context_;
  std::string context_error_;
  Progress* progress_;
  std::size_t total_;
  std::size_t done_ = 0;
};

}  // namespace roofline
