// History calibration: each key figure's run-to-run spread on one machine and configuration, and the A/A
// false-alarm rates the gate would have had. Uses the gate's own rule (compare_gate.hpp), so that the
// rates describe what `roofline compare` does. See history.hpp.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "history_format.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/history/history.hpp"
#include "roofline/model/key_figures.hpp"
#include "roofline/common/statistics.hpp"
#include "roofline/common/units.hpp"

namespace roofline {

Calibration calibrate_noise(const std::vector<HistoryRun>& all, const GateOptions& options) {
  Calibration c;
  c.options = options;
  const auto latest = std::find_if(all.rbegin(), all.rend(), [](const HistoryRun& r) { return !r.machine_id.empty(); });
  if (latest == all.rend()) throw InputError("the history has no run with machine facts (add runs with this version)");
  c.machine_id = latest->machine_id;
  c.configuration_id = latest->configuration_id;
  std::vector<const HistoryRun*> runs;
  for (const HistoryRun& r : all) {
    if (r.machine_id == c.machine_id && r.configuration_id == c.configuration_id) runs.push_back(&r);
  }
  c.runs = static_cast<int>(runs.size());
  std::vector<std::map<std::string, double>> values;
  std::map<std::string, CalibrationFigure> by_id;
  std::vector<std::string> order;
  for (const HistoryRun* r : runs) {
    values.emplace_back();
    for (const HistoryFigure& f : r->figures) {
      if (is_environment_figure(f.key)) continue;  // the environment, not a figure the gate judges
      values.back()[f.key] = f.value;
      if (!by_id.contains(f.key)) {
        order.push_back(f.key);
        CalibrationFigure figure;
        figure.id = f.key;
        figure.label = f.label;
        figure.unit = f.unit;
        by_id[f.key] = figure;
      }
    }
  }
  c.k = gate_k(options.alpha, order.size());
  auto sample = [&](const std::string& id, std::size_t skip) {
    std::vector<double> v;
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i == skip) continue;
      const auto it = values[i].find(id);
      if (it != values[i].end() && it->second > 0.0) v.push_back(it->second);
    }
    return v;
  };
  for (const std::string& id : order) {
    CalibrationFigure& f = by_id[id];
    const std::vector<double> v = sample(id, values.size());
    f.runs = static_cast<int>(v.size());
    if (v.empty()) continue;
    f.median = median(v);
    f.mad = mad(v);
    f.relative_spread = robust_sigma(v) / f.median;
    f.min = *std::min_element(v.begin(), v.end());
    f.max = *std::max_element(v.begin(), v.end());
    std::tie(f.threshold, f.threshold_source) = history_threshold(f.relative_spread, c.k, options);
  }
  // A/A, no history: each run against the one before it, on the no-history floor.
  for (std::size_t i = 1; i < values.size(); ++i) {
    bool flagged = false;
    for (const auto& [id, next] : values[i]) {
      const auto prev = values[i - 1].find(id);
      if (prev == values[i - 1].end() || prev->second <= 0.0) continue;
      if (judge(true, next / prev->second - 1.0, options.floor_no_history) == Verdict::regression) {
        ++by_id[id].pairs_flagged;
        flagged = true;
      }
    }
    ++c.pairs;
    c.pairs_flagged += flagged ? 1 : 0;
  }
  // A/A, history: each run against all the others (leave-one-out).
  for (std::size_t i = 0; i < values.size(); ++i) {
    bool flagged = false, judged = false;
    for (const auto& [id, value] : values[i]) {
      const std::vector<double> others = sample(id, i);
      if (static_cast<int>(others.size()) < kMinHistoryRuns) continue;
      judged = true;
      const double m = median(others);
      const double threshold = history_threshold(robust_sigma(others) / m, c.k, options).first;
      if (judge(true, value / m - 1.0, threshold) == Verdict::regression) {
        ++by_id[id].runs_flagged;
        flagged = true;
      }
    }
    c.loo_runs += judged ? 1 : 0;
    c.loo_flagged += flagged ? 1 : 0;
  }
  for (const std::string& id : order) c.figures.push_back(by_id[id]);
  return c;
}

std::string render_calibration_text(const Calibration& c) {
  std::string out = fmt::format("machine: {}\nconfiguration: {}\nruns: {} (key figures are rates: higher is better)\n\n",
                                c.machine_id, c.configuration_id, c.runs);
  std::vector<std::vector<std::string>> rows{
      {"key figure", "runs", "median", "min", "max", "MAD", "spread", "threshold", "A/A pairs", "A/A loo"}};
  for (const CalibrationFigure& f : c.figures) {
    rows.push_back({f.id, std::to_string(f.runs), format_si(f.median, f.unit), format_si(f.min, f.unit),
                    format_si(f.max, f.unit), format_si(f.mad, f.unit), fmt::format("{:.1f}%", f.relative_spread * 100.0),
                    fmt::format("{:.1f}%", f.threshold * 100.0), std::to_string(f.pairs_flagged), std::to_string(f.runs_flagged)});
  }
  out += history_format::aligned_table(rows);
  out += fmt::format(
      "\nspread: 1.4826 x MAD / median; threshold: max(floor {:.0f}%, k x spread), k = {:.2f} for {} figures at family-wise "
      "alpha {:g}\n",
      c.options.floor * 100.0, c.k, c.figures.size(), c.options.alpha);
  out += fmt::format("A/A false alarms without history (each run vs the one before, floor {:.0f}%): {} of {} pairs\n",
                     c.options.floor_no_history * 100.0, c.pairs_flagged, c.pairs);
  out += fmt::format("A/A false alarms with history (each run vs the others, leave-one-out): {} of {} runs\n", c.loo_flagged,
                     c.loo_runs);
  return out;
}

}  // namespace roofline
