// The key-figure gate (compare_gate.hpp) on the hand-made files of tests/data/compare: which figures gate,
// the history noise model on a generated history, the environment guard, the verdict rules (including
// inconclusive and --fail-on-inconclusive), machine vs configuration. Paired rounds: tests/analysis/regress/test_paired_gate.cpp.
#include <gtest/gtest.h>

#include <algorithm>

#include "roofline/regress/compare.hpp"
#include "roofline/regress/compare_gate.hpp"
#include "roofline/regress/compare_levels.hpp"
#include "roofline/history/history.hpp"
#include "roofline/model/results.hpp"
#include "roofline/common/errors.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
using nlohmann::json;
using testing::typed;

const std::string kDir = std::string(ROOFLINE_TEST_DATA_DIR) + "/compare/";
const std::string kTriad = "memory/DRAM/triad/threads:2";
const std::string kFp32 = "compute/fp32/vector/threads:2";

json load(const std::string& name) { return load_json_file(kDir + name); }

const FigureRow& figure(const Gate& g, const std::string& id) {
  const auto it = std::find_if(g.figures.begin(), g.figures.end(), [&](const FigureRow& r) { return r.figure.id == id; });
  if (it == g.figures.end()) throw std::runtime_error("no figure " + id);
  return *it;
}

// A doc whose DRAM triad ceiling is scaled by `scale` (the figure the history tests move).
json with_triad(json doc, double scale) {
  for (json& e : doc["roofline"]["memory_ceilings"]) {
    if (e["level"] == "DRAM") e["value"] = e["value"].get<double>() * scale;
  }
  return doc;
}

// `n` runs of base.json's machine and configuration whose figures vary by +-`spread` in a fixed pattern.
std::vector<HistoryPoint> generated_history(int n, double spread) {
  const json base = load("base.json");
  std::vector<HistoryPoint> runs;
  const double pattern[] = {0.0, 1.0, -1.0, 0.5, -0.5, 0.8, -0.8, 0.2, -0.2, 0.6};
  for (int i = 0; i < n; ++i) {
    HistoryPoint p{machine_identity(typed(base)), configuration_identity(typed(base)), "hash" + std::to_string(i), {}};
    for (const KeyFigure& f : key_figures(testing::lenient(base))) p.figures[f.id] = f.value * (1.0 + spread * pattern[i % 10]);
    runs.push_back(p);
  }
  return runs;
}

TEST(CompareGate, GatesKeyFiguresOnlyAndSaysWhy) {
  const Gate g = gate_runs(typed(load("base.json")), typed(load("slow20.json")), nullptr, GateOptions{});
  EXPECT_EQ(g.figures.size(), 4u);  // L1 read, DRAM triad, fp32 peak, GEMM at its largest batch
  EXPECT_EQ(g.outcome, Outcome::regression);
  EXPECT_EQ(figure(g, kTriad).verdict, Verdict::regression);
  EXPECT_NEAR(figure(g, kTriad).change, -0.2, 1e-9);
  EXPECT_EQ(figure(g, kFp32).verdict, Verdict::ok);
  EXPECT_FALSE(g.history_used);
  EXPECT_NE(g.verdict_line.find("verdict: REGRESSION: 1 of 4"), std::string::npos) << g.verdict_line;
  EXPECT_NE(g.verdict_line.find(kTriad), std::string::npos);
  EXPECT_NE(g.verdict_line.find("floor 10.0% (no history: low confidence)"), std::string::npos) << g.verdict_line;

  const Gate same = gate_runs(typed(load("base.json")), typed(load("same.json")), nullptr, GateOptions{});
  EXPECT_EQ(same.outcome, Outcome::clean);
  EXPECT_EQ(same.verdict_line.rfind("verdict: clean: none of 4 key figures", 0), 0u) << same.verdict_line;
  // Only the figures asked for gate (confirmation runs).
  GateOptions only;
  only.only_figures = {kFp32};
  EXPECT_EQ(gate_runs(typed(load("base.json")), typed(load("slow20.json")), nullptr, only).outcome, Outcome::clean);
}

