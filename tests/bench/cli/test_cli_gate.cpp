// End-to-end: the CI gate of `roofline compare` (issue 15): paired A/B with two stub executables that
// write prepared results files (tests/data/compare/stubs), verdicts and their exit codes (1, 0, 3, 2),
// a history-based threshold, configuration differences, the rerun plan, and `history calibrate`.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace roofline::testing {
namespace {
using nlohmann::json;

const std::string kDir = std::string(ROOFLINE_TEST_DATA_DIR) + "/compare/";
const std::string kTriad = "memory/DRAM/triad/threads:2";

// `compare --base-bin stub_base --new-bin stub_new` with the stubs writing these files.
CliResult paired(const std::string& base, const std::string& next, std::vector<std::string> flags,
                 std::vector<std::string> env = {}) {
  // The hand-made files' 20% slower DRAM triad against a 10% shared-memory floor (the default is 20%).
  std::vector<std::string> args{"compare", "--base-bin", kDir + "stubs/stub_base.sh", "--new-bin", kDir + "stubs/stub_new.sh",
                                "--seed", "7", "--floor-shared", "10"};
  args.insert(args.end(), flags.begin(), flags.end());
  args.insert(args.end(), {"--", "--suites", "bandwidth"});
  env.push_back("STUB_FILE_base=" + kDir + base);
  env.push_back("STUB_FILE_new=" + kDir + next);
  return run_cli(args, env);
}

TEST(CliGate, PairedRegressionIsDecidedAtTheFirstLookThatCan) {
  // 20% slower every round, 4 key figures, at most 10 rounds: looks after 6, 8 and 10 rounds; the regression interval
  // (alpha / (4 x 3) per bound) exists from 8 rounds on, and there the triad's is wholly 20% worse: a regression.
  const CliResult r = paired("base.json", "slow20.json", {"--rounds", "6", "--max-rounds", "10"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("rounds: 8 in"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("looks planned after rounds 6, 8, 10"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("look after 6 rounds: undecided"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("verdict: REGRESSION: " + kTriad + " -20.0% [-20.0%, -20.0%]"), std::string::npos) << r.out;
  // The other figures did not move: equivalent within the floor, each said.
  EXPECT_NE(r.out.find("3 ok, 0 not worse, 0 improvement, 1 regression, 0 undecided of 4 key figures"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Interval"), std::string::npos) << r.out;
}

TEST(CliGate, PairedSameBuildIsCleanWithEveryFigureOk) {
  const CliResult r = paired("base.json", "same.json", {"--rounds", "3", "--max-rounds", "12", "--json", "-"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const json doc = json::parse(r.out);
  EXPECT_EQ(doc["outcome"], "clean");
  EXPECT_EQ(doc["rounds"], doc["looks"][0]);
  EXPECT_EQ(doc["stopped"], "decided");
  EXPECT_EQ(doc["order"].size(), doc["rounds"].get<std::size_t>());
  for (const json& f : doc["figures"]) {
    EXPECT_EQ(f["verdict"], "ok") << f.dump();
    EXPECT_TRUE(f["interval"].is_array()) << f.dump();
    // Equivalence is shown from fewer rounds than a regression could be: no detectable change is claimed yet.
    EXPECT_TRUE(f["detectable"].is_null() || f["detectable"].get<double>() > 0.0) << f.dump();
  }
}

TEST(CliGate, PairedStillUndecidedAtTheLimitExitsThreeUnlessAllowed) {
  TempDir dir;
  // One new run in three is 20% slower: neither a regression (two rounds in three are unchanged) nor equivalence.
  const std::vector<std::string> env{"STUB_ALT_new=" + kDir + "slow20.json", "STUB_COUNTER_new=" + (dir / "n").string()};
  const CliResult r = paired("base.json", "base.json", {"--rounds", "4", "--max-rounds", "12"}, env);
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("roofline: verdict: UNDECIDED:"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("UNDECIDED"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("stopped: max rounds"), std::string::npos) << r.out;
  TempDir again;
  const std::vector<std::string> env2{"STUB_ALT_new=" + kDir + "slow20.json", "STUB_COUNTER_new=" + (again / "n").string()};
  EXPECT_EQ(paired("base.json", "base.json", {"--rounds", "4", "--max-rounds", "12", "--allow-undecided"}, env2).exit_code, 0);
  // A budget too short for a second round ends the rounds at the first: undecided, said.
  TempDir third;
  const std::vector<std::string> env3{"STUB_ALT_new=" + kDir + "slow20.json", "STUB_COUNTER_new=" + (third / "n").string()};
  const CliResult b = paired("base.json", "base.json", {"--budget", "0.000001"}, env3);
  EXPECT_EQ(b.exit_code, 3) << b.out << b.err;
  EXPECT_NE(b.out.find("rounds: 1 in"), std::string::npos) << b.out;
  EXPECT_NE(b.out.find("stopped: budget"), std::string::npos) << b.out;
}

TEST(CliGate, PairedBadInputIsOneLineAndExitTwo) {
  const CliResult failing = paired("base.json", "base.json", {"--rounds", "2"}, {"STUB_FAIL_new=1"});
  EXPECT_EQ(failing.exit_code, 2);
  EXPECT_NE(failing.err.find("stub_new.sh run --suites bandwidth: exited with 1"), std::string::npos) << failing.err;
  const CliResult machine = paired("base.json", "other_machine.json", {"--rounds", "2"});
  EXPECT_EQ(machine.exit_code, 2);
  EXPECT_NE(machine.err.find("report different machines"), std::string::npos) << machine.err;
  EXPECT_EQ(paired("base.json", "base.json", {"--rounds", "5", "--max-rounds", "3"}).exit_code, 2);
  EXPECT_EQ(run_cli({"compare", "--base-bin", "/nonexistent/roofline", "--new-bin", "/bin/true"}).exit_code, 2);
}

TEST(CliGate, InconclusiveIsLoudAndFailsOnlyWhenAsked) {
  const CliResult r = run_cli({"compare", kDir + "quiet_env.json", kDir + "disturbed.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(one_line(r.err)) << r.err;
  EXPECT_EQ(r.err.rfind("roofline: verdict: INCONCLUSIVE: environment disturbed", 0), 0u) << r.err;
  EXPECT_EQ(run_cli({"compare", kDir + "quiet_env.json", kDir + "disturbed.json", "--fail-on-inconclusive"}).exit_code, 3);
  const CliResult md = run_cli({"compare", kDir + "quiet_env.json", kDir + "disturbed.json", "--markdown", "-"});
  EXPECT_NE(md.out.find(":warning: inconclusive"), std::string::npos) << md.out.substr(0, 300);
  const CliResult js = run_cli({"compare", kDir + "quiet_env.json", kDir + "disturbed.json", "--json", "-"});
  EXPECT_EQ(json::parse(js.out)["verdict"], "inconclusive");
}

TEST(CliGate, CanaryLimitIsAnOptionAndDecidesTheSharedMemoryFigures) {
  // The canary is 40% lower in the new run: by default its DRAM triad drop is not trusted (exit 0).
  const CliResult flip = run_cli({"compare", kDir + "quiet_env.json", kDir + "canary_flip.json"});
  EXPECT_EQ(flip.exit_code, 0) << flip.err;
  EXPECT_NE(flip.out.find("memory environment moved: canary 20.1 GB/s -> 12.1 GB/s between the runs (-40.0% > 10.0%)"),
            std::string::npos)
      << flip.out;
  // A limit above the move trusts the figure again: the triad drop is a regression.
  const CliResult loose = run_cli({"compare", kDir + "quiet_env.json", kDir + "canary_flip.json", "--max-canary-drift", "50"});
  EXPECT_EQ(loose.exit_code, 1) << loose.err;
  EXPECT_NE(loose.out.find("memory/DRAM/triad/threads:2: -40.0% vs base"), std::string::npos) << loose.out;
  const CliResult bad = run_cli({"compare", kDir + "quiet_env.json", kDir + "canary_flip.json", "--max-canary-drift", "-5"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(one_line(bad.err)) << bad.err;
}

TEST(CliGate, ConfigurationDifferenceIsComparedAndStated) {
  const CliResult r = run_cli({"compare", kDir + "base.json", kDir + "avx2.json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("configuration differs (compared; the figures both have are gated): max_isa: avx512 -> avx2"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("compute/fp32/vector/threads:2: -50.0% vs base"), std::string::npos) << r.out;
}

TEST(CliGate, PrintsTheRerunPlanOfEachRegression) {
  const CliResult r = run_cli({"compare", kDir + "base.json", kDir + "slow20.json", "--print-rerun"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("\nrerun " + kTriad + " --suites bandwidth --threads 2\n"), std::string::npos) << r.out;
}

TEST(CliGate, HistoryThresholdsAndCalibration) {
  TempDir dir;
  const std::string db = (dir / "history.db").string();
  json base = json::parse(read_file(kDir + "base.json"));
  const double offsets[] = {0.0, 0.01, -0.01, 0.005, -0.005, 0.002};
  auto scaled = [&](double scale, const std::string& rev) {
    json doc = base;
    doc["context"]["git_revision"] = rev;
    for (json& e : doc["roofline"]["memory_ceilings"]) e["value"] = e["value"].get<double>() * scale;
    return doc;
  };
  for (int i = 0; i < 6; ++i) {
    const std::string name = fmt::format("h{}", i);  // (not "h" + to_string: GCC 12's false -Wrestrict)
    const auto path = dir / (name + ".json");
    write_file(path, scaled(1.0 + offsets[i], name).dump());
    ASSERT_EQ(run_cli({"history", "add", path.string(), "--db", db}).exit_code, 0);
  }
  write_file(dir / "slow15.json", scaled(0.85, "slow").dump());
  write_file(dir / "slow7.json", scaled(0.93, "slow7").dump());
  const CliResult slow = run_cli({"compare", kDir + "base.json", (dir / "slow15.json").string(), "--history", db});
  EXPECT_EQ(slow.exit_code, 1) << slow.out << slow.err;
  EXPECT_NE(slow.out.find("vs history median of 6 runs, threshold 5.0% (floor 5.0% (history:"), std::string::npos) << slow.out;
  // 7% lower: within the no-history floor (10%), beyond the quiet history's (5%).
  EXPECT_EQ(run_cli({"compare", kDir + "base.json", (dir / "slow7.json").string()}).exit_code, 0);
  EXPECT_EQ(run_cli({"compare", kDir + "base.json", (dir / "slow7.json").string(), "--history", db}).exit_code, 1);
  // A history database that does not exist yet: no history, said so.
  const CliResult none = run_cli({"compare", kDir + "base.json", kDir + "same.json", "--history", (dir / "new.db").string()});
  EXPECT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(none.out.find("no history (0 matching runs, 5 needed)"), std::string::npos) << none.out;

  const CliResult cal = run_cli({"history", "calibrate", "--db", db});
  EXPECT_EQ(cal.exit_code, 0) << cal.err;
  EXPECT_NE(cal.out.find("runs: 6"), std::string::npos) << cal.out;
  EXPECT_NE(cal.out.find("A/A false alarms without history (each run vs the one before, floor 10%): 0 of 5 pairs"),
            std::string::npos) << cal.out;
  EXPECT_NE(cal.out.find("A/A false alarms with history (each run vs the others, leave-one-out): 0 of 6 runs"),
            std::string::npos) << cal.out;
  EXPECT_EQ(run_cli({"history", "calibrate", "--db", db, "--floor", "x"}).exit_code, 2);
}

}  // namespace
}  // namespace roofline::testing

namespace roofline::testing {
namespace {

// The plan's total estimate, from `run --plan`'s "plan HASH: N benchmarks, estimated S s" line.
double plan_estimate(const std::string& out) {
  const std::size_t at = out.find(", estimated ");
  return at == std::string::npos ? -1.0 : std::stod(out.substr(at + 12));
}

// The gate profile (issue 59): the paired rounds' plan, every key figure's points at fewer repetitions: it plans the
// same benchmarks as quick, the same twice, for less time.
TEST(CliGate, GateProfilePlansQuicksBenchmarksForLessTime) {
  const CliResult gate = run_cli({"run", "--profile", "gate", "--plan"});
  const CliResult quick = run_cli({"run", "--profile", "quick", "--plan"});
  ASSERT_EQ(gate.exit_code, 0) << gate.err;
  ASSERT_EQ(quick.exit_code, 0) << quick.err;
  EXPECT_EQ(gate.out, run_cli({"run", "--profile", "gate", "--plan"}).out);
  EXPECT_NE(gate.out.find("gate profile"), std::string::npos) << gate.out.substr(0, 200);
  EXPECT_GT(plan_estimate(gate.out), 0.0);
  EXPECT_LT(plan_estimate(gate.out), plan_estimate(quick.out));
  EXPECT_EQ(run_cli({"run", "--profile", "fast", "--plan"}).exit_code, 2);
}

}  // namespace
}  // namespace roofline::testing
