// End-to-end: `roofline report` on the hand-made files of tests/data: the default HTML beside the results,
// --svg/--csv/--text, no overwrite without --force, and bad input (not JSON, truncated, schema version 2,
// missing roofline section, bad spec) ending in one line, exit code 2 and no output file at all.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <tuple>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace roofline::testing {
namespace {
namespace fs = std::filesystem;
const fs::path kData = ROOFLINE_TEST_DATA_DIR;

// Copies a data file into `dir` so the default output (beside the results) lands in a temp folder.
fs::path copy_in(const TempDir& dir, const std::string& name) {
  const fs::path to = dir / name;
  fs::copy_file(kData / name, to);
  return to;
}

void expect_one_line_error(const CliResult& r, const std::string& names) {
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(names), std::string::npos) << r.err;
}

TEST(CliReport, WritesHtmlBesideTheResultsByDefault) {
  TempDir dir;
  const fs::path results = copy_in(dir, "report_minimal.json");
  const CliResult r = run_cli({"report", results.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const fs::path html = dir / "report_minimal.html";
  ASSERT_TRUE(fs::exists(html));
  EXPECT_NE(r.out.find(html.string()), std::string::npos) << r.out;
  EXPECT_NE(read_file(html).find("id=\"roofline-chart\""), std::string::npos);
}

TEST(CliReport, DoesNotOverwriteWithoutForce) {
  TempDir dir;
  const fs::path results = copy_in(dir, "report_minimal.json");
  write_file(dir / "out.html", "keep me");
  const CliResult r = run_cli({"report", results.string(), "--html", (dir / "out.html").string()});
  expect_one_line_error(r, "--force");
  EXPECT_EQ(read_file(dir / "out.html"), "keep me");
  const CliResult forced = run_cli({"report", results.string(), "--html", (dir / "out.html").string(), "--force"});
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_NE(read_file(dir / "out.html"), "keep me");
}

TEST(CliReport, CsvHasOneRowPerBenchmarkPoint) {
  TempDir dir;
  const CliResult r = run_cli({"report", (kData / "report_full.json").string(), "--csv", (dir / "points.csv").string(),
                               "--svg", (dir / "chart.svg").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string csv = read_file(dir / "points.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 111 + 1);  // 111 entries in report_full.json + header
  EXPECT_NE(read_file(dir / "chart.svg").find("class=\"ceiling compute\""), std::string::npos);
  EXPECT_FALSE(fs::exists(kData / "report_full.html"));  // explicit outputs only
}

TEST(CliReport, TextSummaryWithSpec) {
  const CliResult r = run_cli({"report", (kData / "report_minimal.json").string(), "--text", "--spec",
                               (kData / "spec_test_cpu.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Compute ceilings"), std::string::npos);
  EXPECT_NE(r.out.find("100 GFLOP/s"), std::string::npos);
  EXPECT_NE(r.out.find("assumes 2:4 sparsity"), std::string::npos);
  EXPECT_FALSE(fs::exists(kData / "report_minimal.html"));  // --text alone writes no file
}

TEST(CliReport, RederiveRecomputesTheRooflineSectionFromTheBenchmarks) {
  // The reference run of the development VM: re-deriving its section with this build's analysis must give
  // ceilings at every level for both thread counts, without touching the file.
  TempDir dir;
  const fs::path gz = fs::path(ROOFLINE_SOURCE_DIR) / "results/reference/vm-emerald-rapids-2vcpu_quick.json.gz";
  if (!fs::exists(gz) || std::system(("gzip -dc '" + gz.string() + "' > '" + (dir / "ref.json").string() + "'").c_str()) != 0) {
    GTEST_SKIP() << "no reference run or no gzip";
  }
  const std::string before = read_file(dir / "ref.json");
  const CliResult r = run_cli({"report", (dir / "ref.json").string(), "--rederive", "--text"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* level : {"L1", "L2", "L3", "DRAM"}) {
    EXPECT_NE(r.out.find(std::string("\n  ") + level), std::string::npos) << level;
  }
  EXPECT_NE(r.out.find("Crossovers"), std::string::npos);
  EXPECT_EQ(read_file(dir / "ref.json"), before);
}

TEST(CliReport, RederiveJsonWritesTheRepairedFileAndNeverOverwritesWithoutForce) {
  TempDir dir;
  const fs::path results = copy_in(dir, "report_full.json");
  const fs::path out = dir / "repaired.json";
  const CliResult r = run_cli({"report", results.string(), "--rederive", "--json", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(out.string()), std::string::npos) << r.out;
  const std::string repaired = read_file(out);
  EXPECT_NE(repaired.find("\"memory_levels\""), std::string::npos);
  EXPECT_NE(repaired.find("\"benchmarks\""), std::string::npos);
  // The repaired file is a results file again: it renders.
  const CliResult again = run_cli({"report", out.string(), "--text"});
  EXPECT_EQ(again.exit_code, 0) << again.err;

  write_file(out, "keep me");
  const CliResult refused = run_cli({"report", results.string(), "--rederive", "--json", out.string()});
  expect_one_line_error(refused, "--json");
  EXPECT_EQ(read_file(out), "keep me");
  const CliResult forced = run_cli({"report", results.string(), "--rederive", "--json", out.string(), "--force"});
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_EQ(read_file(out), repaired);
  // Not onto the input itself.
  expect_one_line_error(run_cli({"report", results.string(), "--rederive", "--json", results.string(), "--force"}),
                        "--json");
}

TEST(CliReport, BadResultsExitTwoAndWriteNothing) {
  for (const char* name : {"report_not_json.json", "report_truncated.json", "report_schema2.json",
                           "report_no_roofline.json"}) {
    SCOPED_TRACE(name);
    TempDir dir;
    const fs::path results = copy_in(dir, name);
    const CliResult r = run_cli({"report", results.string(), "--csv", (dir / "x.csv").string(), "--html",
                                 (dir / "x.html").string()});
    expect_one_line_error(r, name);
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);  // only the input
  }
}

TEST(CliReport, FieldOfTheWrongTypeOrSignExitsTwo) {
  // A ceiling whose value is a string, and a negative placement: refused, naming the file and field.
  for (const auto& [array, field, value] : {std::tuple{"compute_ceilings", "value", nlohmann::json("fast")},
                                            std::tuple{"placements", "value", nlohmann::json(-1.0)}}) {
    SCOPED_TRACE(array);
    TempDir dir;
    const fs::path results = copy_in(dir, "report_full.json");
    nlohmann::json doc = nlohmann::json::parse(std::ifstream(results));
    doc["roofline"][array][0][field] = value;
    std::ofstream(results, std::ios::trunc) << doc.dump();
    const CliResult r = run_cli({"report", results.string(), "--text"});
    expect_one_line_error(r, fmt::format("roofline.{}[0].{}", array, field));
    EXPECT_EQ(r.out, "");
  }
}

TEST(CliReport, BadSpecExitsTwoAndWritesNothing) {
  for (const char* name : {"spec_bad_unit.json", "spec_negative.json"}) {
    SCOPED_TRACE(name);
    TempDir dir;
    const fs::path results = copy_in(dir, "report_minimal.json");
    const CliResult r = run_cli({"report", results.string(), "--spec", (kData / name).string()});
    expect_one_line_error(r, name);
    EXPECT_FALSE(fs::exists(dir / "report_minimal.html"));
  }
}

TEST(CliReport, LaterOutputInAMissingFolderStopsAllOutputs) {
  TempDir dir;
  const CliResult r = run_cli({"report", (kData / "report_minimal.json").string(), "--csv", (dir / "a.csv").string(),
                               "--html", (dir / "missing" / "a.html").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_FALSE(fs::exists(dir / "a.csv"));
}

}  // namespace
}  // namespace roofline::testing
