// Paired A/B rounds (bench/drivers/paired_runs.cpp) driven directly, with stub executables (small shell scripts in
// tests/data/compare/stubs that copy a prepared results file to --out): rounds and their random order, the sequential
// looks and where they stop, the machine and configuration rule, and each bad input as an InputError.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "roofline/drivers/paired_runs.hpp"
#include "roofline/common/errors.hpp"
#include "support/temp_files.hpp"

namespace roofline {
namespace {

const std::string kDir = std::string(ROOFLINE_TEST_DATA_DIR) + "/compare/";

class PairedRuns : public ::testing::Test {
 protected:
  // The stubs write kDir/base and kDir/next (stub_run.sh reads STUB_FILE_<side>).
  PairedResult run(const std::string& base, const std::string& next, int rounds, int max_rounds, unsigned seed = 7,
                   bool allow_mismatch = false, std::vector<std::string> flags = {"--suites", "bandwidth"}, bool focus = true) {
    ::setenv("STUB_FILE_base", (kDir + base).c_str(), 1);
    ::setenv("STUB_FILE_new", (kDir + next).c_str(), 1);
    PairedOptions o;
    o.base_bin = kDir + "stubs/stub_base.sh";
    o.next_bin = kDir + "stubs/stub_new.sh";
    o.run_flags = std::move(flags);
    o.focus = focus;
    o.rounds = rounds;
    o.max_rounds = max_rounds;
    o.work_dir = tmp_.path();
    o.seed = seed;
    o.allow_machine_mismatch = allow_mismatch;
    log_.clear();
    GateOptions gate;
    gate.floor_shared = 0.10;  // the hand-made files' 20% slower DRAM triad against a 10% floor (the default is 20%)
    return run_paired(o, gate, [&](const std::string& line) { log_.push_back(line); });
  }
  void TearDown() override {
    ::unsetenv("STUB_FILE_base");
    ::unsetenv("STUB_FILE_new");
    ::unsetenv("STUB_FAIL_base");
    ::unsetenv("STUB_ALT_new");
    ::unsetenv("STUB_COUNTER_new");
    ::unsetenv("STUB_ARGS_new");
  }
  testing::TempDir tmp_;
  std::vector<std::string> log_;
};

TEST_F(PairedRuns, SameBuildIsCleanAtTheFirstLook) {
  // 4 key figures, at most 8 rounds: the first look is at the fewest rounds whose interval exists at alpha / (4 x
  // looks); every figure is equivalent there (ratio 1 in every round), and the rounds stop.
  const PairedResult r = run("base.json", "same.json", 3, 8);
  EXPECT_EQ(r.gate.outcome, Outcome::clean) << r.gate.verdict_line;
  ASSERT_FALSE(r.looks.empty());
  EXPECT_EQ(r.rounds.rounds, r.looks.front());
  EXPECT_EQ(r.stopped, "decided");
  EXPECT_NEAR(r.gamma * 4 * static_cast<double>(r.looks.size()), 0.05, 1e-12);
  const int n = r.rounds.rounds;
  ASSERT_EQ(static_cast<int>(r.order.size()), n);
  for (const std::string& o : r.order) EXPECT_TRUE(o == "AB" || o == "BA") << o;
  EXPECT_EQ(static_cast<int>(log_.size()), 2 * n + 1);  // one line per run, and the schedule after the first round
  EXPECT_NEAR(r.gamma_own * static_cast<double>(r.looks.size()), 0.05, 1e-12);
  EXPECT_EQ(static_cast<int>(r.rounds.environments.size()), 2 * n);
  EXPECT_EQ(static_cast<int>(r.rounds.round_seconds.size()), n);
  EXPECT_TRUE(r.configuration_differences.empty());
  for (const auto& [id, values] : r.rounds.next) EXPECT_EQ(static_cast<int>(values.size()), n) << id;
  for (const FigureRow& f : r.gate.figures) EXPECT_EQ(f.verdict, Verdict::ok) << f.figure.id;
  EXPECT_EQ(r.seed, 7u);
}

TEST_F(PairedRuns, TheSeedDecidesTheOrder) {
  const auto order = [&](unsigned seed) { return run("base.json", "same.json", 8, 8, seed).order; };
  EXPECT_EQ(order(11), order(11));
  std::set<std::vector<std::string>> orders;
  for (unsigned seed = 1; seed <= 4; ++seed) orders.insert(order(seed));
  EXPECT_GT(orders.size(), 1u);  // 4 seeds, 8 rounds each: not one order for all
}

TEST_F(PairedRuns, ARegressionIsDecidedAtTheFirstLookThatCan) {
  // 20% slower each round, 4 figures, at most 10 rounds: looks after 6, 8 and 10; at 6 no interval exists yet at the
  // family-wise error 0.05 / (4 x 3) (2^-6 is above it), at 8 the triad's whole interval is 20% worse.
  const PairedResult r = run("base.json", "slow20.json", 6, 10);
  EXPECT_EQ(r.looks, (std::vector<int>{6, 8, 10}));
  EXPECT_EQ(r.rounds.rounds, 8);
  EXPECT_EQ(r.gate.outcome, Outcome::regression) << r.gate.verdict_line;
  EXPECT_TRUE(std::any_of(log_.begin(), log_.end(), [](const std::string& l) { return l.find("looks after rounds 6, 8, 10") != std::string::npos; }));
  EXPECT_TRUE(std::any_of(log_.begin(), log_.end(), [](const std::string& l) { return l.find("look after 6 rounds: undecided") != std::string::npos; }));
  const auto triad = std::find_if(r.gate.figures.begin(), r.gate.figures.end(),
                                  [](const FigureRow& f) { return f.figure.id == "memory/DRAM/triad/threads:2"; });
  ASSERT_NE(triad, r.gate.figures.end());
  EXPECT_EQ(triad->verdict, Verdict::regression);
  EXPECT_NEAR(triad->change, -0.2, 1e-9);
  EXPECT_NEAR(triad->ratio_upper, 0.8, 1e-9);
}

// The lines the new build's stub was called with (STUB_ARGS_new).
std::vector<std::string> lines_of(const std::string& path) {
  std::vector<std::string> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST_F(PairedRuns, AfterALookTheRoundsMeasureOnlyTheUndecidedFiguresSuites) {
  // One new run in three 20% slower on the DRAM triad: it stays undecided, the L1, compute and GEMM figures are ok at
  // the first look; from then on the rounds run the bandwidth suite alone (`run --suites bandwidth`).
  const std::string args = (tmp_.path() / "args").string(), counter = (tmp_.path() / "n").string();
  const auto undecided = [&](std::vector<std::string> flags, bool focus) {
    std::filesystem::remove(args);
    std::filesystem::remove(counter);
    ::setenv("STUB_ALT_new", (kDir + "slow20.json").c_str(), 1);
    ::setenv("STUB_COUNTER_new", counter.c_str(), 1);
    ::setenv("STUB_ARGS_new", args.c_str(), 1);
    return run("base.json", "base.json", 4, 12, 7, false, std::move(flags), focus);
  };
  const PairedResult r = undecided({"--profile", "gate"}, true);
  ASSERT_FALSE(r.looks.empty());
  const int first = r.looks.front();
  ASSERT_GT(r.rounds.rounds, first) << r.gate.verdict_line;
  ASSERT_EQ(static_cast<int>(r.round_suites.size()), r.rounds.rounds);
  const std::vector<std::string> calls = lines_of(args);
  ASSERT_EQ(static_cast<int>(calls.size()), r.rounds.rounds);
  for (int i = 0; i < r.rounds.rounds; ++i) {
    const bool focused = i >= first;
    EXPECT_EQ(r.round_suites[static_cast<std::size_t>(i)], focused ? "bandwidth" : "all") << i;
    EXPECT_EQ(calls[static_cast<std::size_t>(i)].find("--suites bandwidth") != std::string::npos, focused) << calls[static_cast<std::size_t>(i)];
    EXPECT_NE(calls[static_cast<std::size_t>(i)].find("--profile gate"), std::string::npos) << calls[static_cast<std::size_t>(i)];
  }
  // The figures of the other suites were planned in the rounds before the focus only, and are still gated on them.
  EXPECT_EQ(r.rounds.planned_rounds.at("compute/fp32/vector/threads:2"), first);
  EXPECT_EQ(r.rounds.planned_rounds.at("memory/DRAM/triad/threads:2"), r.rounds.rounds);
  EXPECT_TRUE(r.gate.not_comparable.empty());
  EXPECT_TRUE(std::any_of(log_.begin(), log_.end(), [](const std::string& l) {
    return l.find("suites bandwidth (the undecided figures')") != std::string::npos;
  }));
  // Not when the run flags name the suites themselves, nor with focus off: every round runs what was asked.
  for (const bool focus : {true, false}) {
    const PairedResult whole = undecided(focus ? std::vector<std::string>{"--suites", "bandwidth,compute,gemm"}
                                               : std::vector<std::string>{"--profile", "gate"},
                                         focus);
    ASSERT_GT(whole.rounds.rounds, whole.looks.front());
    for (const std::string& s : whole.round_suites) EXPECT_EQ(s, "all");
    for (const std::string& line : lines_of(args)) {
      std::size_t suites = 0;
      for (std::size_t at = line.find("--suites"); at != std::string::npos; at = line.find("--suites", at + 1)) ++suites;
      EXPECT_EQ(suites, focus ? 1u : 0u) << line;
    }
  }
}

TEST(PairedSuites, TheUndecidedFiguresSuitesInRunOrder) {
  const auto row = [](std::string id, std::string group, Verdict v) {
    FigureRow r;
    r.figure.id = std::move(id);
    r.figure.group = std::move(group);
    r.verdict = v;
    return r;
  };
  Gate g;
  g.figures = {row("gemm/fp32/batch:1/threads:2", "gemm", Verdict::undecided), row("clock/threads:2", "clock", Verdict::ok),
               row("memory/DRAM/read/threads:2", "memory", Verdict::undecided),
               row("dequant/q4_0/threads:2", "dequant", Verdict::undecided)};
  EXPECT_EQ(undecided_suites(g), (std::vector<std::string>{"bandwidth", "compute", "gemm"}));
  g.figures[2].verdict = Verdict::ok;
  g.figures[3].verdict = Verdict::regression;
  EXPECT_EQ(undecided_suites(g), (std::vector<std::string>{"gemm"}));
  g.figures[0].verdict = Verdict::ok;
  EXPECT_TRUE(undecided_suites(g).empty());  // nothing undecided
  // A figure undecided that no suite of `run` measures (an llm chain's): whole rounds go on.
  g.figures.push_back(row("llm/llama/decode/threads:2", "llm", Verdict::undecided));
  g.figures[0].verdict = Verdict::undecided;
  EXPECT_TRUE(undecided_suites(g).empty());
}

TEST_F(PairedRuns, AnotherIsaCapIsConfigurationNotAnotherMachine) {
  const PairedResult r = run("base.json", "avx2.json", 2, 2);
  EXPECT_EQ(r.configuration_differences, (std::vector<std::string>{"max_isa: avx512 -> avx2"}));
}

TEST_F(PairedRuns, AnotherMachineIsRefusedUnlessAllowed) {
  try {
    run("base.json", "other_machine.json", 2, 2);
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cpu_model: Intel(R) Xeon(R) Processor -> AMD EPYC 9654"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--allow-machine-mismatch"), std::string::npos) << e.what();
  }
  EXPECT_EQ(run("base.json", "other_machine.json", 2, 2, 7, true).rounds.rounds, 2);
}

TEST_F(PairedRuns, BadInputIsAnInputError) {
  EXPECT_THROW(run("base.json", "same.json", 0, 2), InputError);
  EXPECT_THROW(run("base.json", "same.json", 4, 3), InputError);  // --max-rounds below --rounds
  ::setenv("STUB_FAIL_base", "1", 1);
  try {
    run("base.json", "same.json", 1, 1);
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("exited with 1"), std::string::npos) << e.what();
  }
  ::unsetenv("STUB_FAIL_base");
  EXPECT_THROW(run("base.json", "neither.json", 1, 1), InputError);  // not a results file
  PairedOptions o;
  o.base_bin = kDir + "base.json";  // a file, not executable
  o.next_bin = kDir + "stubs/stub_new.sh";
  o.work_dir = tmp_.path();
  EXPECT_THROW(run_paired(o, GateOptions{}, [](const std::string&) {}), InputError);
}

}  // namespace
}  // namespace roofline
