// The paired gate (compare_gate.hpp's gate_paired, issue 59) on the hand-made files of tests/data/compare: each
// figure's interval decided against the floor, the outcome and its exit code, and what the table and JSON say.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "roofline/model/key_figures.hpp"
#include "roofline/model/results.hpp"
#include "roofline/regress/compare_gate.hpp"
#include "roofline/regress/compare_levels.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
using nlohmann::json;

const std::string kDir = std::string(ROOFLINE_TEST_DATA_DIR) + "/compare/";
const std::string kTriad = "memory/DRAM/triad/threads:2";

json load(const std::string& name) { return load_json_file(kDir + name); }

const FigureRow& figure(const Gate& g, const std::string& id) {
  const auto it = std::find_if(g.figures.begin(), g.figures.end(), [&](const FigureRow& r) { return r.figure.id == id; });
  if (it == g.figures.end()) throw std::runtime_error("no figure " + id);
  return *it;
}

// Rounds of base.json against itself with its DRAM triad scaled by each ratio in turn.
PairedRounds rounds_of(const std::vector<double>& triad_ratios) {
  const json base = load("base.json");
  PairedRounds r;
  r.figures = key_figures(testing::lenient(base));
  for (double ratio : triad_ratios) {
    for (const KeyFigure& f : r.figures) {
      r.base[f.id].push_back(f.value);
      r.next[f.id].push_back(f.id == kTriad ? f.value * ratio : f.value);
    }
    ++r.rounds;
  }
  return r;
}

TEST(PairedGate, AFigureTheBuildsTakeDifferentlyIsListedNotPaired) {
  // A GEMM the base build ran at another shape (paired_runs.cpp leaves it out of the rounds and says why).
  PairedRounds r = rounds_of(std::vector<double>(8, 1.0));
  const std::string id = r.figures.front().id;
  r.base.erase(id);
  r.next.erase(id);
  r.figures.erase(r.figures.begin());
  r.mismatched[id] = "(base: best backend at 6144x6144, new: best backend at 2560x2560)";
  const Gate g = gate_paired(r, GateOptions{}, 0.05 / 4, 0.05, true);
  EXPECT_TRUE(std::none_of(g.figures.begin(), g.figures.end(), [&](const FigureRow& row) { return row.figure.id == id; }));
  ASSERT_EQ(g.not_comparable.size(), 1u);
  EXPECT_EQ(g.not_comparable.front(), id + " (base: best backend at 6144x6144, new: best backend at 2560x2560)");
}

const std::string kL1Read = "memory/L1/read/threads:2";

// Rounds of base.json against itself with `id` scaled by each ratio in turn, and its thread spreads (issue 59):
// `base` and `next` per round.
PairedRounds spread_rounds(const std::string& id, const std::vector<double>& ratios, const std::vector<double>& base,
                           const std::vector<double>& next) {
  PairedRounds r = rounds_of(std::vector<double>(ratios.size(), 1.0));
  for (std::size_t i = 0; i < ratios.size(); ++i) r.next[id][i] *= ratios[i];
  r.base_spread[id] = base;
  r.next_spread[id] = next;
  return r;
}

TEST(PairedGate, ARoundWhoseThreadsRanApartIsLeftOutOfThatFigure) {
  // 14 rounds, two of them 40% slow in the new run while its threads' rates were 30% apart (a loaded SMT sibling).
  std::vector<double> ratios(14, 1.0), quiet(14, 0.01), next_spread(14, 0.01);
  for (const std::size_t r : {3u, 9u}) {
    ratios[r] = 0.6;
    next_spread[r] = 0.3;
  }
  const PairedRounds r = spread_rounds(kL1Read, ratios, quiet, next_spread);
  const Gate g = gate_paired(r, GateOptions{}, 0.05 / 4, 0.05, true);
  const FigureRow& l1 = figure(g, kL1Read);
  EXPECT_EQ(l1.rounds, 12);
  EXPECT_EQ(l1.verdict, Verdict::ok);
  EXPECT_NEAR(l1.ratio, 1.0, 1e-12);
  EXPECT_NE(l1.why.find("2 of 14 rounds left out"), std::string::npos) << l1.why;
  // The same rounds without spreads (a file from before the field, or a figure at one thread): all 14 judged.
  const Gate all = gate_paired(spread_rounds(kL1Read, ratios, {}, {}), GateOptions{}, 0.05 / 4, 0.05, true);
  EXPECT_EQ(figure(all, kL1Read).rounds, 14);
  // A spread at the limit is not beyond it; the limit is an option (--max-thread-spread).
  GateOptions loose;
  loose.max_thread_spread = 0.3;
  EXPECT_EQ(figure(gate_paired(r, loose, 0.05 / 4, 0.05, true), kL1Read).rounds, 14);
  // A shared level (DRAM) keeps every round: its threads' rates differ without a host's help.
  const Gate dram = gate_paired(spread_rounds(kTriad, ratios, quiet, next_spread), GateOptions{}, 0.05 / 4, 0.05, true);
  EXPECT_EQ(figure(dram, kTriad).rounds, 14);
  EXPECT_EQ(figure(dram, kTriad).why.find("left out"), std::string::npos);
}

