// The paired gate (compare_gate.hpp's gate_paired, issue 59) on the hand-made files of tests/data/compare: each
// figure's interval decided against the floor, the outcome and its exit code, and what the table and JSON say.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "roofline/model/key_figures.hpp"
#include "roofline/model/results.hpp"
#include "roofline/regress/compare_gate.hpp"
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
  EXPECT_NE(l1.why.find("10 of 14 new runs: every round kept"), std::string::npos) << l1.why;
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