TEST(CompareGate, NoiseModelFromAGeneratedHistory) {
  const json base = load("base.json");
  const NoiseModel tight = noise_model(generated_history(10, 0.01), typed(base), "", "generated");
  EXPECT_EQ(tight.runs, 10);
  const FigureNoise& triad = tight.figures.at(kTriad);
  EXPECT_EQ(triad.values.size(), 10u);
  // Pattern (x 1%) 0, 1, -1, .5, -.5, .8, -.8, .2, -.2, .6: median 0.1%, MAD 0.55%, robust spread ~0.8%.
  EXPECT_NEAR(triad.median, base["roofline"]["memory_ceilings"][1]["value"].get<double>() * 1.001, 1e3);
  EXPECT_NEAR(triad.relative_spread, 1.4826 * 0.0055, 2e-4);

  // A quiet history: the 5% floor rules; 15% lower is a regression, 3% lower is not.
  const Gate slow = gate_runs(typed(base), typed(with_triad(base, 0.85)), &tight, GateOptions{});
  EXPECT_TRUE(slow.history_used);
  EXPECT_EQ(figure(slow, kTriad).verdict, Verdict::regression);
  EXPECT_DOUBLE_EQ(figure(slow, kTriad).threshold, 0.05);
  EXPECT_NE(figure(slow, kTriad).threshold_source.find("floor 5.0% (history:"), std::string::npos);
  ASSERT_TRUE(figure(slow, kTriad).p_value.has_value());
  EXPECT_LT(*figure(slow, kTriad).p_value, 1e-6);
  EXPECT_EQ(gate_runs(typed(base), typed(with_triad(base, 0.97)), &tight, GateOptions{}).outcome, Outcome::clean);

  // A noisy history (spread ~8%): k x spread is above the floor, so 15% lower is within the noise.
  const NoiseModel noisy = noise_model(generated_history(10, 0.10), typed(base), "", "generated");
  const Gate within = gate_runs(typed(base), typed(with_triad(base, 0.85)), &noisy, GateOptions{});
  const double k = gate_k(0.05, 4);
  EXPECT_NEAR(k, 2.2414, 1e-4);  // Bonferroni: the normal quantile of 1 - 0.05 / 4
  EXPECT_NEAR(figure(within, kTriad).threshold, k * noisy.figures.at(kTriad).relative_spread, 1e-12);
  EXPECT_EQ(figure(within, kTriad).threshold_source.rfind("history: 2.24 x spread", 0), 0u);
  EXPECT_EQ(figure(within, kTriad).verdict, Verdict::ok);
}

TEST(CompareGate, HistoryOfOtherMachinesOrTooFewRunsIsNoHistory) {
  const json base = load("base.json");
  auto runs = generated_history(10, 0.01);
  for (int i = 0; i < 6; ++i) runs[i].machine_id = "another machine";
  const NoiseModel four = noise_model(runs, typed(base), "hash9", "generated");  // and the run itself left out
  EXPECT_EQ(four.runs, 3);
  const Gate g = gate_runs(typed(base), typed(with_triad(base, 0.93)), &four, GateOptions{});
  EXPECT_FALSE(g.history_used);
  EXPECT_EQ(g.outcome, Outcome::clean);  // 7% is within the 10% no-history floor
  EXPECT_NE(g.method_line.find("no history (3 matching runs, 5 needed)"), std::string::npos) << g.method_line;
}

TEST(CompareGate, DisturbedEnvironmentIsInconclusive) {
  const Gate quiet = gate_runs(typed(load("quiet_env.json")), typed(load("same.json")), nullptr, GateOptions{});
  EXPECT_EQ(quiet.outcome, Outcome::clean);
  EXPECT_TRUE(quiet.base_environment.recorded);
  EXPECT_FALSE(quiet.base_environment.disturbed);
  EXPECT_FALSE(quiet.next_environment.recorded);

  // The canary fell 20% during the new run: its 20% regression is not trusted.
  const Gate moved = gate_runs(typed(load("quiet_env.json")), typed(load("disturbed.json")), nullptr, GateOptions{});
  EXPECT_EQ(moved.outcome, Outcome::inconclusive);
  EXPECT_NEAR(moved.next_environment.canary_drift, 0.2, 1e-9);
  EXPECT_NE(moved.verdict_line.find("verdict: INCONCLUSIVE"), std::string::npos) << moved.verdict_line;
  EXPECT_NE(moved.verdict_line.find("canary drift 20.0% > 10.0%"), std::string::npos) << moved.verdict_line;
  EXPECT_NE(moved.verdict_line.find("1 of 4 figures beyond their thresholds, not trusted"), std::string::npos);

  const Gate stolen = gate_runs(typed(load("base.json")), typed(load("stolen.json")), nullptr, GateOptions{});
  EXPECT_EQ(stolen.outcome, Outcome::inconclusive);
  EXPECT_NE(stolen.verdict_line.find("steal 20.0% > 5.0%"), std::string::npos) << stolen.verdict_line;
}

