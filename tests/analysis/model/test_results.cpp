// Loading and validating results files, and deriving the roofline section's shared parts.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <fstream>

#include "roofline/common/errors.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/roofline_section.hpp"
#include "support/input_errors.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
fs::path write_tmp(const std::string& name, const std::string& content) {
  const fs::path p = fs::temp_directory_path() / ("roofline-results-test-" + name);
  std::ofstream(p) << content;
  return p;
}

json minimal_results() {
  return json::parse(R"({
    "context": {"schema_version": 1, "host_name": "h"},
    "benchmarks": [
      {"name": "a", "run_name": "a", "run_type": "iteration", "real_time": 1.0, "labels": {"suite": "bandwidth"}},
      {"name": "a_max", "run_name": "a", "run_type": "aggregate", "aggregate_name": "max", "labels": {"suite": "bandwidth"}},
      {"name": "b", "run_name": "b", "run_type": "iteration", "error_occurred": true, "labels": {"suite": "compute"}}
    ],
    "roofline": {"schema_version": 1, "compute_ceilings": [], "memory_ceilings": [], "ridge_points": [], "placements": []}
  })");
}

std::string message_of(const fs::path& p) {
  return testing::input_error_of([&] { load_results(p); });
}
}  // namespace

TEST(Results, LoadsAValidFile) {
  const fs::path p = write_tmp("ok.json", minimal_results().dump());
  EXPECT_NO_THROW(load_results(p));
  fs::remove(p);
}

TEST(Results, RejectsBrokenFilesWithOneLine) {
  const std::string text = minimal_results().dump();
  const fs::path truncated = write_tmp("trunc.json", text.substr(0, text.size() / 2));
  EXPECT_NE(message_of(truncated).find("truncated JSON"), std::string::npos) << message_of(truncated);
  const fs::path garbage = write_tmp("garbage.json", "this is not json");
  EXPECT_NE(message_of(garbage).find("not valid JSON"), std::string::npos);
  const fs::path empty = write_tmp("empty.json", "");
  EXPECT_NE(message_of(empty).find("empty"), std::string::npos);
  EXPECT_NE(message_of("/nonexistent/x.json").find("no such file"), std::string::npos);
  for (const auto& p : {truncated, garbage, empty}) fs::remove(p);
}

TEST(Results, RejectsOtherSchemaVersionsAndMissingSections) {
  json v2 = minimal_results();
  v2["context"]["schema_version"] = 2;
  const fs::path p2 = write_tmp("v2.json", v2.dump());
  EXPECT_NE(message_of(p2).find("schema version 2"), std::string::npos) << message_of(p2);

  json no_roofline = minimal_results();
  no_roofline.erase("roofline");
  const fs::path p3 = write_tmp("noroof.json", no_roofline.dump());
  EXPECT_NE(message_of(p3).find("'roofline' section is missing"), std::string::npos) << message_of(p3);

  json no_placements = minimal_results();
  no_placements["roofline"].erase("placements");
  const fs::path p4 = write_tmp("noplace.json", no_placements.dump());
  EXPECT_NE(message_of(p4).find("roofline.placements"), std::string::npos);
  for (const auto& p : {p2, p3, p4}) fs::remove(p);
}

TEST(Results, ClassifiesPlainGoogleBenchmarkJson) {
  const json plain = json::parse(R"({"context": {"date": "x"}, "benchmarks": []})");
  EXPECT_EQ(classify_results(plain, "p.json"), ResultsKind::google_benchmark);
  EXPECT_THROW(classify_results(json::parse(R"({"foo": 1})"), "f.json"), InputError);
  EXPECT_THROW(classify_results(json::parse("[1,2]"), "f.json"), InputError);
}

TEST(Results, BenchmarkEntriesFiltersBySuiteAndAggregate) {
  const json doc = minimal_results();
  EXPECT_EQ(benchmark_entries(doc, "bandwidth").size(), 1u);
  EXPECT_EQ(benchmark_entries(doc, "bandwidth", "max").size(), 1u);
  EXPECT_EQ(benchmark_entries(doc, "compute").size(), 0u);  // failed entries are left out
  EXPECT_EQ(benchmark_entries(doc, "").size(), 1u);
}

