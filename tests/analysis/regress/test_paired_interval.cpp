// The paired gate's decision (issue 59): the signed-rank distribution, the Hodges-Lehmann interval against its
// textbook values, the equivalence / regression / undecided decisions on synthetic rounds with this machine's
// noise, the sequential schedule and its error rates (A/A rounds never called a regression beyond alpha).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "roofline/regress/paired_interval.hpp"

namespace roofline {
namespace {

// Rounds of a paired figure on a shared 2-vCPU VM: log-normal noise of `sigma` per round, and for a shared-memory
// figure a memory-state flip between the two runs of 1 round in `flip_every` (one run 30% off, either way): the
// heavy tail the interval is for. 0: no flips (a core-bound figure).
std::vector<double> rounds_with_noise(int n, double true_ratio, double sigma, std::mt19937& rng, int flip_every = 0) {
  std::normal_distribution<double> noise(0.0, sigma);
  std::uniform_int_distribution<int> flip(0, std::max(0, flip_every - 1)), sign(0, 1);
  std::vector<double> x;
  for (int i = 0; i < n; ++i) {
    double v = std::log(true_ratio) + noise(rng);
    if (flip_every > 0 && flip(rng) == 0) v += (sign(rng) == 0 ? 1.0 : -1.0) * std::log(1.3);
    x.push_back(v);
  }
  return x;
}

TEST(PairedInterval, SignedRankDistributionIsExact) {
  // n = 3: T+ takes 0..6 with counts 1,1,1,2,1,1,1 over 8 sign patterns.
  const std::vector<double> cdf = signed_rank_cdf(3);
  ASSERT_EQ(cdf.size(), 7u);
  EXPECT_DOUBLE_EQ(cdf[0], 1.0 / 8);
  EXPECT_DOUBLE_EQ(cdf[3], 5.0 / 8);
  EXPECT_DOUBLE_EQ(cdf[6], 1.0);
  // The table value: n = 10, P(T+ <= 8) = 0.02441 (Hollander & Wolfe, table A.4: 25/1024).
  EXPECT_NEAR(signed_rank_cdf(10)[8], 25.0 / 1024, 1e-12);
  EXPECT_EQ(signed_rank_min_rounds(0.05), 5);       // 2^-5 = 0.031
  EXPECT_EQ(signed_rank_min_rounds(2.5e-4), 12);    // 2^-12 = 0.000244
}

TEST(PairedInterval, HodgesLehmannEstimateAndIntervalAreTheWalshOrderStatistics) {
  // Five rounds: Walsh averages of {1,2,3,4,5} are 15 values with median 3; at gamma = 1/32 the interval is
  // [min, max] = [1, 5] (k = 1: P(T+ <= 0) = 1/32).
  const std::vector<double> x{3.0, 1.0, 5.0, 2.0, 4.0};
  const PairedInterval i = hodges_lehmann_interval(x, 1.0 / 32);
  EXPECT_TRUE(i.bounded);
  EXPECT_DOUBLE_EQ(i.estimate, 3.0);
  EXPECT_DOUBLE_EQ(i.lower, 1.0);
  EXPECT_DOUBLE_EQ(i.upper, 5.0);
  // Below 2^-5 no interval exists with five rounds.
  EXPECT_FALSE(hodges_lehmann_interval(x, 0.03).bounded);
  // n = 10, gamma 0.025: k = 9 (P(T+ <= 8) = 0.0244), the 9th smallest and 9th largest of 55 Walsh averages.
  std::vector<double> ten;
  for (int i = 1; i <= 10; ++i) ten.push_back(i);
  const PairedInterval t = hodges_lehmann_interval(ten, 0.025);
  EXPECT_DOUBLE_EQ(t.estimate, 5.5);
  EXPECT_DOUBLE_EQ(t.lower, 3.0);   // Walsh averages ascending: 1, 1.5, 2, 2, 2.5, 2.5, 3, 3, 3 (9th)
  EXPECT_DOUBLE_EQ(t.upper, 8.0);
  EXPECT_THROW(hodges_lehmann_interval(std::vector<double>{NAN}, 0.05), std::invalid_argument);
}

TEST(PairedInterval, DecisionsAgainstTheThreshold) {
  const auto interval = [](double lo, double hi) {
    PairedInterval i;
    i.bounded = true;
    i.n = 20;
    i.lower = std::log(lo);
    i.upper = std::log(hi);
    i.estimate = 0.5 * (i.lower + i.upper);
    return i;
  };
  EXPECT_EQ(decide(interval(0.97, 1.02), 0.05), PairedDecision::ok);
  EXPECT_EQ(decide(interval(0.80, 0.90), 0.05), PairedDecision::regression);
  EXPECT_EQ(decide(interval(0.90, 0.97), 0.05), PairedDecision::undecided);  // a regression beyond 5% not excluded
  EXPECT_EQ(decide(interval(0.99, 1.10), 0.05), PairedDecision::not_worse);
  EXPECT_EQ(decide(interval(1.08, 1.20), 0.05), PairedDecision::improvement);
  EXPECT_EQ(decide(PairedInterval{}, 0.05), PairedDecision::undecided);
  // Two levels: ok from the figure's own interval even before the family-wise one exists; a regression only from the
  // family-wise one (the own interval wholly beyond -5% is not enough: with 50 figures one would be by chance).
  EXPECT_EQ(decide(PairedInterval{}, interval(0.98, 1.02), 0.05), PairedDecision::ok);
  EXPECT_EQ(decide(interval(0.85, 0.97), interval(0.88, 0.93), 0.05), PairedDecision::undecided);
  EXPECT_EQ(decide(interval(0.85, 0.94), interval(0.88, 0.93), 0.05), PairedDecision::regression);
  // The smallest regression these rounds could call: threshold + the interval's upper half-width.
  PairedInterval i = interval(0.98, 1.02);
  i.estimate = 0.0;
  EXPECT_NEAR(minimum_detectable_change(i, 0.05), 1.0 - 0.95 / 1.02, 1e-12);
  EXPECT_TRUE(std::isinf(minimum_detectable_change(PairedInterval{}, 0.05)));
}

TEST(PairedInterval, ScheduleIsFixedAndAlphaIsSplitOverFiguresAndLooks) {
  EXPECT_EQ(paired_schedule(12, 40), (std::vector<int>{12, 16, 21, 28, 40}));
  EXPECT_EQ(paired_schedule(50, 40), (std::vector<int>{40}));
  const PairedPlan plan = paired_plan(0.05, 40, 6, 40);
  EXPECT_NEAR(plan.gamma * 40 * static_cast<double>(plan.looks.size()), 0.05, 1e-12);
  EXPECT_NEAR(plan.gamma_own * static_cast<double>(plan.looks.size()), 0.05, 1e-12);
  // The first look is where a figure's own interval can exist (2^-n <= gamma_own); a regression needs more rounds.
  EXPECT_LE(signed_rank_min_rounds(plan.gamma_own), plan.looks.front());
  EXPECT_EQ(plan.looks, (std::vector<int>{8, 11, 15, 20, 26, 34, 40}));
  EXPECT_EQ(signed_rank_min_rounds(plan.gamma), 13);
  EXPECT_EQ(plan.looks.back(), 40);
}

// The sequential procedure on synthetic rounds, as run_paired does it: look on the schedule, stop when decided.
PairedDecision sequential(double true_ratio, double sigma, const PairedPlan& plan, std::mt19937& rng, int* rounds = nullptr,
                          int flip_every = 0) {
  const std::vector<double> all = rounds_with_noise(plan.looks.back(), true_ratio, sigma, rng, flip_every);
  PairedDecision d = PairedDecision::undecided;
  for (int look : plan.looks) {
    const auto first = std::span(all).first(static_cast<std::size_t>(look));
    d = decide(hodges_lehmann_interval(first, plan.gamma), hodges_lehmann_interval(first, plan.gamma_own), 0.05);
    if (rounds) *rounds = look;
    if (d != PairedDecision::undecided) break;
  }
  return d;
}

TEST(PairedInterval, EquivalenceRegressionAndUndecidedOnThisMachinesNoise) {
  // 40 key figures, alpha 0.05, at most 40 rounds: the gate's defaults.
  const PairedPlan plan = paired_plan(0.05, 40, 6, 40);
  std::mt19937 rng(59);
  // No change, a core-bound figure's round-to-round noise (2%): ok (or not worse, when the interval first clears -5%
  // while still reaching past +5%: the gate stops there too), mostly at the first or second look.
  int rounds = 0, early = 0, ok_core = 0;
  for (int i = 0; i < 50; ++i) {
    const PairedDecision d = sequential(1.0, 0.02, plan, rng, &rounds);
    EXPECT_TRUE(d == PairedDecision::ok || d == PairedDecision::not_worse) << to_string(d);
    ok_core += d == PairedDecision::ok;
    early += rounds <= plan.looks[1];
  }
  EXPECT_GE(ok_core, 40);
  EXPECT_GE(early, 40);
  // A 15% slowdown: a regression, never ok.
  for (int i = 0; i < 50; ++i) EXPECT_EQ(sequential(0.85, 0.02, plan, rng), PairedDecision::regression);
  // A 10% slowdown with 3% noise: a regression within the rounds allowed.
  for (int i = 0; i < 50; ++i) EXPECT_EQ(sequential(0.90, 0.03, plan, rng), PairedDecision::regression);
  // A DRAM figure with the memory-state flips (1 round in 12) and 3% noise: no change is ok within the rounds allowed
  // (the flips need more rounds than the first look: its interval is the rounds' whole range), 15% slower a regression.
  int ok_dram = 0;
  for (int i = 0; i < 50; ++i) {
    const PairedDecision d = sequential(1.0, 0.03, plan, rng, nullptr, 12);
    EXPECT_NE(d, PairedDecision::regression);
    ok_dram += d == PairedDecision::ok;
  }
  EXPECT_GE(ok_dram, 25) << ok_dram << " of 50";
  for (int i = 0; i < 50; ++i) EXPECT_EQ(sequential(0.85, 0.03, plan, rng, nullptr, 12), PairedDecision::regression);
  // A 5% slowdown, right at the threshold: neither shown equivalent nor shown beyond it.
  int undecided = 0, ok = 0;
  for (int i = 0; i < 50; ++i) {
    const PairedDecision d = sequential(0.95, 0.02, plan, rng);
    undecided += d == PairedDecision::undecided;
    ok += d == PairedDecision::ok;
  }
  // (ok is each figure's own error, alpha: a few of 50 at most)
  EXPECT_GE(undecided, 40);
  EXPECT_LE(ok, 5);
}

TEST(PairedInterval, AaRoundsAreNeverARegressionBeyondAlpha) {
  // 2000 A/A figures with a DRAM figure's noise (8% per round plus the flips): the family's false-regression rate
  // is bounded by alpha over 40 figures, so per figure by alpha / 40 = 0.00125: at most a few in 2000 (expect none).
  const PairedPlan plan = paired_plan(0.05, 40, 6, 40);
  std::mt19937 rng(7);
  int regressions = 0;
  for (int i = 0; i < 2000; ++i) regressions += sequential(1.0, 0.08, plan, rng, nullptr, 12) == PairedDecision::regression;
  EXPECT_LE(regressions, 5);
}

}  // namespace
}  // namespace roofline
