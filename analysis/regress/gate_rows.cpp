// The rows both ways of judging share (gate_rows.hpp): a figure's row against its reference, the CPU's word on a
// pair of runs, and what a figure's roofs of the moment say. See compare_gate.hpp.
#include "gate_rows.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include <fmt/format.h>

#include "roofline/common/units.hpp"

namespace roofline::regress_detail {
namespace {
std::string percent(double fraction) { return fmt::format("{:.1f}%", fraction * 100.0); }
}  // namespace

// One figure's row: its reference (history median or base), threshold and verdict before the environment.
FigureRow judge_figure(const KeyFigure& b, const KeyFigure& n, const NoiseModel* noise, bool history_used, double k,
                       std::size_t m, const GateOptions& options) {
  FigureRow row;
  row.figure = n;
  // Either run's word: the level a working set was placed in can move by a size between runs.
  row.figure.shared_memory = b.shared_memory || n.shared_memory;
  // Either run's warning (a level not one level at both thread counts, a sweep that ended before DRAM).
  if (row.figure.warning.empty()) row.figure.warning = b.warning;
  row.base = b.value;
  row.next = n.value;
  const FigureNoise* fn = nullptr;
  if (history_used) {
    const auto it = noise->figures.find(n.id);
    if (it != noise->figures.end() && static_cast<int>(it->second.values.size()) >= kMinHistoryRuns) fn = &it->second;
  }
  std::string from = "base";
  if (fn != nullptr) {
    row.reference = fn->median;
    from = fmt::format("history median of {} runs", fn->values.size());
    std::tie(row.threshold, row.threshold_source) = history_threshold(fn->relative_spread, k, options);
    if (fn->relative_spread > 0.0) {
      double z = (row.next / row.reference - 1.0) / fn->relative_spread;
      if (n.higher_is_better) z = -z;  // z > 0: worse
      row.p_value = std::min(1.0, static_cast<double>(m) * 0.5 * std::erfc(z / std::sqrt(2.0)));
    }
  } else {
    row.reference = row.base;
    row.threshold = options.floor_no_history;
    row.threshold_source = fmt::format("floor {} (no history: low confidence)", percent(options.floor_no_history));
  }
  row.change = row.reference != 0.0 ? row.next / row.reference - 1.0 : 0.0;
  row.verdict = judge(n.higher_is_better, row.change, row.threshold);
  row.why = fmt::format("{:+.1f}% vs {}, threshold {} ({}){}", row.change * 100.0, from, percent(row.threshold),
                        row.threshold_source, row.p_value ? fmt::format(", p {:.2g} (x{} figures)", *row.p_value, m) : "");
  return row;
}

// Whether the CPU was disturbed in a run that counts: the new one, and the base unless a history is the
// reference.
bool cpu_disturbed(const Gate& g) {
  return g.next_environment.cpu_disturbed || (!g.history_used && g.base_environment.cpu_disturbed);
}

// The memory under a point moved between the runs: its roofs of the moment (the read probes around it) differ by
// more than `limit` ("" when they agree or either run has none). A rate moves with its memory either way. A share
// of the roof of the moment (unit fraction) falls when its roof rises and the point is held below it by something
// else (a 1-thread GEMV stuck at 34 GB/s is 99% of a 31 GB/s roof, 83% of a 41 GB/s one); a roof that fell does
// not explain a share that fell, so that case stays judged.
std::string moment_moved(const FigureRow& r, double limit) {
  if (!(r.base_roof_now > 0.0) || !(r.figure.roof_now > 0.0)) return "";
  const double shift = r.figure.roof_now / r.base_roof_now - 1.0;
  const bool share = r.figure.unit == kFractionUnit;
  if (share ? shift <= limit : std::fabs(shift) <= limit) return "";
  return fmt::format("the memory under it moved between the runs (roof now {} -> {}, {:+.1f}% > {})",
                     format_si(r.base_roof_now, "B/s"), format_si(r.figure.roof_now, "B/s"), shift * 100.0, percent(limit));
}

}  // namespace roofline::regress_detail
