// The stored-baseline gate weighs each figure against a canary our code cannot move (issue 59; compare_gate.hpp):
// glibc's memcpy in L2 for the core-bound figures, over DRAM for the shared-memory ones. A figure's change with its
// canary's move divided out is what is judged; only an erratic canary leaves its class unjudged, and never a figure
// that moved far beyond anything the canary did.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "gate_rows.hpp"
#include "roofline/common/units.hpp"
#include "roofline/model/key_figures.hpp"

namespace roofline::regress_detail {
namespace {

std::string percent(double fraction) { return fmt::format("{:.1f}%", fraction * 100.0); }

// A libc canary's move from the reference (the base run, or the history's median) to the new run (issue 59).
struct CanaryMove {
  std::string name;      // "libc core canary (memcpy, L2)"
  double ratio = 1.0;    // new / reference
  double drift = 0.0;    // the largest drift within a run that counts
  bool erratic = false;  // beyond its drift limit within a run, or beyond max_canary_shift between the runs
  std::string text;      // "libc core canary (memcpy, L2) 334 GB/s -> 333 GB/s (-0.3%)", and why erratic
};

CanaryMove canary_move(std::string name, double reference, double next, double drift, double drift_limit,
                       const GateOptions& options, const std::string& from) {
  CanaryMove m;
  m.name = std::move(name);
  m.ratio = reference > 0.0 && next > 0.0 ? next / reference : 1.0;
  m.drift = drift;
  const double shift = m.ratio - 1.0;
  const bool drifted = drift > drift_limit, shifted = std::fabs(shift) > options.max_canary_shift;
  m.erratic = drifted || shifted;
  m.text = fmt::format("{} {} -> {} ({:+.1f}%{}{}){}", m.name, format_si(reference, "B/s"), format_si(next, "B/s"),
                       shift * 100.0, shifted ? fmt::format(" > {}", percent(options.max_canary_shift)) : "", from,
                       drifted ? fmt::format(", drift {} within a run > {}", percent(drift), percent(drift_limit)) : "");
  return m;
}

// The libc canary that speaks for a figure (core-bound: the core canary; shared-memory: the DRAM canary; none for
// the rest: the clock, and another target's figures, whose memory is the device's, not the host's DRAM), and the
// row's change with what the canary's move explains divided out: a rate follows its canary's ratio, a time (lower is
// better) its inverse. A canary explains a move in its own direction up to the figure's own, never more and never the
// other way: a canary moving alone is no change of the figure's. On the development 2-vCPU guest the memcpy canary in
// L2 moved 11% between two A/A runs whose compute figures moved 0.1%: divided out both ways, that was a -10% "fp32
// regression". A share of a roof of the moment (a fraction) is no rate: its own roof already divided the memory out,
// so it keeps its change (the canary's erratic still counts).
const CanaryMove* weigh(FigureRow& r, const CanaryMove& core, const CanaryMove& dram) {
  const CanaryMove* m = r.figure.threads <= 0 ? nullptr : core_bound(r.figure) ? &core : r.figure.shared_memory ? &dram : nullptr;
  r.adjusted_change = r.change;
  if (m == nullptr || r.figure.unit == kFractionUnit || !(r.reference > 0.0) || !(r.next > 0.0)) return m;
  r.canary = m->name;
  r.canary_change = m->ratio - 1.0;
  const double figure = std::log(r.next / r.reference);
  const double canary = r.figure.higher_is_better ? std::log(m->ratio) : -std::log(m->ratio);
  const double explained = figure * canary > 0.0 ? std::copysign(std::min(std::fabs(figure), std::fabs(canary)), figure) : 0.0;
  r.adjusted_change = std::exp(figure - explained) - 1.0;
  const std::size_t at = r.why.find(", threshold ");
  r.why.insert(at == std::string::npos ? r.why.size() : at,
               fmt::format(", {:+.1f}% after the {}'s {:+.1f}%", r.adjusted_change * 100.0, m->name, r.canary_change * 100.0));
  return m;
}

// Far beyond anything its canary did: |log of the figure's ratio| beyond the canary's largest |log move| (between
// the runs, or within one) by more than the threshold, and beyond the threshold after adjustment. Judged even when
// the canary is erratic: no move of the machine it saw explains the figure's.
bool far_beyond_canary(const FigureRow& r, const CanaryMove& m) {
  if (!(r.reference > 0.0) || !(r.next > 0.0)) return false;
  const double span = std::max(std::fabs(std::log(m.ratio)), std::log1p(m.drift));
  return std::fabs(std::log(r.next / r.reference)) > span + std::log1p(r.threshold) &&
         judge(r.figure.higher_is_better, r.adjusted_change, r.threshold) == Verdict::regression;
}

// The weighed gate's trust (issue 59): the CPU, a warned level and the roofs of the moment as below; the canaries
// no longer distrust a class but weigh each figure, and only an erratic canary leaves its figures unjudged.
void apply_weighed_environment(Gate& g, double canary_limit, const CanaryMove& core, const CanaryMove& dram) {
  const bool cpu = cpu_disturbed(g);
  for (FigureRow& r : g.figures) {
    const CanaryMove* m = weigh(r, core, dram);
    const bool erratic = m != nullptr && m->erratic && !far_beyond_canary(r, *m);
    const bool warned = !r.figure.warning.empty();
    const std::string moment = moment_moved(r, canary_limit);
    r.moment_moved = !moment.empty();
    r.trusted = !cpu && !erratic && !warned && !r.moment_moved;
    const bool hib = r.figure.higher_is_better;
    r.verdict = judge(hib, r.adjusted_change, r.threshold, Evidence{r.trusted, true});
    // An erratic canary: a figure worse beyond its threshold before adjustment is not cleared by it either.
    if (erratic && judge(hib, r.change, r.threshold) == Verdict::regression) r.verdict = Verdict::unclear;
    if (r.verdict == Verdict::unclear) {
      r.why += cpu        ? "; not trusted: CPU disturbed"
               : erratic  ? fmt::format("; not trusted: its canary is erratic ({})", m->text)
               : !moment.empty() ? "; not trusted: " + moment
                                 : "; not trusted: its level is warned " + r.figure.warning;
    }
  }
}

}  // namespace

// Issue 59: both sides have the libc canaries. Each figure judged on its change with its class's canary move
// divided out (apply_weighed_environment); the canaries' references: the base run's levels, or the history's medians.
void judge_weighed(Gate& g, const FigurePairs& pairs, const NoiseModel* noise, double k, const GateOptions& options,
                   double core_reference, double dram_reference) {
  // Within-run drifts that count: the new run's, and the base's unless a history is the reference.
  const EnvironmentCheck &b = g.base_environment, &n = g.next_environment;
  const bool h = g.history_used;
  const std::string from = h ? ", from the history's median" : "";
  const CanaryMove core = canary_move("libc core canary (memcpy, L2)", core_reference, n.core_canary,
                                      std::max(n.core_canary_drift, h ? 0.0 : b.core_canary_drift),
                                      options.max_core_canary_drift, options, from);
  const CanaryMove dram = canary_move("libc DRAM canary (memcpy)", dram_reference, n.canary,
                                      std::max(n.canary_drift, h ? 0.0 : b.canary_drift), options.max_canary_drift, options, from);
  g.canaries = fmt::format("{}; {}", core.text, dram.text);
  g.core_shift = std::fabs(core.ratio - 1.0);
  g.canary_shift = std::fabs(dram.ratio - 1.0);
  g.core_disturbed = core.erratic;
  g.memory_disturbed = dram.erratic;
  if (core.erratic) g.core_why = core.text;
  if (dram.erratic) g.memory_why = dram.text;
  for (const auto& [base_figure, next_figure] : pairs) {
    FigureRow row = judge_figure(*base_figure, *next_figure, noise, h, k, pairs.size(), options);
    if (!h) row.base_roof_now = base_figure->roof_now;
    g.figures.push_back(std::move(row));
  }
  apply_weighed_environment(g, options.max_canary_drift, core, dram);
}

}  // namespace roofline::regress_detail