TEST(PairedGate, ASpreadInMostRoundsOfOneBuildIsTheBuildsAndEveryRoundIsJudged) {
  // A new build that splits its threads' work unequally: its runs spread in 10 of 14 rounds, each 20% slow. Leaving
  // those rounds out would hide the regression; they are the build's, not a moment's.
  std::vector<double> ratios(14, 1.0), quiet(14, 0.01), next_spread(14, 0.01);
  for (std::size_t i = 0; i < 10; ++i) {
    ratios[i] = 0.8;
    next_spread[i] = 0.25;
  }
  const Gate g = gate_paired(spread_rounds(kL1Read, ratios, quiet, next_spread), GateOptions{}, 0.05 / 4, 0.05, true);
  const FigureRow& l1 = figure(g, kL1Read);
  EXPECT_EQ(l1.rounds, 14);
  EXPECT_EQ(l1.verdict, Verdict::regression);
  EXPECT_NE(l1.why.find("disturbed in 0 of 14 base and 10 of 14 new runs"), std::string::npos) << l1.why;
  EXPECT_NE(l1.why.find("every round kept"), std::string::npos) << l1.why;
}

// Rounds of base.json against itself with `id` scaled by each ratio in turn, and each run's scaling (T threads over T
// x its 1-thread rate, issue 59): `base` and `next` per round; the spreads quiet.
PairedRounds scaling_rounds(const std::string& id, const std::vector<double>& ratios, const std::vector<double>& base,
                            const std::vector<double>& next) {
  PairedRounds r = spread_rounds(id, ratios, std::vector<double>(ratios.size(), 0.01), std::vector<double>(ratios.size(), 0.01));
  r.base_scaling[id] = base;
  r.next_scaling[id] = next;
  return r;
}

TEST(PairedGate, ARoundWhoseVcpusWereSlowedAlikeIsLeftOutOfThatFigure) {
  // 14 rounds, two new runs at the 1-thread rate (scaling 0.5 against the others' 0.95), their threads' rates 1% apart:
  // the host ran both vCPUs on one core's worth (results/reference/vm-amd-zen4-2vcpu_ci-gate-aa.txt).
  std::vector<double> ratios(14, 1.0), base(14, 0.95), next(14, 0.95);
  for (const std::size_t r : {3u, 9u}) {
    ratios[r] = 0.52;
    next[r] = 0.5;
  }
  const Gate g = gate_paired(scaling_rounds(kL1Read, ratios, base, next), GateOptions{}, 0.05 / 4, 0.05, true);
  const FigureRow& l1 = figure(g, kL1Read);
  EXPECT_EQ(l1.rounds, 12);
  EXPECT_EQ(l1.verdict, Verdict::ok);
  EXPECT_NE(l1.why.find("2 of 14 rounds left out: 2 a run's 2 threads more than 20% below"), std::string::npos) << l1.why;
  EXPECT_NE(l1.why.find("median scaling 0.95"), std::string::npos) << l1.why;
  // Within the drop (0.8 x 0.95 = 0.76 and up) a run is kept; the drop is an option (--max-scaling-drop).
  for (const std::size_t r : {3u, 9u}) next[r] = 0.77;
  EXPECT_EQ(figure(gate_paired(scaling_rounds(kL1Read, ratios, base, next), GateOptions{}, 0.05 / 4, 0.05, true), kL1Read).rounds, 14);
  for (const std::size_t r : {3u, 9u}) next[r] = 0.5;
  GateOptions loose;
  loose.max_scaling_drop = 0.6;
  EXPECT_EQ(figure(gate_paired(scaling_rounds(kL1Read, ratios, base, next), loose, 0.05 / 4, 0.05, true), kL1Read).rounds, 14);
  // Without a 1-thread partner (-1) every round is judged; a shared level (DRAM) keeps every round whatever its scaling.
  const std::vector<double> none(14, -1.0);
  EXPECT_EQ(figure(gate_paired(scaling_rounds(kL1Read, ratios, none, none), GateOptions{}, 0.05 / 4, 0.05, true), kL1Read).rounds, 14);
  EXPECT_EQ(figure(gate_paired(scaling_rounds(kTriad, ratios, base, next), GateOptions{}, 0.05 / 4, 0.05, true), kTriad).rounds, 14);
}

