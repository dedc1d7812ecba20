// The stored-baseline gate's thread checks (issue 59): a figure at more than one thread that one run measured while the
// host slowed a vCPU, slowed both alike, or placed the threads otherwise than in the other run is not trusted (a
// regression in it reads unclear, with the reason). The same three signs as paired rounds' (compare_paired.cpp),
// between two runs instead of over rounds: one pair cannot tell the host from a change that acts at several threads
// only, so such a figure is left to paired rounds, which can.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "gate_rows.hpp"
#include "roofline/model/key_figures.hpp"
#include "roofline/regress/compare_levels.hpp"
#include "roofline/regress/judge.hpp"

namespace roofline::regress_detail {
namespace {

const KeyFigure* find_figure(const std::vector<KeyFigure>& figures, const std::string& id) {
  const auto it = std::find_if(figures.begin(), figures.end(), [&](const KeyFigure& f) { return f.id == id; });
  return it == figures.end() ? nullptr : &*it;
}

// Why the row's figure is not to be judged from this pair, "" when it is.
std::string thread_disturbance(const FigureRow& r, const ResultsDocument& base, const std::vector<KeyFigure>& base_figures,
                               const ResultsDocument& next, const std::map<std::string, double>& base_scaling,
                               const std::map<std::string, double>& next_scaling, bool history_used,
                               const GateOptions& options) {
  const KeyFigure& f = r.figure;
  if (f.threads < 2) return "";
  const KeyFigure* b = find_figure(base_figures, f.id);
  if (core_bound(f)) {
    // The new run's threads apart, or the base's (unless a history is the reference).
    const std::optional<double> ns = figure_thread_spread(next, f, next);
    const std::optional<double> bs = history_used || b == nullptr ? std::nullopt : figure_thread_spread(base, *b, base);
    const double spread = std::max(ns.value_or(0.0), bs.value_or(0.0));
    if (spread > options.max_thread_spread) {
      return fmt::format("a run's threads' own rates {:.0f}% apart (the host slowed one vCPU; limit {:.0f}%)", spread * 100.0,
                         options.max_thread_spread * 100.0);
    }
    const auto bk = base_scaling.find(f.id), nk = next_scaling.find(f.id);
    if (!history_used && bk != base_scaling.end() && nk != next_scaling.end()) {
      const double lo = std::min(bk->second, nk->second), hi = std::max(bk->second, nk->second);
      if (lo < (1.0 - options.max_scaling_drop) * hi) {
        return fmt::format("{} threads scaled {:.2f} of {} x one thread in the base run and {:.2f} in the new (more than "
                           "{:.0f}% apart: the host slowed both vCPUs alike in one run, or a change acts at several "
                           "threads only; paired rounds tell them apart)",
                           f.threads, bk->second, f.threads, nk->second, options.max_scaling_drop * 100.0);
      }
    }
  }
  if ((!core_bound(f) || f.group == "gemm") && !history_used && b != nullptr) {
    const std::optional<double> bp = figure_thread_round_trip(base, *b, base), np = figure_thread_round_trip(next, f, next);
    if (bp && np && *bp > 0.0 && *np > 0.0 &&
        std::max(*bp, *np) > (1.0 + options.max_placement_shift) * std::min(*bp, *np)) {
      return fmt::format("the host placed the threads otherwise (round trip {:.0f} ns in the base run, {:.0f} ns in the "
                         "new: more than {:.0f}% apart)",
                         *bp, *np, options.max_placement_shift * 100.0);
    }
  }
  return "";
}

}  // namespace

void distrust_thread_disturbances(Gate& g, const ResultsDocument& base, const std::vector<KeyFigure>& base_figures,
                                  const ResultsDocument& next, const std::vector<KeyFigure>& next_figures,
                                  const GateOptions& options) {
  const std::map<std::string, double> base_scaling = thread_scalings(base_figures), next_scaling = thread_scalings(next_figures);
  for (FigureRow& r : g.figures) {
    const std::string why =
        thread_disturbance(r, base, base_figures, next, base_scaling, next_scaling, g.history_used, options);
    if (why.empty()) continue;
    r.trusted = false;
    const Verdict v = judge(r.figure.higher_is_better, r.adjusted_change, r.threshold, Evidence{false, true});
    if (v == Verdict::unclear && r.verdict != Verdict::unclear) {
      r.verdict = v;
      r.threads_disturbed = true;
      r.why += "; not trusted: " + why;
    }
  }
}

}  // namespace roofline::regress_detail