TEST(CompareGate, MemoryStateFlipBetweenRunsLeavesComputeJudged) {
  // The canary is 40% lower in the new run (steady within each run), and so is its DRAM triad: the DRAM
  // figure is not trusted, so the verdict is inconclusive, not a regression.
  const Gate flip = gate_runs(typed(load("quiet_env.json")), typed(load("canary_flip.json")), nullptr, GateOptions{});
  EXPECT_FALSE(flip.base_environment.memory_disturbed);
  EXPECT_FALSE(flip.next_environment.memory_disturbed);
  EXPECT_TRUE(flip.memory_disturbed);
  EXPECT_NEAR(flip.canary_shift, 1.0 - 12.05 / 20.1, 1e-9);
  EXPECT_EQ(flip.outcome, Outcome::inconclusive);
  EXPECT_EQ(figure(flip, kTriad).verdict, Verdict::unclear);
  EXPECT_FALSE(figure(flip, kTriad).trusted);
  EXPECT_TRUE(figure(flip, kFp32).trusted);
  EXPECT_NE(flip.verdict_line.find("environment disturbed for the shared-memory figures (canary 20.1 GB/s -> 12.1 GB/s "
                                   "between the runs (-40.0% > 10.0%)"),
            std::string::npos)
      << flip.verdict_line;
  // A compute figure that halved in the same files is still a regression.
  const Gate both = gate_runs(typed(load("quiet_env.json")), typed(load("canary_flip_compute.json")), nullptr, GateOptions{});
  EXPECT_EQ(both.outcome, Outcome::regression);
  EXPECT_EQ(figure(both, kFp32).verdict, Verdict::regression);
  EXPECT_EQ(figure(both, kTriad).verdict, Verdict::unclear);
  EXPECT_NE(both.verdict_line.find("(and 1 shared-memory figure not trusted"), std::string::npos) << both.verdict_line;
  // The memory state moved but nothing shared-memory moved beyond its threshold: clean, and said.
  json steady = load("quiet_env.json");
  steady["context"]["environment"]["canary"]["start"] = 30e9;
  steady["context"]["environment"]["canary"]["end"] = 30e9;
  const Gate moved = gate_runs(typed(load("quiet_env.json")), typed(steady), nullptr, GateOptions{});
  EXPECT_EQ(moved.outcome, Outcome::clean);
  EXPECT_NE(moved.verdict_line.find("the memory environment moved (canary"), std::string::npos) << moved.verdict_line;
  EXPECT_NE(render_gate_text(moved).find("memory environment moved: canary"), std::string::npos);
  EXPECT_EQ(gate_to_json(moved)["memory_environment"]["disturbed"], true);
}