TEST(RooflineSection, RidgePointsFromCeilings) {
  json section = {{"compute_ceilings", json::array({{{"precision", "fp32"}, {"isa", "avx512"}, {"threads", 2}, {"value", 400e9}},
                                                    {{"precision", "fp32"}, {"isa", "avx2"}, {"threads", 2}, {"value", 200e9}}})},
                  {"memory_ceilings", json::array({{{"level", "DRAM"}, {"kernel", "triad"}, {"threads", 2}, {"value", 80e9}},
                                                   {{"level", "DRAM"}, {"kernel", "read"}, {"threads", 2}, {"value", 50e9}},
                                                   {{"level", "L1"}, {"kernel", "triad"}, {"threads", 2}, {"value", 800e9}}})}};
  const json ridges = testing::derived_ridge_points(section);
  ASSERT_EQ(ridges.size(), 2u);  // one precision (best ISA only) x two levels
  for (const json& r : ridges) {
    if (r["level"] == "DRAM") {
      EXPECT_EQ(r["kernel"], "read");  // the roof kernel wins over a faster kernel
      EXPECT_DOUBLE_EQ(r["ai"].get<double>(), 8.0);
    } else {
      EXPECT_EQ(r["kernel"], "triad");  // no read ceiling at L1: the best one stands in
      EXPECT_DOUBLE_EQ(r["ai"].get<double>(), 0.5);
    }
  }
  const RooflineSection typed = read_roofline_section(section, "test.json");
  ASSERT_NE(compute_roof(typed, "fp32", 2), nullptr);
  EXPECT_EQ(compute_roof(typed, "fp32", 2)->isa.value_or(""), "avx512");
  EXPECT_EQ(compute_roof(typed, "fp64", 2), nullptr);
}

TEST(RooflineSection, DeriveOnEmptyRunHasTheFixedShape) {
  const json section = testing::derived_section(json::parse(R"({"context": {}, "benchmarks": []})"));
  EXPECT_EQ(section["schema_version"], 1);
  for (const char* key : {"compute_ceilings", "memory_ceilings", "ridge_points", "placements"}) {
    EXPECT_TRUE(section[key].is_array()) << key;
  }
  EXPECT_TRUE(section["conventions"].contains("flop"));
  // Typed (issue 61): the conventions a map of topics, read back and written to the same text.
  const RooflineSection typed = read_roofline_section(section, "test.json");
  ASSERT_TRUE(typed.conventions.has_value());
  EXPECT_FALSE(typed.extra.contains("conventions"));
  EXPECT_EQ(typed.conventions->count("flop"), 1u);
  EXPECT_EQ(to_json(typed).dump(), section.dump());
}

}  // namespace roofline

namespace roofline {
namespace {
// A results file whose roofline section holds one valid entry of each checked array.
json results_with_entries() {
  json doc = json::parse(R"({
    "context": {"schema_version": 1, "host_name": "h"}, "benchmarks": [],
    "roofline": {"schema_version": 1,
      "compute_ceilings": [{"precision": "fp32", "isa": "avx512", "threads": 2, "value": 3.7e11, "unit": "FLOP/s"}],
      "memory_ceilings": [{"level": "DRAM", "kernel": "read", "threads": 2, "value": 3.4e10, "min_bytes": 1, "max_bytes": 2,
                           "pages": "2M", "huge_page_fraction": 1.0}],
      "page_size_ceilings": [{"level": "DRAM", "kernel": "read", "threads": 2, "value": 2.3e10, "pages": "4K",
                              "huge_page_fraction": null}],
      "ridge_points": [{"precision": "fp32", "level": "DRAM", "threads": 2, "ai": 10.9, "pages": "2M"}],
      "placements": [{"backend": "eigen", "precision": "fp32", "batch": 1, "threads": 2, "value": 1.7e10, "ai": 0.5,
                      "roof": {"engine": "vector", "level": "DRAM"}}]}
  })");
  return doc;
}

std::string field_error(const json& doc) {
  return testing::input_error_of([&] { classify_results(doc, "run.json"); });
}
}  // namespace

