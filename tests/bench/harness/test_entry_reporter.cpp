// The harness's reporter (issue 61, step 2) against Google Benchmark's own JSONReporter: for the same Runs (a
// repetition, time and percentage aggregates, a failed repetition, a counter that is NaN, other time units, labels
// and names that need escaping), the typed entry the reporter builds, written by the records' to_json, is the object
// JSONReporter writes, parsed (its bare NaN read as null, as the runner did before issue 61): field for field and
// value for value, integers as integers.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <regex>
#include <sstream>
#include <vector>

#include "roofline/harness/entry_reporter.hpp"

namespace roofline {
using nlohmann::json;
using GbRun = benchmark::BenchmarkReporter::Run;

namespace {

GbRun repetition(const std::string& name, std::int64_t index) {
  GbRun r;
  r.run_name.function_name = name;
  r.run_name.min_time = "min_time:0.050";
  r.run_name.repetitions = "repeats:3";
  r.run_name.time_type = "real_time";
  r.family_index = 4;
  r.per_family_instance_index = 0;
  r.run_type = GbRun::RT_Iteration;
  r.iterations = 1234;
  r.threads = 1;
  r.repetition_index = index;
  r.repetitions = 3;
  r.time_unit = benchmark::kNanosecond;
  r.real_accumulated_time = 0.0123456789 + 1e-4 * static_cast<double>(index);
  r.cpu_accumulated_time = 0.0120000001;
  r.counters["bytes_per_second"] = benchmark::Counter(123456789012.34567);
  r.counters["working_set_bytes"] = benchmark::Counter(32768.0);
  r.counters["huge_page_bytes"] = benchmark::Counter(0.0);
  r.report_label = "kernel=triad suite=bandwidth threads=2";
  return r;
}

GbRun aggregate(const GbRun& of, const std::string& name, benchmark::StatisticUnit unit) {
  GbRun r = of;
  r.run_type = GbRun::RT_Aggregate;
  r.aggregate_name = name;
  r.aggregate_unit = unit;
  r.iterations = 3;
  if (unit == benchmark::kPercentage) {
    r.real_accumulated_time = 0.0123;
    r.cpu_accumulated_time = 0.0456;
    r.counters["huge_page_bytes"] = benchmark::Counter(std::numeric_limits<double>::quiet_NaN());
  }
  return r;
}

std::vector<GbRun> runs() {
  std::vector<GbRun> out = {repetition("bandwidth/triad/threads:2/bytes:32768", 0),
                          repetition("bandwidth/triad/threads:2/bytes:32768", 1)};
  out.push_back(aggregate(out[0], "median", benchmark::kTime));
  out.push_back(aggregate(out[0], "cv", benchmark::kPercentage));
  GbRun failed = repetition("gemm/eigen/fp32/threads:1/m:64/k:64/batch:1", 0);
  failed.error_occurred = true;
  failed.error_message = "wrong result: y[3] = 7, expected \"5\"\tat\\row 3";
  failed.iterations = 0;
  failed.counters.clear();
  failed.report_label.clear();
  out.push_back(failed);
  GbRun micro = repetition("compute/fma_fp32_avx2/fp32/avx2/bits:256/threads:1", 0);
  micro.time_unit = benchmark::kMicrosecond;
  micro.run_name.time_type = "manual_time";
  micro.counters["flop_per_second"] = benchmark::Counter(-std::numeric_limits<double>::infinity());
  out.push_back(micro);
  GbRun seconds = repetition("llm/test/decode", 0);
  seconds.time_unit = benchmark::kSecond;
  seconds.counters["step_seconds"] = benchmark::Counter(1.0);  // whole: JSONReporter writes 1.0000000000000000e+00
  out.push_back(seconds);
  return out;
}

// What the runner read before issue 61: JSONReporter's text, its bare NaN and Infinity as null, parsed.
json json_reporter_entries(const std::vector<GbRun>& reports) {
  std::stringstream out;
  std::stringstream err;
  benchmark::JSONReporter reporter;
  reporter.SetOutputStream(&out);
  reporter.SetErrorStream(&err);
  reporter.ReportContext(benchmark::BenchmarkReporter::Context());
  reporter.ReportRuns(reports);
  reporter.Finalize();
  static const std::regex bare(R"(: (-?NaN|-?Infinity)(?=[,\n\r}]))");
  return json::parse(std::regex_replace(out.str(), bare, ": null")).at("benchmarks");
}

}  // namespace

TEST(EntryReporter, WritesWhatJsonReporterWrites) {
  const std::vector<GbRun> reports = runs();
  const json expected = json_reporter_entries(reports);
  ASSERT_EQ(expected.size(), reports.size());
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const json ours = to_json(entry_of(reports[i]));
    EXPECT_EQ(ours.dump(), expected[i].dump()) << "run " << i;
  }
}

TEST(EntryReporter, CollectsEveryRunInOrderAndGoogleBenchmarksContext) {
  EntryReporter reporter(nullptr, 1);
  ASSERT_TRUE(reporter.ReportContext(benchmark::BenchmarkReporter::Context()));
  EXPECT_TRUE(reporter.context().contains("host_name"));
  EXPECT_TRUE(reporter.context().contains("library_build_type"));
  const std::vector<GbRun> reports = runs();
  reporter.ReportRuns(reports);
  ASSERT_EQ(reporter.entries().size(), reports.size());
  EXPECT_EQ(reporter.entries()[2].name, "bandwidth/triad/threads:2/bytes:32768/min_time:0.050/repeats:3/real_time_median");
  EXPECT_EQ(reporter.entries()[2].aggregate_unit, "time");
  EXPECT_FALSE(reporter.entries()[2].repetition_index.has_value());
  EXPECT_EQ(reporter.entries()[3].aggregate_unit, "percentage");
  EXPECT_FALSE(reporter.entries()[3].huge_page_bytes.has_value());  // NaN: null in the file, nothing typed
  EXPECT_TRUE(reporter.entries()[3].extra.at("huge_page_bytes").is_null());
  EXPECT_EQ(reporter.entries()[0].bytes_per_second, 123456789012.34567);
  EXPECT_EQ(reporter.entries()[4].error_occurred, true);
}

}  // namespace roofline
