// End-to-end: `roofline history changes` (issue 59) on a database that `history add` fills with tests/data/compare's
// base.json, its memory ceilings scaled as test_cli_gate.cpp's history does: six runs within 1%, then six 15% slower.
// The change is listed once per memory figure, at the seventh run, the same text every call; JSON; bad input is exit 2
// with one line; and the chart marks it.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace roofline::testing {
namespace {
using nlohmann::json;

const std::string kDir = std::string(ROOFLINE_TEST_DATA_DIR) + "/compare/";
const std::string kTriad = "memory/DRAM/triad/threads:2";

void expect_one_line_error(const CliResult& r) {
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(one_line(r.err)) << r.err;
  EXPECT_EQ(r.err.rfind("roofline: ", 0), 0u) << r.err;
}

class CliHistoryChanges : public ::testing::Test {
 protected:
  void SetUp() override {
    const json base = json::parse(read_file(kDir + "base.json"));
    // The medians either side are exactly 1 and 0.85 (the offsets are symmetric): a -15.0% change.
    const double offsets[] = {0.0, 0.01, -0.01, 0.005, -0.005, 0.0};
    for (int i = 0; i < 12; ++i) {
      json doc = base;
      doc["context"]["git_revision"] = fmt::format("rev{:02}", i + 1);
      doc["context"]["date"] = fmt::format("2026-01-{:02}T10:00:00+00:00", i + 1);
      const double scale = (i < 6 ? 1.0 : 0.85) * (1.0 + offsets[i % 6]);
      for (json& e : doc["roofline"]["memory_ceilings"]) e["value"] = e["value"].get<double>() * scale;
      const auto path = dir_ / fmt::format("run{}.json", i + 1);
      write_file(path, doc.dump());
      ASSERT_EQ(run_cli({"history", "add", path.string(), "--db", db_}).exit_code, 0);
    }
  }
  TempDir dir_;
  const std::string db_ = (dir_ / "history.db").string();
};

TEST_F(CliHistoryChanges, ListsTheStepOfEachMemoryFigure) {
  const CliResult r = run_cli({"history", "changes", "--db", db_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("runs: 12, key figures: 4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("key figure"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(kTriad + "  DRAM triad"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("#6 rev06 2026-01-06 10:00  #7 rev07 2026-01-07 10:00   6/12  -15.0%"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 change point(s) in 2 of 4 key figure(s)"), std::string::npos) << r.out;  // L1 read and DRAM triad
  EXPECT_EQ(r.out.find("compute/"), std::string::npos) << r.out;  // the figures that did not move are not listed
  EXPECT_EQ(run_cli({"history", "changes", "--db", db_}).out, r.out);  // fixed seed: the same text every call
}

TEST_F(CliHistoryChanges, JsonOneFigureAndTheSizeFloor) {
  const CliResult r = run_cli({"history", "changes", "--db", db_, "--figure", kTriad, "--json", "-"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["figures"], 1);
  ASSERT_EQ(j["changes"].size(), 1u) << r.out;
  const json& c = j["changes"][0];
  EXPECT_EQ(c["figure"], kTriad);
  EXPECT_EQ(c["index"], 6);
  EXPECT_NEAR(c["size"].get<double>(), -0.15, 1e-9);
  EXPECT_LE(c["p_value"].get<double>(), 0.05);
  EXPECT_EQ(c["before"]["git_revision"], "rev06");
  EXPECT_EQ(c["after"]["run"], 7);
  // A floor above the step: nothing listed, still exit 0.
  const CliResult floor = run_cli({"history", "changes", "--db", db_, "--min-change", "20%"});
  EXPECT_EQ(floor.exit_code, 0) << floor.err;
  EXPECT_NE(floor.out.find("no change points in 4 key figure(s) over 12 run(s)"), std::string::npos) << floor.out;
}

TEST_F(CliHistoryChanges, BadInputIsOneLineAndExitTwo) {
  expect_one_line_error(run_cli({"history", "changes", "--db", db_, "--figure", "memory/L9/read/threads:2"}));
  expect_one_line_error(run_cli({"history", "changes", "--db", (dir_ / "missing.db").string()}));
  expect_one_line_error(run_cli({"history", "changes", "--db", db_, "--alpha", "2"}));
  expect_one_line_error(run_cli({"history", "changes", "--db", db_, "--min-change", "five"}));
  const CliResult r = run_cli({"history", "changes", "--db", db_, "--figure", "nope"});
  EXPECT_NE(r.err.find("--figure: no key figure 'nope'"), std::string::npos) << r.err;
}

TEST_F(CliHistoryChanges, TheChartMarksTheChange) {
  const auto svg = dir_ / "trend.svg";
  const CliResult r = run_cli({"history", "show", "--db", db_, "--svg", svg.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string chart = read_file(svg);
  EXPECT_NE(chart.find("class=\"change-point\"><title>change -15.0%"), std::string::npos) << chart;
}

}  // namespace
}  // namespace roofline::testing
