// Paired A/B rounds (`roofline compare --base-bin A --new-bin B`): the round is the unit. Each round ran
// both builds back to back in random order on the same machine, so the ratio new/base of one round
// cancels what that moment shares (neighbours, clock, what is in the shared caches). Per figure: the
// one-sided Wilcoxon signed-rank test of the rounds' log ratios, Holm's correction over the figures, and
// the size floor on the median ratio. See compare_gate.hpp.
#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "roofline/regress/compare_gate.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/regress/signed_rank.hpp"
#include "roofline/common/statistics.hpp"

namespace roofline {

Gate gate_paired(const PairedRounds& rounds, const GateOptions& options, bool complete) {
  Gate g;
  struct Work {
    FigureRow row;
    double p_worse = 1.0, p_better = 1.0;
  };
  std::vector<Work> work;
  for (const KeyFigure& f : rounds.figures) {
    if (!options.only_figures.empty() &&
        std::find(options.only_figures.begin(), options.only_figures.end(), f.id) == options.only_figures.end()) {
      continue;
    }
    const auto b = rounds.base.find(f.id), n = rounds.next.find(f.id);
    if (b == rounds.base.end() || n == rounds.next.end() || b->second.size() != n->second.size() || b->second.empty()) {
      g.only_in_next.push_back(f.id);
      continue;
    }
    std::vector<double> log_ratio, ratio;
    for (std::size_t r = 0; r < b->second.size(); ++r) {
      if (!(b->second[r] > 0.0 && n->second[r] > 0.0)) continue;
      ratio.push_back(n->second[r] / b->second[r]);
      log_ratio.push_back(std::log(ratio.back()) * (f.higher_is_better ? 1.0 : -1.0));  // > 0: better
    }
    if (ratio.empty()) continue;
    Work w;
    w.row.figure = f;
    w.row.base = median(b->second);
    w.row.next = median(n->second);
    w.row.reference = w.row.base;
    w.row.change = median(ratio) - 1.0;
    w.row.adjusted_change = w.row.change;  // paired rounds are not weighed against a canary
    w.row.rounds = static_cast<int>(ratio.size());
    w.row.threshold = options.floor;
    const SignedRankResult sr = signed_rank_test(log_ratio);
    w.p_worse = sr.p_less;
    w.p_better = sr.p_greater;
    work.push_back(std::move(w));
  }
  if (work.empty()) throw InputError("the paired runs have no key figure measured in every round");

  // Holm: the i-th smallest p must be below alpha / (m - i), stopping at the first that is not.
  const std::size_t m = work.size();
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return work[a].p_worse < work[b].p_worse; });
  std::vector<bool> significant(m, false);
  double running = 0.0;  // Holm-adjusted p, monotone
  for (std::size_t i = 0; i < m; ++i) {
    Work& w = work[order[i]];
    running = std::max(running, std::min(1.0, static_cast<double>(m - i) * w.p_worse));
    w.row.p_value = running;
    significant[order[i]] = running < options.alpha;
  }
  int regressions = 0, unclear = 0;
  std::string reasons;
  for (std::size_t i = 0; i < m; ++i) {
    FigureRow& r = work[i].row;
    r.threshold_source = fmt::format("floor {:.1f}%, signed-rank over {} rounds, Holm over {} figures", options.floor * 100.0,
                                     r.rounds, m);
    // Worse beyond the floor but not yet significant: unclear (another round may tell).
    r.verdict = judge(r.figure.higher_is_better, r.change, options.floor,
                      Evidence{significant[i], static_cast<double>(m) * work[i].p_better < options.alpha});
    regressions += r.verdict == Verdict::regression ? 1 : 0;
    unclear += r.verdict == Verdict::unclear ? 1 : 0;
    r.why = fmt::format("median ratio {:+.1f}% over {} rounds, Holm p {:.2g} (alpha {:g}), floor {:.1f}%", r.change * 100.0,
                        r.rounds, *r.p_value, options.alpha, options.floor * 100.0);
    if (r.verdict == Verdict::regression || r.verdict == Verdict::unclear) {
      reasons += fmt::format("{}{} {}: {}", reasons.empty() ? "" : "; ", r.figure.id, to_string(r.verdict), r.why);
    }
    g.figures.push_back(r);
  }
  const auto disturbed = std::count_if(rounds.environments.begin(), rounds.environments.end(),
                                       [](const EnvironmentCheck& e) { return e.disturbed; });
  const std::string env = fmt::format("{} of {} runs disturbed", disturbed, rounds.environments.size());
  g.method_line = fmt::format("paired A/B: {} rounds in random order; {} key figures; one-sided signed-rank on the "
                              "rounds' ratios, Holm at alpha {:g}, floor {:.1f}%",
                              rounds.rounds, m, options.alpha, options.floor * 100.0);
  g.outcome = decide_outcome(g.figures, 2 * disturbed > static_cast<long>(rounds.environments.size()), complete);
  if (g.outcome == Outcome::regression) {
    g.verdict_line = fmt::format("verdict: REGRESSION: {} of {} key figures worse in the paired rounds: {}; {}", regressions,
                                 m, reasons, env);
  } else if (g.outcome == Outcome::inconclusive) {
    g.verdict_line = fmt::format("verdict: INCONCLUSIVE: {}{}; {}", unclear > 0 ? "not enough evidence after " : "",
                                 unclear > 0 ? fmt::format("{} rounds: {}", rounds.rounds, reasons) : "most runs disturbed", env);
  } else {
    g.verdict_line = fmt::format("verdict: clean: none of {} key figures worse than the {:.1f}% floor over {} rounds{}; {}", m,
                                 options.floor * 100.0, rounds.rounds, unclear > 0 ? " so far" : "", env);
  }
  return g;
}

bool paired_unclear(const Gate& gate) {
  return gate.outcome != Outcome::regression &&
         std::any_of(gate.figures.begin(), gate.figures.end(), [](const FigureRow& r) { return r.verdict == Verdict::unclear; });
}

}  // namespace roofline