// The canary between suites (issue 46): a 2-vCPU Zen 5 guest's A/A pair read 2-thread DRAM 70 vs 56 GB/s while
// both runs' canaries read 40 GB/s at their two ends. A state that flips mid-run shows at a checkpoint: within a run
// (against its start) and between the runs (checkpoint by checkpoint), the shared-memory figures are then not trusted.
TEST(CompareGate, ACanaryCheckpointSeesAFlipTheEndsMiss) {
  const auto with_checkpoints = [](json doc, double compute, double gemm) {
    doc["context"]["environment"]["canary"]["checkpoints"] = {{{"at", "cpu/compute"}, {"seconds", 7.0}, {"bytes_per_second", compute}},
                                                              {{"at", "cpu/gemm"}, {"seconds", 16.0}, {"bytes_per_second", gemm}}};
    return doc;
  };
  const json quiet = load("quiet_env.json");
  const double level = quiet["context"]["environment"]["canary"]["start"].get<double>();
  const json steady = with_checkpoints(quiet, level, level);
  EXPECT_EQ(canary_points(typed(steady)).size(), 4u);
  EXPECT_EQ(canary_points(typed(steady))[1].first, "cpu/compute");
  const Gate same = gate_runs(typed(steady), typed(steady), nullptr, GateOptions{});
  EXPECT_FALSE(same.memory_disturbed) << same.memory_why;
  // The new run's memory was 40% faster while its gemm suite ran, and back by its end.
  const json flipped = with_checkpoints(quiet, level, 1.4 * level);
  const EnvironmentCheck within = check_environment(typed(flipped), 0.10, GateOptions{});
  EXPECT_TRUE(within.memory_disturbed);
  EXPECT_NEAR(within.canary_drift, 0.4, 1e-9);
  const Gate flip = gate_runs(typed(steady), typed(flipped), nullptr, GateOptions{});
  EXPECT_TRUE(flip.memory_disturbed);
  EXPECT_NE(flip.memory_why.find("canary before cpu/gemm"), std::string::npos) << flip.memory_why;
  EXPECT_FALSE(figure(flip, kTriad).trusted);
  EXPECT_TRUE(figure(flip, kFp32).trusted);
  // Each run steady within 10% of its start, but the gemm suites ran on memory 14% apart: seen between the runs.
  const Gate apart = gate_runs(typed(with_checkpoints(quiet, level, 0.95 * level)), typed(with_checkpoints(quiet, level, 1.08 * level)),
                               nullptr, GateOptions{});
  EXPECT_FALSE(apart.base_environment.memory_disturbed);
  EXPECT_FALSE(apart.next_environment.memory_disturbed);
  EXPECT_TRUE(apart.memory_disturbed);
  EXPECT_NE(apart.memory_why.find("canary before cpu/gemm 19.0 GB/s -> 21.6 GB/s between the runs (+13.7% > 10.0%)"),
            std::string::npos) << apart.memory_why;
  // The core canary's checkpoints likewise, for the core-bound figures.
  json cores = steady;
  const double core = 400e9;
  cores["context"]["environment"]["core_canary"] = {{"kernel", "read"}, {"start", core}, {"end", core}};
  json steady_cores = steady;
  steady_cores["context"]["environment"]["core_canary"] = cores["context"]["environment"]["core_canary"];
  cores["context"]["environment"]["core_canary"]["checkpoints"] = {{{"at", "cpu/gemm"}, {"seconds", 16.0}, {"bytes_per_second", 0.7 * core}}};
  EXPECT_EQ(canary_points(typed(cores), "core_canary").size(), 3u);
  const Gate siblings = gate_runs(typed(steady_cores), typed(cores), nullptr, GateOptions{});
  EXPECT_TRUE(siblings.next_environment.core_disturbed);
  EXPECT_TRUE(siblings.core_disturbed);
  EXPECT_FALSE(siblings.memory_disturbed);
  EXPECT_FALSE(figure(siblings, kFp32).trusted);
  // A mistyped checkpoint is bad input, not a quiet environment.
  json bad = steady;
  bad["context"]["environment"]["canary"]["checkpoints"][0]["bytes_per_second"] = "fast";
  EXPECT_THROW(canary_points(typed(bad)), InputError);
  EXPECT_THROW(gate_runs(typed(steady), typed(bad), nullptr, GateOptions{}), InputError);
    // Files from before checkpoints: start and end alone, as before.
  EXPECT_EQ(canary_points(typed(quiet)).size(), 2u);
  EXPECT_NEAR(canary_level(typed(quiet)), 20.1e9, 1e6);  // the mean of start (20.0) and end (20.2)
}