TEST(PairedGate, ABuildThatScalesWorseInMostRoundsIsJudgedOnEveryRound) {
  // A new build whose 2-thread L1 read lost a fifth against its own 1-thread rate in 10 of 14 rounds (a worse split):
  // those runs sit below the median scaling, but they are the build's, so no round is left out and it regresses.
  std::vector<double> ratios(14, 1.0), base(14, 0.95), next(14, 0.95);
  for (std::size_t i = 0; i < 10; ++i) {
    ratios[i] = 0.6;
    next[i] = 0.57;
  }
  const Gate g = gate_paired(scaling_rounds(kL1Read, ratios, base, next), GateOptions{}, 0.05 / 4, 0.05, true);
  const FigureRow& l1 = figure(g, kL1Read);
  EXPECT_EQ(l1.rounds, 14);
  EXPECT_EQ(l1.verdict, Verdict::regression);
  EXPECT_NE(l1.why.find("disturbed in 0 of 14 base and 10 of 14 new runs"), std::string::npos) << l1.why;
}

TEST(PairedGate, ThreadScalingIsTThreadsOverTTimesTheSameRunsOneThread) {
  const auto fig = [](std::string id, std::string group, int threads, double value, bool shared = false) {
    KeyFigure f;
    f.id = std::move(id);
    f.group = std::move(group);
    f.threads = threads;
    f.value = value;
    f.shared_memory = shared;
    return f;
  };
  const std::vector<KeyFigure> run{
      fig("memory/L1/read/threads:1", "memory", 1, 200e9),        fig("memory/L1/read/threads:2", "memory", 2, 380e9),
      fig("memory/DRAM/read/threads:1", "memory", 1, 40e9, true), fig("memory/DRAM/read/threads:2", "memory", 2, 60e9, true),
      fig("compute/fp32/vector/threads:1", "compute", 1, 100e9),   fig("compute/fp32/vector/threads:12", "compute", 12, 600e9),
      fig("dequant/q4_0/threads:2", "dequant", 2, 1e9),            fig("gemm/fp64/batch:max/threads:2", "gemm", 2, 90e9)};
  const std::map<std::string, double> s = thread_scalings(run);
  ASSERT_EQ(s.size(), 2u);  // DRAM is shared; dequant and the GEMM have no 1-thread partner here
  EXPECT_NEAR(s.at("memory/L1/read/threads:2"), 0.95, 1e-12);
  EXPECT_NEAR(s.at("compute/fp32/vector/threads:12"), 0.5, 1e-12);
}

TEST(PairedGate, AFigureFocusedRoundsLeftOutIsGatedOnTheRoundsThatPlannedIt) {
  // 14 rounds; the compute figure was measured in the first 6 only (later rounds ran the undecided figures' suites).
  PairedRounds r = rounds_of(std::vector<double>(14, 1.0));
  const std::string compute = "compute/fp32/vector/threads:2";
  r.base[compute].resize(6);
  r.next[compute].resize(6);
  for (const KeyFigure& f : r.figures) r.planned_rounds[f.id] = f.id == compute ? 6 : 14;
  const Gate g = gate_paired(r, GateOptions{}, 0.05 / 4, 0.05, true);
  EXPECT_EQ(figure(g, compute).rounds, 6);
  EXPECT_TRUE(g.not_comparable.empty());
  // Without the plan's count, 6 of 14 rounds is a figure most runs lack: listed, not gated.
  r.planned_rounds.clear();
  const Gate listed = gate_paired(r, GateOptions{}, 0.05 / 4, 0.05, true);
  ASSERT_EQ(listed.not_comparable.size(), 1u);
  EXPECT_NE(listed.not_comparable.front().find("measured in 6 of 14 rounds"), std::string::npos);
}

// Rounds of base.json against itself with `id` scaled by each ratio in turn, and where each run's threads were
// placed (thread round trips, ns): `base` and `next` per round.
PairedRounds placement_rounds(const std::string& id, const std::vector<double>& ratios, const std::vector<double>& base,
                              const std::vector<double>& next) {
  PairedRounds r = spread_rounds(id, ratios, {}, {});
  r.base_round_trip[id] = base;
  r.next_round_trip[id] = next;
  return r;
}

