// End-to-end: the CLI's subcommands, exit codes and one-line errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace roofline::testing {
namespace fs = std::filesystem;
using nlohmann::json;

TEST(CliBasics, ModelIssueExample) {
  const CliResult r = run_cli({"model", "--peak", "100T", "--bandwidth", "2T", "--ai", "10"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("20.0 TFLOP/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("memory"), std::string::npos);
  EXPECT_NE(r.out.find("ridge point  50 FLOP/byte"), std::string::npos) << r.out;
}

TEST(CliBasics, ModelAcceptsUnitsAndRejectsBadOnes) {
  EXPECT_EQ(run_cli({"model", "--peak", "100 TFLOP/s", "--bandwidth", "2 TB/s", "--ai", "50"}).exit_code, 0);
  const CliResult ops = run_cli({"model", "--peak", "400TOPS", "--bandwidth", "1T", "--ai", "1000"});
  EXPECT_NE(ops.out.find("400 TOP/s"), std::string::npos) << ops.out;
  EXPECT_NE(ops.out.find("compute"), std::string::npos);
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"model", "--peak", "100Q", "--bandwidth", "2T", "--ai", "10"},
        {"model", "--peak", "100T", "--bandwidth", "2 TFLOP/s", "--ai", "10"},
        {"model", "--peak", "100T", "--bandwidth", "2T", "--ai", "0"},
        {"model", "--peak", "-1T", "--bandwidth", "2T", "--ai", "1"},
        {"model", "--peak", "100T", "--bandwidth", "2T"}}) {
    const CliResult r = run_cli(bad);
    EXPECT_EQ(r.exit_code, 2) << bad[2] << " " << r.err;
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
}

TEST(CliBasics, UnknownSubcommandAndFlag) {
  CliResult r = run_cli({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(one_line(r.err)) << r.err;
  r = run_cli({"run", "--no-such-flag"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(one_line(r.err)) << r.err;
  r = run_cli({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(run_cli({"--help"}).exit_code, 0);
}

// Issue 63: a subcommand's parse error points to that subcommand's --help; the top level's to roofline --help.
TEST(CliBasics, ParseErrorPointsToTheSubcommandsHelp) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"run", "--no-such-flag"}, "(see roofline run --help)"},
      {{"model", "--peak", "100T"}, "(see roofline model --help)"},
      {{"history", "add", "--no-such-flag"}, "(see roofline history add --help)"},
      {{"--no-such-flag"}, "(see roofline --help)"}};
  for (const auto& [args, pointer] : cases) {
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find(pointer), std::string::npos) << args.front() << ": " << r.err;
  }
}

// Issue 63: every --help ends with the exit codes of its command.
TEST(CliBasics, EveryHelpEndsWithItsExitCodes) {
  for (const std::string& command : std::vector<std::string>{"", "machine", "run", "model", "report", "compare", "history", "history add",
                                     "history show", "history calibrate", "history changes", "fleet", "llm", "devices"}) {
    std::vector<std::string> args;
    for (size_t at = 0; at < command.size();) {
      const size_t space = std::min(command.find(' ', at), command.size());
      args.push_back(command.substr(at, space - at));
      at = space + 1;
    }
    args.push_back("--help");
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << command;
    const size_t last = r.out.rfind("Exit codes: 0 ");
    ASSERT_NE(last, std::string::npos) << command << ":\n" << r.out;
    EXPECT_EQ(r.out.find('\n', last), r.out.size() - 1) << command << ": the exit codes are not the last line";
    EXPECT_NE(r.out.find("2 bad input", last), std::string::npos) << command;
  }
  EXPECT_NE(run_cli({"compare", "--help"}).out.find("3 inconclusive"), std::string::npos);
  EXPECT_NE(run_cli({"fleet", "--help"}).out.find("1 a node flagged"), std::string::npos);
}

TEST(CliBasics, MachinePrintsFactsWithSources) {
  CliResult r = run_cli({"machine"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("topology"), std::string::npos);
  EXPECT_NE(r.out.find("[source: "), std::string::npos);
  EXPECT_NE(r.out.find("isa"), std::string::npos);
  r = run_cli({"machine", "--json", "-"});
  ASSERT_EQ(r.exit_code, 0);
  const json j = json::parse(r.out);
  EXPECT_GT(j["cores"].get<int>(), 0);
  EXPECT_TRUE(j["isa"].is_object());
}

TEST(CliBasics, RunRejectsBadFlagsAndWritesNothing) {
  TempDir dir;
  const std::string out = (dir / "r.json").string();
  const std::vector<std::vector<std::string>> bad = {
      {"run", "--threads", "0", "--out", out},
      {"run", "--threads", "100000", "--out", out},
      {"run", "--threads", "", "--out", out},
      {"run", "--profile", "fast", "--out", out},
      {"run", "--max-isa", "avx9000", "--out", out},
      {"run", "--suites", "nonsense", "--out", out},
      {"run", "--bind", "everywhere", "--out", out},
      {"run", "--suites", "compute", "--out", (dir / "missing" / "r.json").string()},
  };
  for (const auto& args : bad) {
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args[1] << " " << args[2] << ": " << r.err;
    EXPECT_TRUE(one_line(r.err)) << r.err;
  }
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(CliBasics, RunWithNoSuitesWritesAValidResultsFileAndNeverOverwrites) {
  TempDir dir;
  const fs::path out = dir / "r.json";
  // The compute suite at one thread, capped at SSE: a short real run, enough for the file's shape.
  const CliResult r = run_cli({"run", "--suites", "compute", "--threads", "1", "--out", out.string(), "--quiet"},
                              {"ROOFLINE_MAX_ISA=sse"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(read_file(out));
  EXPECT_EQ(doc["context"]["schema_version"], 1);
  EXPECT_TRUE(doc["context"]["machine"].is_object());
  EXPECT_TRUE(doc["benchmarks"].is_array());
  EXPECT_EQ(doc["roofline"]["schema_version"], 1);
  const std::string before = read_file(out);
  EXPECT_EQ(doc["context"]["max_isa"], "sse");
  EXPECT_TRUE(fs::exists(dir / "r.html"));
  const CliResult again = run_cli({"run", "--suites", "compute", "--threads", "1", "--out", out.string(), "--quiet"});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("--force"), std::string::npos) << again.err;
  EXPECT_EQ(read_file(out), before);
}

}  // namespace roofline::testing