// The cores' own throughput (issue 36): a Zen 5 guest's A/A pair had every L1 and L2 figure a third lower in one
// run (L1 read 410 -> 290 GB/s; steal, other processes, clock and the DRAM canary unchanged): a host loading the
// SMT siblings. The core canary (L1 read at the start and the end) moving disturbs the core-bound figures only.
TEST(CompareGate, CoreCanaryMovingLeavesTheCoreBoundFiguresUnjudged) {
  const auto with_core = [](json doc, double start, double end) {
    doc["context"]["environment"]["core_canary"] = {{"kernel", "read"}, {"start", start}, {"end", end}};
    return doc;
  };
  const auto scaled = [](json doc, double l1, double fp32, double triad) {
    for (json& e : doc["roofline"]["memory_ceilings"]) e["value"] = e["value"].get<double>() * (e["level"] == "L1" ? l1 : triad);
    for (json& e : doc["roofline"]["compute_ceilings"]) e["value"] = e["value"].get<double>() * fp32;
    return doc;
  };
  const json base = with_core(load("quiet_env.json"), 410e9, 405e9);
  // The L1 read 30% lower, the core canary with it: unclear, inconclusive; the DRAM triad still judged.
  const Gate slow = gate_runs(typed(base), typed(with_core(scaled(load("quiet_env.json"), 0.7, 0.95, 1.0), 290e9, 292e9)), nullptr, GateOptions{});
  EXPECT_TRUE(slow.core_disturbed);
  EXPECT_FALSE(slow.memory_disturbed);
  EXPECT_EQ(slow.outcome, Outcome::inconclusive) << slow.verdict_line;
  EXPECT_EQ(figure(slow, "memory/L1/read/threads:2").verdict, Verdict::unclear);
  EXPECT_TRUE(figure(slow, kTriad).trusted);
  EXPECT_NE(slow.verdict_line.find("for the core-bound figures (core canary 408 GB/s -> 291 GB/s between the runs"),
            std::string::npos) << slow.verdict_line;
  EXPECT_NE(render_gate_text(slow).find("cores' throughput moved: core canary"), std::string::npos);
  EXPECT_EQ(gate_to_json(slow)["core_environment"]["disturbed"], true);
  // A DRAM figure that fell in the same pair is still a regression.
  const Gate dram = gate_runs(typed(base), typed(with_core(scaled(load("quiet_env.json"), 0.7, 1.0, 0.7), 290e9, 292e9)), nullptr, GateOptions{});
  EXPECT_EQ(dram.outcome, Outcome::regression);
  EXPECT_EQ(figure(dram, kTriad).verdict, Verdict::regression);
  // The core canary steady: an L1 figure 30% lower is a regression (a doctored run, a slower build).
  const Gate doctored = gate_runs(typed(base), typed(with_core(scaled(load("quiet_env.json"), 0.7, 1.0, 1.0), 408e9, 404e9)), nullptr, GateOptions{});
  EXPECT_FALSE(doctored.core_disturbed);
  EXPECT_EQ(doctored.outcome, Outcome::regression);
  EXPECT_EQ(figure(doctored, "memory/L1/read/threads:2").verdict, Verdict::regression);
  // Moving within one run is enough; files without a core canary are judged as before.
  const Gate within = gate_runs(typed(base), typed(with_core(scaled(load("quiet_env.json"), 0.7, 1.0, 1.0), 400e9, 300e9)), nullptr, GateOptions{});
  EXPECT_TRUE(within.core_disturbed);
  EXPECT_NE(within.core_why.find("core canary drift 25.0% within the new run"), std::string::npos) << within.core_why;
  EXPECT_EQ(gate_runs(typed(load("quiet_env.json")), typed(scaled(load("quiet_env.json"), 0.7, 1.0, 1.0)), nullptr, GateOptions{}).outcome,
            Outcome::regression);
}

TEST(CompareGate, WithHistoryTheNewRunsCanaryMeetsTheHistorys) {
  // A history whose runs measured a 20 GB/s canary (quiet_env.json's level).
  auto runs = generated_history(10, 0.01);
  for (auto& r : runs) r.figures[kCanaryFigureId] = 20.1e9;
  const json base = load("quiet_env.json");
  const NoiseModel noise = noise_model(runs, typed(base), "", "generated");
  // The new run is 40% slower on the canary (another memory state) and on DRAM triad: no history run was
  // measured in its state, so the triad is not trusted.
  const Gate flip = gate_runs(typed(base), typed(load("canary_flip.json")), &noise, GateOptions{});
  EXPECT_TRUE(flip.history_used);
  EXPECT_TRUE(flip.memory_disturbed);
  EXPECT_EQ(flip.memory_state_runs, 0);
  EXPECT_EQ(flip.outcome, Outcome::inconclusive);
  EXPECT_EQ(figure(flip, kTriad).verdict, Verdict::unclear);
  EXPECT_NE(flip.memory_why.find("0 of 10 history runs in this run's memory state (canary 12.1 GB/s +- 10.0%), 5 needed"),
            std::string::npos)
      << flip.memory_why;
  // Same canary as the history: the DRAM triad drop is a regression; the base's disturbed canary does
  // not count, the history being the reference.
  json quiet_slow = load("canary_flip.json");
  quiet_slow["context"]["environment"] = base["context"]["environment"];
  const Gate slow = gate_runs(typed(load("disturbed.json")), typed(quiet_slow), &noise, GateOptions{});
  EXPECT_TRUE(slow.base_environment.memory_disturbed);
  EXPECT_FALSE(slow.memory_disturbed);
  EXPECT_EQ(slow.outcome, Outcome::regression);
  EXPECT_EQ(figure(slow, kTriad).verdict, Verdict::regression);
}