TEST(ResultsFields, ValidEntriesPass) { EXPECT_EQ(field_error(results_with_entries()), ""); }

TEST(ResultsFields, WrongTypeSignOrVocabularyIsNamed) {
  struct Case {
    const char* array;
    const char* field;
    json value;
    const char* message;
  };
  const Case cases[] = {
      {"compute_ceilings", "value", "fast", "run.json: roofline.compute_ceilings[0].value is not a number"},
      {"compute_ceilings", "precision", "fp4", "run.json: roofline.compute_ceilings[0].precision 'fp4' is not a precision"},
      {"compute_ceilings", "engine", "tensor", "run.json: roofline.compute_ceilings[0].engine 'tensor' is not an engine (vector, matrix)"},
      {"compute_ceilings", "threads", 0, "run.json: roofline.compute_ceilings[0].threads is not a positive integer"},
      {"memory_ceilings", "level", "L4", "run.json: roofline.memory_ceilings[0].level 'L4' is not a memory level"},
      {"memory_ceilings", "value", -1.0, "run.json: roofline.memory_ceilings[0].value is negative or not finite"},
      {"memory_ceilings", "plateau_median", "fast", "run.json: roofline.memory_ceilings[0].plateau_median is not a number"},
      {"memory_ceilings", "pages", "1G", "run.json: roofline.memory_ceilings[0].pages '1G' is not a page size (2M, 4K)"},
      {"memory_ceilings", "pages", 4096, "run.json: roofline.memory_ceilings[0].pages is not a string"},
      {"memory_ceilings", "huge_page_fraction", "most", "run.json: roofline.memory_ceilings[0].huge_page_fraction is not a number"},
      {"memory_ceilings", "huge_page_fraction", 1.5, "run.json: roofline.memory_ceilings[0].huge_page_fraction is not between 0 and 1"},
      {"page_size_ceilings", "pages", "4k", "run.json: roofline.page_size_ceilings[0].pages '4k' is not a page size (2M, 4K)"},
      {"page_size_ceilings", "value", "slow", "run.json: roofline.page_size_ceilings[0].value is not a number"},
      {"page_size_ceilings", "huge_page_fraction", -0.1, "run.json: roofline.page_size_ceilings[0].huge_page_fraction is not between 0 and 1"},
      {"ridge_points", "pages", true, "run.json: roofline.ridge_points[0].pages is not a string"},
      {"memory_ceilings", "target", 3, "run.json: roofline.memory_ceilings[0].target is not a string"},
      {"ridge_points", "ai", "high", "run.json: roofline.ridge_points[0].ai is not a number"},
      {"placements", "value", -5.0, "run.json: roofline.placements[0].value is negative or not finite"},
      {"placements", "batch", 1.5, "run.json: roofline.placements[0].batch is not a positive integer"},
      {"placements", "roof", json{{"engine", "gpu"}}, "run.json: roofline.placements[0].roof.engine 'gpu' is not an engine (vector, matrix)"},
      {"placements", "roof", json{{"level", "DRAM"}, {"pages", "huge"}}, "run.json: roofline.placements[0].roof.pages 'huge' is not a page size (2M, 4K)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.array) + "." + c.field);
    json doc = results_with_entries();
    doc["roofline"][c.array][0][c.field] = c.value;
    EXPECT_EQ(field_error(doc), c.message);
  }
  json doc = results_with_entries();
  doc["roofline"]["placements"][0].erase("value");
  EXPECT_EQ(field_error(doc), "run.json: roofline.placements[0].value is missing");
  doc = results_with_entries();
  doc["roofline"]["page_size_ceilings"][0].erase("pages");
  EXPECT_EQ(field_error(doc), "run.json: roofline.page_size_ceilings[0].pages is missing");
  doc = results_with_entries();
  doc["roofline"].erase("page_size_ceilings");  // files from before page sizes
  EXPECT_EQ(field_error(doc), "");
  doc = results_with_entries();
  doc["roofline"]["memory_ceilings"][0] = 3;
  EXPECT_EQ(field_error(doc), "run.json: roofline.memory_ceilings[0] is not an object");
}

}  // namespace roofline

