// Hodges-Lehmann estimate, signed-rank interval, the paired decision and the sequential schedule. See
// paired_interval.hpp. Written by hand: no Debian-packaged C++ library has the signed-rank interval (GSL and
// Boost.Math give distributions, not this estimator).
#include "roofline/regress/paired_interval.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "roofline/common/name_table.hpp"

namespace roofline {

std::vector<double> signed_rank_cdf(int n) {
  if (n < 0) throw std::invalid_argument("signed_rank_cdf: negative n");
  const int total = n * (n + 1) / 2;
  // counts[s] / 2^n: the sign patterns whose positive ranks sum to s.
  std::vector<long double> counts(static_cast<std::size_t>(total) + 1, 0.0L);
  counts[0] = 1.0L;
  for (int rank = 1; rank <= n; ++rank) {
    for (int s = total; s >= rank; --s) counts[static_cast<std::size_t>(s)] += counts[static_cast<std::size_t>(s - rank)];
  }
  const long double all = std::pow(2.0L, static_cast<long double>(n));
  std::vector<double> cdf(counts.size());
  long double running = 0.0L;
  for (std::size_t s = 0; s < counts.size(); ++s) {
    running += counts[s];
    cdf[s] = static_cast<double>(running / all);
  }
  return cdf;
}

int signed_rank_min_rounds(double gamma) {
  if (!(gamma > 0.0 && gamma < 0.5)) throw std::invalid_argument("signed_rank_min_rounds: gamma must be in (0, 0.5)");
  int n = 1;
  while (std::pow(2.0, -n) > gamma) ++n;
  return n;
}

PairedInterval hodges_lehmann_interval(std::span<const double> log_ratios, double gamma) {
  if (!(gamma > 0.0 && gamma < 0.5)) throw std::invalid_argument("hodges_lehmann_interval: gamma must be in (0, 0.5)");
  PairedInterval out;
  out.gamma = gamma;
  out.n = static_cast<int>(log_ratios.size());
  if (out.n == 0) return out;
  for (double x : log_ratios) {
    if (std::isnan(x)) throw std::invalid_argument("hodges_lehmann_interval: NaN log ratio");
  }
  // The Walsh averages (x_i + x_j) / 2, i <= j: n(n+1)/2 of them.
  std::vector<double> walsh;
  walsh.reserve(log_ratios.size() * (log_ratios.size() + 1) / 2);
  for (std::size_t i = 0; i < log_ratios.size(); ++i) {
    for (std::size_t j = i; j < log_ratios.size(); ++j) walsh.push_back(0.5 * (log_ratios[i] + log_ratios[j]));
  }
  std::sort(walsh.begin(), walsh.end());
  const std::size_t total = walsh.size();
  out.estimate = total % 2 == 1 ? walsh[total / 2] : 0.5 * (walsh[total / 2 - 1] + walsh[total / 2]);
  // The interval [W_(k), W_(N+1-k)] (1-based) has each bound's error P(T+ <= k-1): the largest k with that <= gamma.
  const std::vector<double> cdf = signed_rank_cdf(out.n);
  std::size_t k = 0;
  while (k < cdf.size() && cdf[k] <= gamma) ++k;  // cdf[k - 1] = P(T+ <= k - 1) <= gamma
  if (k == 0) return out;                        // 2^-n > gamma: no interval at this level yet
  out.bounded = true;
  out.lower = walsh[k - 1];
  out.upper = walsh[total - k];
  return out;
}

std::string_view to_string(PairedDecision d) {
  static constexpr NameTable<PairedDecision, 5> kNames{{{PairedDecision::ok, "ok"},
                                                        {PairedDecision::regression, "regression"},
                                                        {PairedDecision::improvement, "improvement"},
                                                        {PairedDecision::not_worse, "not_worse"},
                                                        {PairedDecision::undecided, "undecided"}}};
  return name_of(kNames, d, "");
}

PairedDecision decide(const PairedInterval& family, const PairedInterval& own, double threshold) {
  const double worse = std::log1p(-threshold), better = std::log1p(threshold);
  if (family.bounded && family.upper < worse) return PairedDecision::regression;
  if (!own.bounded) return PairedDecision::undecided;
  if (own.lower > better) return PairedDecision::improvement;
  if (own.lower > worse) return own.upper < better ? PairedDecision::ok : PairedDecision::not_worse;
  return PairedDecision::undecided;
}

double minimum_detectable_change(const PairedInterval& interval, double threshold) {
  if (!interval.bounded) return std::numeric_limits<double>::infinity();
  const double half_width = interval.upper - interval.estimate;
  return -std::expm1(std::log1p(-threshold) - half_width);
}

std::vector<int> paired_schedule(int first, int max_rounds) {
  std::vector<int> looks;
  if (max_rounds < 1) return looks;
  if (first >= max_rounds) return {max_rounds};
  for (int n = std::max(1, first); n < max_rounds; n = std::max(n + 1, static_cast<int>(std::ceil(n * 1.3)))) looks.push_back(n);
  // A last step of a round or two adds a look (and a share of alpha) for almost no evidence: it moves to the end.
  if (!looks.empty() && max_rounds - looks.back() < std::max(2, looks.back() / 8)) looks.pop_back();
  looks.push_back(max_rounds);
  return looks;
}

PairedPlan paired_plan(double alpha, int figures, int min_rounds, int max_rounds) {
  if (!(alpha > 0.0 && alpha < 1.0)) throw std::invalid_argument("paired_plan: alpha must be in (0, 1)");
  PairedPlan plan;
  std::size_t looks = 1;
  // gamma depends on the number of looks, the first look on gamma: iterate to the fixed point (the count only grows).
  for (int i = 0; i < 64; ++i) {
    plan.gamma_own = alpha / static_cast<double>(looks);
    plan.looks = paired_schedule(std::max(min_rounds, signed_rank_min_rounds(std::min(plan.gamma_own, 0.49))), max_rounds);
    if (plan.looks.size() <= looks) break;
    looks = plan.looks.size();
  }
  // The schedule may have come out shorter than the count it was solved for: alpha is split over the looks it has
  // (a larger gamma only moves the fewest rounds that can decide earlier, so its first look still can).
  const double k = static_cast<double>(plan.looks.size());
  plan.gamma_own = alpha / k;
  plan.gamma = alpha / (static_cast<double>(std::max(1, figures)) * k);
  return plan;
}

}  // namespace roofline