TEST(CompareGate, ABimodalHistoryJudgesSharedMemoryFiguresInTheNewRunsState) {
  // Ten runs, alternating between two memory states: canary 20.1 GB/s, and 12.06 GB/s with the DRAM triad
  // 40% lower (a host that moves the guest between L3 domains).
  auto runs = generated_history(10, 0.01);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const bool slow = i % 2 == 1;
    runs[i].figures[kCanaryFigureId] = slow ? 12.06e9 : 20.1e9;
    if (slow) runs[i].figures[kTriad] *= 0.6;
  }
  const NoiseModel noise = noise_model(runs, typed(load("quiet_env.json")), "", "generated");
  // A run in the slow state with the slow state's triad: clean against the five slow runs, though 40%
  // below the fast ones.
  const Gate same = gate_runs(typed(load("quiet_env.json")), typed(load("canary_flip.json")), &noise, GateOptions{});
  EXPECT_EQ(same.memory_state_runs, 5);
  EXPECT_FALSE(same.memory_disturbed);
  EXPECT_EQ(same.outcome, Outcome::clean) << same.verdict_line;
  EXPECT_NE(figure(same, kTriad).why.find("history median of 5 runs"), std::string::npos) << figure(same, kTriad).why;
  EXPECT_NE(figure(same, kTriad).why.find("(the history runs of this memory state)"), std::string::npos);
  // 15% below the slow state: a regression.
  json lower = load("canary_flip.json");
  for (json& e : lower["roofline"]["memory_ceilings"]) {
    if (e["level"] == "DRAM") e["value"] = e["value"].get<double>() * 0.85;
  }
  const Gate worse = gate_runs(typed(load("quiet_env.json")), typed(lower), &noise, GateOptions{});
  EXPECT_EQ(worse.outcome, Outcome::regression) << worse.verdict_line;
  EXPECT_EQ(figure(worse, kTriad).verdict, Verdict::regression);
}

TEST(CompareGate, FiguresTakenDifferentlyAreNotCompared) {
  json next = load("same.json");
  for (json& e : next["roofline"]["memory_ceilings"]) e["plateau_median"] = e["value"];
  const Gate g = gate_runs(typed(load("base.json")), typed(next), nullptr, GateOptions{});
  ASSERT_EQ(g.not_comparable.size(), 2u);
  EXPECT_EQ(g.not_comparable[0], "memory/L1/read/threads:2 (base: best repetition, new: plateau median)");
  EXPECT_THROW(figure(g, kTriad), std::runtime_error);
  EXPECT_NO_THROW(figure(g, kFp32));
  EXPECT_NE(render_gate_text(g).find("key figures taken differently (not gated)"), std::string::npos);
}

TEST(CompareGate, ExitCodes) {
  EXPECT_EQ(exit_code(Outcome::clean, false), 0);
  EXPECT_EQ(exit_code(Outcome::regression, false), 1);
  EXPECT_EQ(exit_code(Outcome::inconclusive, false), 0);
  EXPECT_EQ(exit_code(Outcome::inconclusive, true), 3);
  EXPECT_EQ(exit_code(Outcome::clean, true), 0);
  CompareOptions fail;
  fail.fail_on_inconclusive = true;
  const json q = load("quiet_env.json"), d = load("disturbed.json");
  EXPECT_EQ(compare_runs(typed(q), "q", typed(d), "d", CompareOptions{}).exit_code(), 0);
  EXPECT_EQ(compare_runs(typed(q), "q", typed(d), "d", fail).exit_code(), 3);
}