TEST(PairedGate, ARoundWhoseRunsTheHostPlacedApartIsLeftOutOfASharedFigure) {
  // 14 rounds of the DRAM triad at 2 threads; in three the new run's vCPUs were on two memory systems (round trip 590
  // ns against 185) and its DRAM 55% faster: like with like, those rounds are not compared.
  std::vector<double> ratios(14, 1.0), base(14, 185.0), next(14, 185.0);
  for (const std::size_t r : {2u, 5u, 8u}) {
    ratios[r] = 1.55;
    next[r] = 590.0;
  }
  const Gate g = gate_paired(placement_rounds(kTriad, ratios, base, next), GateOptions{}, 0.05 / 4, 0.05, true);
  const FigureRow& triad = figure(g, kTriad);
  EXPECT_EQ(triad.rounds, 11);
  EXPECT_EQ(triad.verdict, Verdict::ok);
  EXPECT_NE(triad.why.find("3 of 14 rounds left out: 3 the two runs' threads placed apart by the host"), std::string::npos)
      << triad.why;
  // Both runs in the far placement is like with like: kept. Within the shift (1.5x) too; the shift is an option.
  std::vector<double> far = next;
  for (const std::size_t r : {2u, 5u, 8u}) far[r] = 590.0;
  std::vector<double> both = base;
  for (const std::size_t r : {2u, 5u, 8u}) both[r] = 560.0;
  EXPECT_EQ(figure(gate_paired(placement_rounds(kTriad, ratios, both, far), GateOptions{}, 0.05 / 4, 0.05, true), kTriad).rounds, 14);
  GateOptions loose;
  loose.max_placement_shift = 3.0;
  EXPECT_EQ(figure(gate_paired(placement_rounds(kTriad, ratios, base, next), loose, 0.05 / 4, 0.05, true), kTriad).rounds, 14);
  // A private cache's figure does not follow the placement: every round kept.
  EXPECT_EQ(figure(gate_paired(placement_rounds(kL1Read, ratios, base, next), GateOptions{}, 0.05 / 4, 0.05, true), kL1Read).rounds, 14);
}

TEST(PairedGate, ABuildThatPlacesItsThreadsElsewhereInMostRoundsIsJudgedOnEveryRound) {
  // The new build binds its threads apart in 10 of 14 rounds (a binding change) and its DRAM triad moves with it: the
  // build's doing, so every round is judged.
  std::vector<double> ratios(14, 1.0), base(14, 185.0), next(14, 185.0);
  for (std::size_t i = 0; i < 10; ++i) {
    ratios[i] = 0.7;
    next[i] = 590.0;
  }
  const Gate g = gate_paired(placement_rounds(kTriad, ratios, base, next), GateOptions{}, 0.05 / 4, 0.05, true);
  const FigureRow& triad = figure(g, kTriad);
  EXPECT_EQ(triad.rounds, 14);
  EXPECT_NE(triad.why.find("placed apart in 10 of 14 rounds: every round kept"), std::string::npos) << triad.why;
}

TEST(PairedGate, AGemmFiguresPlacementIsItsEntriesAtItsBatch) {
  // Every backend's entries of the figure's precision and threads at its batch (the largest for batch:max).
  ResultsDocument run;
  const auto entry = [&](const char* precision, int threads, long long batch, double ns) {
    BenchmarkEntry e;
    e.run_type = "iteration";
    e.thread_round_trip_ns = ns;
    e.labels = EntryLabels{};
    e.labels->suite = "gemm";
    e.labels->precision = precision;
    e.labels->threads = threads;
    e.labels->batch = batch;
    run.benchmarks.push_back(e);
  };
  entry("fp64", 2, 1, 180.0);
  entry("fp64", 2, 1, 200.0);
  entry("fp64", 2, 1, 190.0);
  entry("fp64", 2, 64, 580.0);
  entry("fp32", 2, 64, 900.0);
  entry("fp64", 1, 64, 10.0);
  KeyFigure f;
  f.group = "gemm";
  f.threads = 2;
  f.id = "gemm/fp64/batch:1/threads:2";
  EXPECT_EQ(figure_thread_round_trip(run, f, run), 190.0);
  f.id = "gemm/fp64/batch:max/threads:2";
  EXPECT_EQ(figure_thread_round_trip(run, f, run), 580.0);
  f.id = "gemm/fp64/eigen/batch:1/threads:2/of_roof_now";  // carries its own moment's probes
  EXPECT_FALSE(figure_thread_round_trip(run, f, run));
  f.id = "gemm/bf16/batch:1/threads:2";
  EXPECT_FALSE(figure_thread_round_trip(run, f, run));
}

