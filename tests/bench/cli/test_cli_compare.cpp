// End-to-end: `roofline compare` and `roofline history` on the hand-made files of tests/data/compare
// (make_fixtures.py): exit codes 0/1/2, the three output formats, machine mismatch, plain Google
// Benchmark JSON, bad input, and a history database that must survive bad input and concurrent adds.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"
#include "support/two_processes.hpp"

namespace roofline::testing {
namespace {

const std::string kDir = std::string(ROOFLINE_TEST_DATA_DIR) + "/compare/";

CliResult compare(const std::string& base, const std::string& next, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"compare", kDir + base, kDir + next};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_cli(args);
}

void expect_one_line_error(const CliResult& r) {
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("roofline: ", 0), 0u) << r.err;
}

TEST(CliCompare, IdenticalRunsExitZero) {
  const CliResult r = compare("base.json", "same.json");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("0 regression(s)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("REGRESSION"), std::string::npos) << r.out;
}

TEST(CliCompare, TightTwentyPercentSlowdownExitsOne) {
  const CliResult r = compare("base.json", "slow20.json");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("REGRESSION"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("-20.0%"), std::string::npos) << r.out;
}

TEST(CliCompare, SmallOrNoisyChangesExitZero) {
  EXPECT_EQ(compare("base.json", "slow3.json").exit_code, 0);
  EXPECT_EQ(compare("base.json", "fast20.json").exit_code, 0);
  EXPECT_EQ(compare("base.json", "slow3.json", {"--floor-no-history", "2%"}).exit_code, 1);
}

TEST(CliCompare, FewRepetitionsAreMarkedLowConfidence) {
  const CliResult r = compare("base_3reps.json", "slow20_3reps.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("low confidence"), std::string::npos) << r.out;
}

TEST(CliCompare, MarkdownAndJsonOutput) {
  const CliResult md = compare("base.json", "slow20.json", {"--markdown", "-"});
  EXPECT_EQ(md.exit_code, 1);
  EXPECT_NE(md.out.find("## roofline compare"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("|---|"), std::string::npos);

  const CliResult js = compare("base.json", "slow20.json", {"--json", "-"});
  EXPECT_EQ(js.exit_code, 1);
  const auto doc = nlohmann::json::parse(js.out);
  EXPECT_EQ(doc["summary"]["regressions"], 1);
  EXPECT_EQ(doc["exit_code"], 1);

  TempDir dir;
  const CliResult out = compare("base.json", "same.json", {"--markdown", (dir / "summary.md").string()});
  EXPECT_EQ(out.exit_code, 0) << out.err;
  EXPECT_NE(read_file(dir / "summary.md").find(":white_check_mark: no regression"), std::string::npos);
  // No overwrite without --force.
  expect_one_line_error(compare("base.json", "same.json", {"--markdown", (dir / "summary.md").string()}));
  EXPECT_EQ(compare("base.json", "same.json", {"--markdown", (dir / "summary.md").string(), "--force"}).exit_code, 0);
}

TEST(CliCompare, MachineMismatchRefusesToGateUnlessAllowed) {
  const CliResult r = compare("base.json", "other_machine.json");
  expect_one_line_error(r);
  EXPECT_NE(r.err.find("--allow-machine-mismatch"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("WARNING: the runs come from different machines"), 0u) << r.out.substr(0, 300);
  const CliResult allowed = compare("base.json", "other_machine.json", {"--allow-machine-mismatch"});
  EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
  EXPECT_NE(allowed.out.find("WARNING"), std::string::npos);
}

TEST(CliCompare, PlainGoogleBenchmarkJson) {
  const CliResult r = compare("gbench_base.json", "gbench_new.json", {"--json", "-"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["base"]["kind"], "google_benchmark");
  bool saw_slower = false;
  for (const auto& row : doc["rows"]) {
    if (row["name"] == "BM_Slower") {
      saw_slower = true;
      EXPECT_EQ(row["verdict"], "regression");
      EXPECT_NEAR(row["time_pvalue"].get<double>(), 0.00041229480206169127, 1e-15);  // compare.py --utest
    }
  }
  EXPECT_TRUE(saw_slower);
}

TEST(CliCompare, BadInputIsOneLineAndExitTwo) {
  expect_one_line_error(compare("base.json", "neither.json"));
  expect_one_line_error(compare("base.json", "truncated.json"));
  expect_one_line_error(compare("base.json", "schema2.json"));
  expect_one_line_error(compare("base.json", "disjoint.json"));
  expect_one_line_error(compare("base.json", "missing.json"));
  expect_one_line_error(compare("base.json", "same.json", {"--row-threshold", "five"}));
  const CliResult r = compare("base.json", "disjoint.json");
  EXPECT_NE(r.err.find("no benchmarks in common"), std::string::npos) << r.err;
}

TEST(CliHistory, AddShowAndChart) {
  TempDir dir;
  const std::string db = (dir / "history.db").string();
  const CliResult a = run_cli({"history", "add", kDir + "base.json", "--db", db});
  EXPECT_EQ(a.exit_code, 0) << a.err;
  EXPECT_NE(a.out.find("added run #1"), std::string::npos) << a.out;
  EXPECT_EQ(run_cli({"history", "add", kDir + "slow20.json", "--db", db}).exit_code, 0);
  const CliResult dup = run_cli({"history", "add", kDir + "base.json", "--db", db});
  EXPECT_EQ(dup.exit_code, 0);
  EXPECT_NE(dup.out.find("already recorded as run #1"), std::string::npos) << dup.out;

  const CliResult s = run_cli({"history", "show", "--db", db, "--svg", (dir / "trend.svg").string(), "--html",
                               (dir / "trend.html").string()});
  EXPECT_EQ(s.exit_code, 0) << s.err;
  EXPECT_NE(s.out.find("history: 2 run(s)"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("aaaa111"), std::string::npos);
  EXPECT_NE(s.out.find("cccc333"), std::string::npos);
  EXPECT_NE(s.out.find("DRAM triad"), std::string::npos);
  EXPECT_NE(read_file(dir / "trend.svg").find("<polyline"), std::string::npos);
  EXPECT_NE(read_file(dir / "trend.html").find("<svg"), std::string::npos);
  // The database also comes from the environment.
  EXPECT_EQ(run_cli({"history", "show"}, {"ROOFLINE_HISTORY_DB=" + db}).exit_code, 0);
}

TEST(CliHistory, BadInputKeepsEarlierRuns) {
  TempDir dir;
  const std::string db = (dir / "history.db").string();
  ASSERT_EQ(run_cli({"history", "add", kDir + "base.json", "--db", db}).exit_code, 0);
  expect_one_line_error(run_cli({"history", "add", kDir + "truncated.json", "--db", db}));
  expect_one_line_error(run_cli({"history", "add", kDir + "gbench_base.json", "--db", db}));
  expect_one_line_error(run_cli({"history", "add", kDir + "schema2.json", "--db", db}));
  const CliResult s = run_cli({"history", "show", "--db", db});
  EXPECT_EQ(s.exit_code, 0);
  EXPECT_NE(s.out.find("history: 1 run(s)"), std::string::npos) << s.out;
}

TEST(CliHistory, CorruptDatabaseIsRefusedAndUntouched) {
  TempDir dir;
  const auto db = dir / "history.db";
  write_file(db, "SQLite format 3 -- but not really, the rest of this file is garbage\n");
  const std::string before = read_file(db);
  expect_one_line_error(run_cli({"history", "add", kDir + "base.json", "--db", db.string()}));
  expect_one_line_error(run_cli({"history", "show", "--db", db.string()}));
  EXPECT_EQ(read_file(db), before);
}

TEST(CliHistory, TwoProcessesAddingAtOnce) {
  TempDir dir;
  const std::string db = (dir / "history.db").string();
  const std::vector<std::string> files{"base.json", "same.json", "slow20.json", "slow3.json", "fast20.json",
                                       "noisy_base.json", "noisy20.json", "other_machine.json"};
  ASSERT_NO_FATAL_FAILURE(expect_two_processes_succeed([&](int c) {
    int failures = 0;
    for (std::size_t i = static_cast<std::size_t>(c); i < files.size(); i += 2) {
      if (run_cli({"history", "add", kDir + files[i], "--db", db}).exit_code != 0) ++failures;
    }
    return failures;
  }));
  const CliResult s = run_cli({"history", "show", "--db", db});
  EXPECT_EQ(s.exit_code, 0) << s.err;
  EXPECT_NE(s.out.find("history: 8 run(s)"), std::string::npos) << s.out;
}

}  // namespace
}  // namespace roofline::testing