TEST(CompareGate, ConfigurationDiffersMachineDoesNot) {
  const Comparison c = compare_runs(typed(load("base.json")), "base.json", typed(load("avx2.json")), "avx2.json", CompareOptions{});
  EXPECT_TRUE(c.same_machine);
  ASSERT_EQ(c.configuration_differences.size(), 1u);
  EXPECT_EQ(c.configuration_differences[0], "max_isa: avx512 -> avx2");
  ASSERT_TRUE(c.gate.has_value());
  EXPECT_EQ(c.gate->outcome, Outcome::regression);
  EXPECT_EQ(figure(*c.gate, kFp32).verdict, Verdict::regression);
  EXPECT_NE(render_compare_text(c).find("configuration differs (compared; the figures both have are gated): max_isa"),
            std::string::npos);
  // Hardware still decides: another CPU is another machine.
  const Comparison other =
      compare_runs(typed(load("base.json")), "base.json", typed(load("other_machine.json")), "other.json", CompareOptions{});
  EXPECT_FALSE(other.same_machine);
  EXPECT_EQ(machine_identity(typed(load("base.json"))), machine_identity(typed(load("avx2.json"))));
  EXPECT_NE(configuration_identity(typed(load("base.json"))), configuration_identity(typed(load("avx2.json"))));
}

}  // namespace
// A level boundary that moved by one step of the sweep is where the sweep can place it; beyond a step it is said
// (issue 46: "boundaries within one sweep step"). The step is the coarser run's (points_per_octave), half an octave
// where a file does not say.
TEST(CompareLevels, ABoundaryMovesOnlyBeyondOneStepOfTheSweep) {
  const auto run = [](double l2_end, int per_octave) {
    nlohmann::json doc = {{"roofline", {{"memory_levels", nlohmann::json::array()}}}};
    doc["roofline"]["memory_levels"].push_back({{"threads", 1}, {"level", "L1"}, {"min_bytes", 4096}, {"max_bytes", 32768}});
    doc["roofline"]["memory_levels"].push_back({{"threads", 1}, {"level", "L2"}, {"min_bytes", 65536}, {"max_bytes", l2_end}});
    if (per_octave > 0) doc["context"] = {{"suites", {{"bandwidth", {{"points_per_octave", per_octave}}}}}};
    return testing::typed_fragment(doc);
  };
  // One octave at one size per octave: within a step.
  EXPECT_TRUE(level_boundary_changes(run(1 << 20, 1), run(1 << 19, 1)).empty());
  // One octave at two sizes per octave (or unsaid): two steps, said.
  EXPECT_EQ(level_boundary_changes(run(1 << 20, 2), run(1 << 19, 2)).size(), 1u);
  EXPECT_EQ(level_boundary_changes(run(1 << 20, 0), run(1 << 19, 0)).size(), 1u);
  // Two octaves at one size per octave: said. Mixed densities take the coarser.
  EXPECT_EQ(level_boundary_changes(run(1 << 20, 1), run(1 << 18, 1)).size(), 1u);
  EXPECT_TRUE(level_boundary_changes(run(1 << 20, 2), run(1 << 19, 1)).empty());
}


// The first level's start is where the smallest sizes stop being bound by per-call overhead, no boundary between
// levels (issue 46: a 2-thread L1 began at 4 KiB in one run of an A/A pair and 16 KiB in the other, its 4 and 8 KiB
// slowed by the host): said by level_start_changes, never a moved boundary. The second level's start still is one.
TEST(CompareLevels, TheFirstLevelsStartIsSaidApartFromTheBoundaries) {
  const auto run = [](double l1_start, double l2_start) {
    nlohmann::json doc = {{"roofline", {{"memory_levels", nlohmann::json::array()}}},
                          {"context", {{"suites", {{"bandwidth", {{"points_per_octave", 1}}}}}}}};
    doc["roofline"]["memory_levels"].push_back({{"threads", 2}, {"level", "L1"}, {"min_bytes", l1_start}, {"max_bytes", 65536}});
    doc["roofline"]["memory_levels"].push_back({{"threads", 2}, {"level", "L2"}, {"min_bytes", l2_start}, {"max_bytes", 1 << 21}});
    return testing::typed_fragment(doc);
  };
  EXPECT_TRUE(level_boundary_changes(run(4096, 131072), run(16384, 131072)).empty());
  const std::vector<std::string> starts = level_start_changes(run(4096, 131072), run(16384, 131072));
  ASSERT_EQ(starts.size(), 1u);
  EXPECT_EQ(starts[0], "2T L1 began at 4 KiB, now 16 KiB");
  EXPECT_TRUE(level_start_changes(run(4096, 131072), run(8192, 131072)).empty());  // one step
  // L2's start two steps later is a boundary, and not the first level's start.
  EXPECT_EQ(level_boundary_changes(run(4096, 131072), run(4096, 524288)).size(), 1u);
  EXPECT_TRUE(level_start_changes(run(4096, 131072), run(4096, 524288)).empty());
}

}  // namespace roofline
