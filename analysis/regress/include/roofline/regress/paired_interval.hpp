// The paired gate's estimate and interval of one figure over its rounds (`compare --base-bin A --new-bin B`,
// scripts/ci-regression): the Hodges-Lehmann estimate of the rounds' log ratios and its distribution-free
// confidence interval from the Wilcoxon signed-rank statistic (the order statistics of the Walsh averages,
// Hollander & Wolfe, "Nonparametric Statistical Methods", 3.2). Why this one: a round's ratio on a shared VM is
// heavy-tailed (a memory-state flip between the two runs of one round moves a DRAM figure by 40%), so a mean and a
// t interval would be pulled by one round; the signed-rank interval needs only a symmetric distribution of the
// log ratios (the order within a round is randomized, which makes them so under no change), is exact for every n,
// and a bootstrap at the tail levels the gate needs (below 1e-3) would need far more rounds than CI can afford.
//
// The decision per figure (threshold t, relative): with the interval [lo, hi] of the ratio new/base taken so that
// lower means worse,
//   regression   hi < 1 - t           the whole interval is worse than the threshold
//   ok           1 - t < lo, hi < 1 + t  the interval lies inside +-t: an equivalence decision (two one-sided
//                                     tests), not "no significant difference"
//   improvement  lo > 1 + t
//   not_worse    lo > 1 - t, hi >= 1 + t  no regression possible beyond t; no equivalence either (a gain that
//                                     is not established): it does not hold the gate open
//   undecided    otherwise: a regression beyond t is neither shown nor excluded: more rounds
// Error control, two intervals of one figure: a regression is called from the interval whose bounds each have error
// gamma = alpha / (figures x looks) (Bonferroni over the figures and over the looks of the sequential schedule,
// paired_schedule()), so the chance that any figure at any look is called a regression while none moved is at most
// alpha: this is the error that fails a CI job. ok, not_worse and improvement are called from the figure's own
// interval, each bound's error alpha / looks: two one-sided tests per figure (TOST, the equivalence test's usual
// level), so each figure is called ok while it moved by more than t with chance at most alpha. A figure the first
// interval cannot call a regression and the second cannot clear is undecided.
#pragma once

#include <span>
#include <string_view>
#include <vector>

namespace roofline {

struct PairedInterval {
  int n = 0;               // rounds
  double estimate = 0.0;   // Hodges-Lehmann estimate of the log ratio (the median of the Walsh averages)
  double lower = 0.0;      // the interval's bounds, log ratio; only meaningful when bounded
  double upper = 0.0;
  bool bounded = false;    // false: too few rounds for an interval at this gamma (2^-n > gamma)
  double gamma = 0.0;      // each bound's error
};

// The exact lower tail of the signed-rank statistic T+ (no ties) for n: P(T+ <= t) for t = 0 .. n(n+1)/2.
std::vector<double> signed_rank_cdf(int n);
// The fewest rounds for which an interval with each bound's error at most gamma exists (2^-n <= gamma).
int signed_rank_min_rounds(double gamma);

// Throws std::invalid_argument on NaN or gamma outside (0, 0.5).
PairedInterval hodges_lehmann_interval(std::span<const double> log_ratios, double gamma);

enum class PairedDecision { ok, regression, improvement, not_worse, undecided };
std::string_view to_string(PairedDecision d);

// `threshold`: relative (0.05). The intervals are of log(new/base) oriented so that negative is worse: `family` at
// the family-wise gamma (regression), `own` at the figure's own (ok, not_worse, improvement).
PairedDecision decide(const PairedInterval& family, const PairedInterval& own, double threshold);
// One interval for both (tests, and callers with one level).
inline PairedDecision decide(const PairedInterval& interval, double threshold) { return decide(interval, interval, threshold); }

// The smallest worsening (a positive fraction, 0.12 = 12% slower) these rounds could have called a regression:
// the threshold plus the interval's upper half-width (the estimate must lie that far below 1 - t for the upper bound
// to clear it). Infinity without an interval.
double minimum_detectable_change(const PairedInterval& interval, double threshold);

// The looks of the sequential schedule: the first at the fewest rounds that can decide at gamma (and at least
// `min_rounds`), then about 1.3x the previous, up to `max_rounds` (always a look). Fixed before the first round, so
// that its length K can divide alpha. `gamma_of(K)` = alpha / (figures x K) must be solved with the schedule; this
// returns the schedule for a given first look.
std::vector<int> paired_schedule(int first, int max_rounds);
// The schedule and its gammas: the first look at the fewest rounds whose own interval can exist at alpha / looks.
struct PairedPlan {
  std::vector<int> looks;
  double gamma = 0.0;      // each bound's error of the interval that calls a regression: alpha / (figures x looks)
  double gamma_own = 0.0;  // each bound's error of a figure's own interval (ok, not_worse): alpha / looks
};
PairedPlan paired_plan(double alpha, int figures, int min_rounds, int max_rounds);

}  // namespace roofline
