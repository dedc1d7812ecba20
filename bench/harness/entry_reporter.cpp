// Google Benchmark's Runs as typed entries: see entry_reporter.hpp.
#include "roofline/harness/entry_reporter.hpp"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "roofline/harness/progress.hpp"

namespace roofline {
using nlohmann::json;
using Run = benchmark::BenchmarkReporter::Run;

BenchmarkEntry entry_of(const Run& run) {
  const bool aggregate = run.run_type == Run::RT_Aggregate;
  BenchmarkEntry e;
  e.name = run.benchmark_name();
  e.family_index = run.family_index;
  e.per_family_instance_index = run.per_family_instance_index;
  e.run_name = run.run_name.str();
  e.run_type = aggregate ? "aggregate" : "iteration";
  e.repetitions = run.repetitions;
  if (!aggregate) e.repetition_index = run.repetition_index;
  e.threads = run.threads;
  const bool percentage = aggregate && run.aggregate_unit == benchmark::kPercentage;
  if (aggregate) {
    e.aggregate_name = run.aggregate_name;
    e.aggregate_unit = percentage ? "percentage" : "time";
  }
  if (run.error_occurred) {
    e.error_occurred = true;
    e.error_message = run.error_message;
  }
  // Our benchmarks report no complexity (BigO, RMS) and use no memory manager: JSONReporter's other branches.
  e.iterations = run.iterations;
  // A percentage aggregate (cv) is a ratio, not a time per iteration: JSONReporter writes it unscaled.
  e.real_time = percentage ? run.real_accumulated_time : run.GetAdjustedRealTime();
  e.cpu_time = percentage ? run.cpu_accumulated_time : run.GetAdjustedCPUTime();
  e.time_unit = benchmark::GetTimeUnitString(run.time_unit);
  for (const auto& [name, counter] : run.counters) set_number(e, name, counter.value);
  if (!run.report_label.empty()) e.label = run.report_label;
  return e;
}

bool EntryReporter::ReportContext(const Context& context) {
  std::stringstream out;
  std::stringstream err;
  benchmark::JSONReporter json_reporter;
  json_reporter.SetOutputStream(&out);
  json_reporter.SetErrorStream(&err);
  const bool ok = json_reporter.ReportContext(context);
  json_reporter.Finalize();  // closes the (empty) list of benchmarks: the text is one JSON object
  try {
    context_ = json::parse(out.str()).at("context");
  } catch (const json::exception& e) {
    context_ = nullptr;
    context_error_ = fmt::format("internal: Google Benchmark's context could not be read: {}", e.what());
  }
  return ok;
}

void EntryReporter::ReportRuns(const std::vector<Run>& runs) {
  for (const Run& run : runs) entries_.push_back(entry_of(run));
  if (progress_ != nullptr && !runs.empty() && runs.front().run_type == Run::RT_Iteration) {
    ++done_;
    progress_->update(fmt::format("{}/{} {}", std::min(done_, total_), total_, runs.front().run_name.function_name));
  }
}

}  // namespace roofline
