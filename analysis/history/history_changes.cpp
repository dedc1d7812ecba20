// Change points in the history (`roofline history changes`): each key figure's series over the runs of one machine
// and configuration (the latest run's, as calibrate and the gate's noise model match runs), handed to the E-divisive
// detector (change_points.hpp), each change mapped back to the runs either side; as an aligned table and as JSON.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "history_format.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/common/units.hpp"
#include "roofline/history/history.hpp"
#include "roofline/model/key_figures.hpp"

namespace roofline {
namespace {

using history_format::short_date;
using history_format::short_revision;

// One figure's series: its values and the run each came from.
struct FigureSeries {
  std::string label, unit;
  std::vector<double> values;
  std::vector<const HistoryRun*> runs;
};

std::string run_text(const HistoryRun* r) {
  return r == nullptr ? "-" : fmt::format("#{} {} {}", r->id, short_revision(r->git_revision), short_date(r->date));
}

nlohmann::json run_json(const HistoryRun* r) {
  if (r == nullptr) return nullptr;
  return {{"run", r->id}, {"git_revision", r->git_revision}, {"date", r->date}};
}

std::string percent(double fraction) { return fmt::format("{:+.1f}%", fraction * 100.0); }

}  // namespace

HistoryChanges history_changes(const std::vector<HistoryRun>& all, const std::vector<std::string>& figures,
                               const ChangePointOptions& options) {
  HistoryChanges out;
  out.options = options;
  const auto latest = std::find_if(all.rbegin(), all.rend(), [](const HistoryRun& r) { return !r.machine_id.empty(); });
  if (latest == all.rend()) throw InputError("the history has no run with machine facts (add runs with this version)");
  out.machine_id = latest->machine_id;
  out.configuration_id = latest->configuration_id;
  std::map<std::string, FigureSeries> by_id;
  std::vector<std::string> order;
  for (const HistoryRun& r : all) {
    if (r.machine_id != out.machine_id || r.configuration_id != out.configuration_id) continue;
    ++out.runs;
    for (const HistoryFigure& f : r.figures) {
      if (!(f.value > 0.0)) continue;  // not measured: no point in the series
      if (!by_id.contains(f.key)) order.push_back(f.key);
      FigureSeries& s = by_id[f.key];
      s.label = f.label;  // the latest run's words
      s.unit = f.unit;
      s.values.push_back(f.value);
      s.runs.push_back(&r);
    }
  }
  std::vector<std::string> selected;
  if (figures.empty()) {
    for (const std::string& id : order) {
      if (id != kCanaryFigureId) selected.push_back(id);
    }
  } else {
    std::set<std::string> seen;
    for (const std::string& id : figures) {
      if (!by_id.contains(id)) {
        throw InputError(fmt::format("--figure: no key figure '{}' in the runs of this machine and configuration (they have: {})",
                                     id, fmt::join(order, ", ")));
      }
      if (seen.insert(id).second) selected.push_back(id);
    }
  }
  out.figures = selected.size();
  for (const std::string& id : selected) {
    const FigureSeries& s = by_id[id];
    for (const ChangePoint& c : find_change_points(s.values, options)) {
      HistoryChange h;
      h.figure = id;
      h.label = s.label;
      h.unit = s.unit;
      h.index = c.index;
      h.series = s.values.size();
      h.size = c.size;
      h.p_value = c.p_value;
      h.median_before = c.median_before;
      h.median_after = c.median_after;
      h.before = s.runs[c.index - 1];
      h.after = s.runs[c.index];
      out.changes.push_back(h);
    }
  }
  return out;
}

std::string render_changes_text(const HistoryChanges& c) {
  const ChangePointOptions& o = c.options;
  std::string out = fmt::format("machine: {}\nconfiguration: {}\nruns: {}, key figures: {}\n", c.machine_id,
                                c.configuration_id, c.runs, c.figures);
  out += fmt::format(
      "method: E-divisive means on log values (energy statistic, alpha 1), at least {} runs a side, {} permutations "
      "(seed {}), significant at p <= {:g}, changes of at least {:g}%\n\n",
      o.min_segment, o.permutations, o.seed, o.alpha, o.min_change * 100.0);
  if (c.changes.empty()) {
    out += fmt::format("no change points in {} key figure(s) over {} run(s)\n", c.figures, c.runs);
    return out;
  }
  std::vector<std::vector<std::string>> rows{
      {"key figure", "label", "last run before", "first run after", "index", "change", "p", "median before", "median after"}};
  for (const HistoryChange& h : c.changes) {
    rows.push_back({h.figure, h.label, run_text(h.before), run_text(h.after), fmt::format("{}/{}", h.index, h.series),
                    percent(h.size), fmt::format("{:.3f}", h.p_value), format_si(h.median_before, h.unit),
                    format_si(h.median_after, h.unit)});
  }
  out += history_format::aligned_table(rows, 4);
  std::set<std::string> moved;
  for (const HistoryChange& h : c.changes) moved.insert(h.figure);
  out += fmt::format(
      "\n{} change point(s) in {} of {} key figure(s); index: the first run after the change in the figure's series "
      "(0-based, of its runs); change: median after / median before - 1 over the segments either side\n",
      c.changes.size(), moved.size(), c.figures);
  return out;
}

nlohmann::json changes_to_json(const HistoryChanges& c) {
  nlohmann::json changes = nlohmann::json::array();
  for (const HistoryChange& h : c.changes) {
    changes.push_back({{"figure", h.figure},
                       {"label", h.label},
                       {"unit", h.unit},
                       {"index", h.index},
                       {"series_runs", h.series},
                       {"size", h.size},
                       {"p_value", h.p_value},
                       {"median_before", h.median_before},
                       {"median_after", h.median_after},
                       {"before", run_json(h.before)},
                       {"after", run_json(h.after)}});
  }
  const ChangePointOptions& o = c.options;
  return {{"machine_id", c.machine_id},
          {"configuration_id", c.configuration_id},
          {"runs", c.runs},
          {"figures", c.figures},
          {"method", "e-divisive means"},
          {"options",
           {{"alpha", o.alpha},
            {"permutations", o.permutations},
            {"min_segment", o.min_segment},
            {"min_change", o.min_change},
            {"seed", o.seed}}},
          {"changes", changes}};
}

}  // namespace roofline
