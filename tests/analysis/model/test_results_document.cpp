// The typed results model (issue 47): every recorded run and the hand-made fixture read in strict mode and
// round-trip (read -> write -> read); a field outside the catalogue or the model is refused naming it; the lenient
// reader keeps what it does not know.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "roofline/model/results.hpp"
#include "roofline/model/results_document.hpp"
#include "roofline/model/roofline_section.hpp"
#include "roofline/common/errors.hpp"
#include "support/gzip_json.hpp"
#include "support/input_errors.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::vector<fs::path> recorded_files() {
  std::vector<fs::path> out;
  for (const fs::path& dir : {fs::path(ROOFLINE_TEST_DATA_DIR) / "golden", fs::path(ROOFLINE_SOURCE_DIR) / "results" / "reference"}) {
    for (const auto& f : fs::directory_iterator(dir)) {
      if (f.path().string().ends_with(".json.gz")) out.push_back(f.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

json minimal() {
  return json::parse(R"({
    "context": {"schema_version": 1, "host_name": "h", "threads": [1, 2]},
    "benchmarks": [
      {"name": "a", "run_name": "a", "run_type": "iteration", "repetitions": 3, "real_time": 1.5,
       "bytes_per_second": 1e9, "labels": {"suite": "bandwidth", "kernel": "read", "threads": 2}},
      {"name": "a_max", "run_name": "a", "run_type": "aggregate", "aggregate_name": "max", "labels": {"suite": "bandwidth"}}
    ],
    "roofline": {"schema_version": 1, "compute_ceilings": [], "memory_ceilings": [], "ridge_points": [],
                 "placements": [{"kernel": "gemv", "backend": "eigen", "precision": "fp32", "batch": 1, "threads": 2,
                                 "value": 1e9, "roof": {"engine": "vector", "level": "DRAM"}}]}
  })");
}

std::string strict_error(const json& doc) {
  return testing::input_error_of([&] { (void)read_results(doc, "run.json", ReadMode::strict); });
}

}  // namespace

TEST(ResultsDocument, EveryRecordedRunReadsStrictAndRoundTrips) {
  const std::vector<fs::path> files = recorded_files();
  ASSERT_GE(files.size(), 10u);
  for (const fs::path& f : files) {
    SCOPED_TRACE(f.string());
    const json doc = testing::load_gz(f.string());
    ASSERT_TRUE(doc.is_object());
    const ResultsDocument typed = read_results(doc, f.string(), ReadMode::strict);
    const json written = to_json(typed);
    EXPECT_EQ(written, doc);
    EXPECT_EQ(written.dump(), doc.dump());  // the same text: history's results_hash of it is unchanged
    EXPECT_EQ(to_json(read_results(written, f.string(), ReadMode::strict)).dump(), written.dump());
    EXPECT_FALSE(typed.benchmarks.empty());
    // Every field of an entry and of its labels has its member: the strict reader leaves only explicit nulls.
    const auto only_nulls = [](const json& extra) {
      return std::all_of(extra.begin(), extra.end(), [](const json& v) { return v.is_null(); });
    };
    for (const BenchmarkEntry& e : typed.benchmarks) {
      EXPECT_TRUE(only_nulls(e.extra)) << e.extra.dump();
      if (e.labels) {
        EXPECT_TRUE(only_nulls(e.labels->extra)) << e.labels->extra.dump();
      }
    }
  }
}

// The hand-made fixture of the report tests predates the catalogue (its context.suites.bandwidth has an older
// shape), so it reads leniently: what the model does not type is kept, and written back as it was.
// A device's compute ceilings come from the CPU's derivation (issue 47): the recorded runs with a device, their
// roofline section derived again by this version, read strictly too (every field they gain is the catalogue's).
TEST(ResultsDocument, RecordedDeviceRunsReDerivedReadStrict) {
  std::size_t devices = 0;
  for (const fs::path& f : recorded_files()) {
    SCOPED_TRACE(f.string());
    json doc = testing::load_gz(f.string());
    const json& targets = doc["context"].value("targets", json::array());
    const auto device = [](const json& t) { return t.value("target", "") != "cpu"; };
    if (std::none_of(targets.begin(), targets.end(), device)) continue;
    ++devices;
    doc["roofline"] = testing::derived_section(doc);
    EXPECT_NO_THROW((void)read_results(doc, f.string(), ReadMode::strict));
  }
  EXPECT_GE(devices, 2u);
}

TEST(ResultsDocument, TheHandMadeFixtureRoundTrips) {
  const json doc = load_json_file(fs::path(ROOFLINE_TEST_DATA_DIR) / "report_full.json");
  const ResultsDocument typed = read_results(doc, "report_full.json");
  EXPECT_EQ(to_json(typed).dump(), doc.dump());
  ASSERT_TRUE(typed.context.machine.has_value());
  ASSERT_TRUE(typed.roofline.has_value());
  EXPECT_EQ(typed.roofline->schema_version, 1);
}

TEST(ResultsDocument, FieldsAreTyped) {
  const ResultsDocument d = read_results(minimal(), "run.json", ReadMode::strict);
  ASSERT_EQ(d.benchmarks.size(), 2u);
  const BenchmarkEntry& e = d.benchmarks[0];
  EXPECT_EQ(e.name, "a");
  EXPECT_EQ(e.run_type, "iteration");
  EXPECT_EQ(e.repetitions, 3);
  EXPECT_DOUBLE_EQ(*e.bytes_per_second, 1e9);
  ASSERT_TRUE(e.labels.has_value());
  EXPECT_EQ(e.labels->suite, "bandwidth");
  EXPECT_EQ(e.labels->kernel, "read");
  EXPECT_EQ(e.labels->threads, 2);
  EXPECT_FALSE(e.labels->batch.has_value());
  EXPECT_EQ(d.benchmarks[1].aggregate_name, "max");
  EXPECT_EQ(d.context.schema_version, 1);
  EXPECT_EQ(d.context.threads, (std::vector<long long>{1, 2}));
  ASSERT_TRUE(d.roofline && d.roofline->placements && d.roofline->placements->size() == 1);
  const PlacementRecord& p = d.roofline->placements->front();
  EXPECT_EQ(p.backend, "eigen");
  ASSERT_TRUE(p.roof.has_value());
  EXPECT_EQ(p.roof->level, "DRAM");
}

TEST(ResultsDocument, AnUnknownFieldFailsStrictNamingIt) {
  json doc = minimal();
  doc["benchmarks"][0]["labels"]["flavour"] = "vanilla";
  EXPECT_NE(strict_error(doc).find("benchmarks[].labels.flavour"), std::string::npos) << strict_error(doc);
  EXPECT_NE(strict_error(doc).find("run.json: "), std::string::npos);

  json nested = minimal();
  nested["roofline"]["placements"][0]["roof"]["colour"] = "red";
  EXPECT_NE(strict_error(nested).find("roofline.placements[].roof.colour"), std::string::npos) << strict_error(nested);
}

TEST(ResultsDocument, TheLenientReaderKeepsUnknownFields) {
  json doc = minimal();
  doc["benchmarks"][0]["labels"]["flavour"] = "vanilla";
  doc["roofline"]["placements"][0]["roof"]["colour"] = "red";
  doc["context"]["newer_section"] = {{"a", 1}};
  const ResultsDocument d = read_results(doc, "run.json");
  EXPECT_EQ(d.benchmarks[0].labels->extra.at("flavour"), "vanilla");
  EXPECT_EQ(to_json(d), doc);
}

TEST(ResultsDocument, AMistypedFieldFailsStrictAndIsKeptLenient) {
  json doc = minimal();
  doc["roofline"]["placements"][0]["kernel"] = 5;  // the schema's rules do not cover it; the catalogue does
  EXPECT_EQ(strict_error(doc), "run.json: roofline.placements[].kernel: is integer, the catalogue says text");
  const ResultsDocument d = read_results(doc, "run.json");
  EXPECT_FALSE(d.roofline->placements->front().kernel.has_value());
  EXPECT_EQ(to_json(d), doc);
}

TEST(ResultsDocument, TheSchemaValidationRunsFirst) {
  json doc = minimal();
  doc["benchmarks"][0]["labels"]["suite"] = 3;
  const std::string lenient = testing::input_error_of([&] { (void)read_results(doc, "run.json"); });
  EXPECT_EQ(lenient, "run.json: benchmarks[0].labels.suite is not a string");
  EXPECT_EQ(strict_error(doc), lenient);
}

TEST(ResultsDocument, NullsAndAbsentFieldsRoundTrip) {
  json doc = minimal();
  doc["benchmarks"][0]["labels"]["kernel"] = nullptr;
  const ResultsDocument d = read_results(doc, "run.json", ReadMode::strict);
  EXPECT_FALSE(d.benchmarks[0].labels->kernel.has_value());
  EXPECT_EQ(to_json(d), doc);
  EXPECT_FALSE(to_json(d)["benchmarks"][1].contains("repetitions"));
}

TEST(ResultsDocument, BenchmarkEntriesAreTheJsonReadersOnEveryRecordedRun) {
  for (const fs::path& f : recorded_files()) {
    SCOPED_TRACE(f.string());
    const json doc = testing::load_gz(f.string());
    const ResultsDocument typed = read_results(doc, f.string());
    for (const char* suite : {"", "bandwidth", "compute", "gemm"}) {
      for (const char* aggregate : {"", "median", "max"}) {
        const std::vector<json> expected = benchmark_entries(doc, suite, aggregate);
        const std::vector<const BenchmarkEntry*> got = benchmark_entries(typed, suite, aggregate);
        ASSERT_EQ(got.size(), expected.size()) << suite << " " << aggregate;
        for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(to_json(*got[i]), expected[i]);
      }
    }
  }
}

TEST(ResultsDocument, PlainGoogleBenchmarkJsonHasNoRooflineSection) {
  const json doc = json::parse(R"({"context": {"host_name": "h"}, "benchmarks": [{"name": "BM_x", "real_time": 2}]})");
  const ResultsDocument d = read_results(doc, "gb.json");
  EXPECT_FALSE(d.roofline.has_value());
  EXPECT_EQ(d.benchmarks[0].name, "BM_x");
  const json written = d;  // nlohmann's ADL hook
  EXPECT_EQ(written, doc);
}

}  // namespace roofline