namespace roofline {

// The benchmark entries and machine facts --rederive reads are type-checked when the file is read, so that
// the derive code never meets a wrong type (it used to turn any json type error, ours too, into bad input).
TEST(InputFields, ValidBenchmarksAndMachinePass) {
  json doc = minimal_results();
  doc["context"]["machine"] = json::parse(R"({"cpu_model": "x", "cores": 2, "isa": {"avx2": true},
      "caches": [{"type": "data", "level": 1, "size_bytes": 32768, "instances": 2, "cores_per_instance": 1}]})");
  doc["benchmarks"][0]["labels"]["threads"] = 2;
  doc["benchmarks"][0]["bytes_per_second"] = 1e10;
  doc["benchmarks"][0]["custom_counter"] = 3;  // unknown scalars may be added
  EXPECT_EQ(testing::input_error_of([&] { classify_results(doc, "run.json"); }), "");
}

TEST(InputFields, WrongTypesAreNamedInOneLine) {
  struct Case {
    const char* what;
    std::function<void(json&)> edit;
    const char* message;
  };
  const Case cases[] = {
      {"run_type", [](json& d) { d["benchmarks"][0]["run_type"] = 5; }, "run.json: benchmarks[0].run_type is not a string"},
      {"suite", [](json& d) { d["benchmarks"][1]["labels"]["suite"] = json::array({"x"}); },
       "run.json: benchmarks[1].labels.suite is not a string"},
      {"labels", [](json& d) { d["benchmarks"][0]["labels"] = "bandwidth"; }, "run.json: benchmarks[0].labels is not an object"},
      {"label threads", [](json& d) { d["benchmarks"][0]["labels"]["threads"] = "two"; },
       "run.json: benchmarks[0].labels.threads is not a non-negative integer"},
      {"unknown label", [](json& d) { d["benchmarks"][0]["labels"]["extra"] = json::object(); },
       "run.json: benchmarks[0].labels.extra is not a number or word"},
      {"counter", [](json& d) { d["benchmarks"][0]["bytes_per_second"] = "fast"; },
       "run.json: benchmarks[0].bytes_per_second is not a number"},
      {"unknown counter", [](json& d) { d["benchmarks"][0]["extra"] = json::array(); },
       "run.json: benchmarks[0].extra is not a number, word or flag"},
      {"error_occurred", [](json& d) { d["benchmarks"][2]["error_occurred"] = "yes"; },
       "run.json: benchmarks[2].error_occurred is not true or false"},
      {"entry", [](json& d) { d["benchmarks"][1] = 7; }, "run.json: benchmarks[1] is not an object"},
      {"machine", [](json& d) { d["context"]["machine"] = "vm"; }, "run.json: context.machine is not an object"},
      {"cores", [](json& d) { d["context"]["machine"] = {{"cores", -2}}; },
       "run.json: context.machine.cores is not a non-negative integer"},
      {"isa flag", [](json& d) { d["context"]["machine"] = {{"isa", {{"avx2", 1}}}}; },
       "run.json: context.machine.isa.avx2 is not true or false"},
      {"cache", [](json& d) { d["context"]["machine"] = {{"caches", json::array({{{"level", "one"}}})}}; },
       "run.json: context.machine.caches[0].level is not a non-negative integer"},
      {"caches", [](json& d) { d["context"]["machine"] = {{"caches", 3}}; }, "run.json: context.machine.caches is not an array"},
      {"targets", [](json& d) { d["context"]["targets"] = json::array({{{"target", 0}}}); },
       "run.json: context.targets[0].target is not a string"},
      {"target memory", [](json& d) { d["context"]["targets"] = json::array({{{"target", "gpu"}, {"memory_total_bytes", "80G"}}}); },
       "run.json: context.targets[0].memory_total_bytes is not a number"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    json doc = minimal_results();
    c.edit(doc);
    EXPECT_EQ(testing::input_error_of([&] { classify_results(doc, "run.json"); }), c.message);
  }
}

}  // namespace roofline