TEST(PairedGate, DecidesEachFigureByItsInterval) {
  // Every round 20% slower: below 2^-n > gamma no interval exists, so nothing is decided yet; 4 figures and one look
  // give gamma = 0.05 / 4, an interval from 7 rounds on (2^-7 < 0.0125); each figure's own interval takes 0.05.
  const double gamma = 0.05 / 4, own = 0.05;
  GateOptions ten;  // the hand-made files' 20% slower triad against a 10% shared-memory floor (the default is 20%)
  ten.floor_shared = 0.10;
  const Gate six = gate_paired(rounds_of(std::vector<double>(6, 0.8)), ten, gamma, own, false);
  EXPECT_EQ(figure(six, kTriad).verdict, Verdict::undecided);
  EXPECT_TRUE(paired_undecided(six));
  const Gate six_final = gate_paired(rounds_of(std::vector<double>(6, 0.8)), ten, gamma, own, true);
  EXPECT_EQ(six_final.outcome, Outcome::undecided);
  EXPECT_EQ(exit_code(six_final.outcome, false), 3);
  EXPECT_EQ(exit_code(six_final.outcome, false, true), 0);  // --allow-undecided
  const Gate seven = gate_paired(rounds_of(std::vector<double>(7, 0.8)), ten, gamma, own, false);
  EXPECT_EQ(seven.outcome, Outcome::regression);
  EXPECT_EQ(figure(seven, kTriad).verdict, Verdict::regression);
  EXPECT_NEAR(figure(seven, kTriad).ratio, 0.8, 1e-12);
  EXPECT_FALSE(paired_undecided(seven));
  EXPECT_NE(seven.verdict_line.find(kTriad), std::string::npos) << seven.verdict_line;
  // The unchanged figures are equivalent (ratio 1 in every round: an interval of zero width inside +-5%).
  for (const FigureRow& r : seven.figures) {
    if (r.figure.id != kTriad) {
      EXPECT_EQ(r.verdict, Verdict::ok) << r.figure.id;
    }
  }
  // The DRAM triad is judged against the shared-memory floor (10%): consistently 2% slower is ok; 10% slower sits on
  // the floor: undecided.
  EXPECT_DOUBLE_EQ(figure(seven, kTriad).threshold, ten.floor_shared);
  // Each class has its floor: compute 5%, the private caches 10%, shared memory 20% by default.
  KeyFigure f;
  f.threads = 2;
  f.group = "compute";
  EXPECT_DOUBLE_EQ(paired_floor(f, GateOptions{}), 0.05);
  f.group = "dequant";
  f.id = "dequant/q4_k/threads:1";
  f.threads = 1;
  EXPECT_DOUBLE_EQ(paired_floor(f, GateOptions{}), 0.05);
  // At more than one thread a dequant dot scatters as the private caches do (paired_floor).
  f.id = "dequant/q4_k/threads:2";
  f.threads = 2;
  EXPECT_DOUBLE_EQ(paired_floor(f, GateOptions{}), 0.10);
  f.group = "memory";
  f.id = "memory/L1/read/threads:2";
  EXPECT_DOUBLE_EQ(paired_floor(f, GateOptions{}), 0.10);
  f.shared_memory = true;
  f.id = "memory/DRAM/read/threads:2";
  EXPECT_DOUBLE_EQ(paired_floor(f, GateOptions{}), 0.20);
  EXPECT_EQ(gate_paired(rounds_of(std::vector<double>(10, 0.98)), ten, gamma, own, true).outcome, Outcome::clean);
  const Gate edge = gate_paired(rounds_of({0.89, 0.91, 0.90, 0.89, 0.91, 0.90, 0.89, 0.91, 0.90, 0.90}), ten, gamma, own, true);
  EXPECT_EQ(figure(edge, kTriad).verdict, Verdict::undecided);
  EXPECT_EQ(edge.outcome, Outcome::undecided);
  // The table says the interval and the smallest regression the rounds could call.
  const std::string text = render_gate_text(seven);
  EXPECT_NE(text.find("Interval"), std::string::npos) << text;
  EXPECT_NE(text.find("Detectable"), std::string::npos) << text;
  const nlohmann::json j = gate_to_json(seven);
  EXPECT_TRUE(j["figures"][0]["interval"].is_array());
}

}  // namespace
}  // namespace roofline
