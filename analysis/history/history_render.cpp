// Rendering the history of runs: a terminal table of key figures per run, and a trend chart (SVG, or an
// HTML page holding the chart and the table). Every string from the database is escaped. See history.hpp.
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "history_format.hpp"
#include "roofline/history/history.hpp"
#include "roofline/report/html_escape.hpp"
#include "roofline/common/units.hpp"

namespace roofline {
namespace {

using history_format::short_date;
using history_format::short_revision;

// Figure keys in first-seen order with their label and unit.
struct Series {
  std::string key, label, unit;
};
std::vector<Series> all_series(const std::vector<HistoryRun>& runs) {
  std::vector<Series> out;
  for (const HistoryRun& r : runs) {
    for (const HistoryFigure& f : r.figures) {
      if (std::none_of(out.begin(), out.end(), [&](const Series& s) { return s.key == f.key; })) {
        out.push_back({f.key, f.label, f.unit});
      }
    }
  }
  return out;
}

const HistoryFigure* find_figure(const HistoryRun& r, const std::string& key) {
  for (const HistoryFigure& f : r.figures) {
    if (f.key == key) return &f;
  }
  return nullptr;
}

// One small panel per key figure, each on its own scale from zero: DRAM at 20 GB/s and L1 at 400 GB/s
// on one axis would flatten the trend that matters, and the zero keeps a change's size honest.
constexpr double kPanelWidth = 300, kPanelHeight = 175, kPlotLeft = 70, kPlotTop = 38, kPlotWidth = 215,
                 kPlotHeight = 105;
constexpr int kColumns = 3;

// A change point of the panel's figure: a dashed line at the first run after it, its size and runs in its tooltip.
std::string change_marker(const HistoryChange& c, double x, double top, double bottom) {
  const std::string title = fmt::format(
      "change {:+.1f}% (p {:.3f}): median {} before, {} from run #{} {} {} on (last before: run #{} {})", c.size * 100.0,
      c.p_value, format_si(c.median_before, c.unit), format_si(c.median_after, c.unit), c.after->id,
      short_revision(c.after->git_revision), short_date(c.after->date), c.before->id, short_revision(c.before->git_revision));
  return fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#d62728\" stroke-width=\"1.5\" "
                     "stroke-dasharray=\"4 3\" class=\"change-point\"><title>{3}</title></line>\n",
                     x, top, bottom, html_escape(title));
}

std::string svg_panel(const std::vector<HistoryRun>& runs, const Series& s, const std::vector<HistoryChange>& changes,
                      double x0, double y0) {
  double max_value = 0.0;
  for (const HistoryRun& r : runs) {
    if (const HistoryFigure* f = find_figure(r, s.key)) max_value = std::max(max_value, f->value);
  }
  if (!(max_value > 0.0)) max_value = 1.0;
  const double left = x0 + kPlotLeft, top = y0 + kPlotTop, bottom = top + kPlotHeight;
  auto x_of = [&](std::size_t i) {
    return runs.size() == 1 ? left + kPlotWidth / 2
                            : left + kPlotWidth * static_cast<double>(i) / static_cast<double>(runs.size() - 1);
  };
  auto y_of = [&](double v) { return bottom - kPlotHeight * v / (max_value * 1.15); };

  const HistoryFigure* latest = nullptr;
  for (const HistoryRun& r : runs) {
    if (const HistoryFigure* f = find_figure(r, s.key)) latest = f;
  }
  std::string out = fmt::format("<g><text x=\"{}\" y=\"{}\" font-weight=\"bold\">{}</text>"
                                "<text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"#555\">latest {}</text>\n",
                                x0 + 10, y0 + 16, html_escape(s.label), x0 + 10, y0 + 29,
                                latest != nullptr ? html_escape(format_si(latest->value, latest->unit)) : "-");
  out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#bbb\"/>\n", left, top,
                     kPlotWidth, kPlotHeight);
  for (int t = 0; t <= 2; ++t) {
    const double v = max_value * 1.15 * t / 2.0;
    out += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\" font-size=\"9\">{}</text>\n", left - 4,
                       y_of(v) + 3, html_escape(format_si(v, s.unit)));
  }
  std::string points;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const HistoryFigure* f = find_figure(runs[i], s.key);
    if (f == nullptr) continue;
    points += fmt::format("{:.1f},{:.1f} ", x_of(i), y_of(f->value));
    out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\" fill=\"#1f77b4\"><title>run #{} {} {}: {}</title></circle>\n",
                       x_of(i), y_of(f->value), runs[i].id, html_escape(short_revision(runs[i].git_revision)),
                       html_escape(short_date(runs[i].date)), html_escape(format_si(f->value, f->unit)));
  }
  out += fmt::format("<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"{}\"/>\n", points);
  for (const HistoryChange& c : changes) {
    if (c.figure != s.key || c.after == nullptr || c.before == nullptr) continue;
    const auto at = std::find_if(runs.begin(), runs.end(), [&](const HistoryRun& r) { return r.id == c.after->id; });
    if (at != runs.end()) out += change_marker(c, x_of(static_cast<std::size_t>(at - runs.begin())), top, bottom);
  }
  // Commits under the first and last run; every run's commit is in the point's tooltip and the table.
  out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" font-size=\"9\" text-anchor=\"start\">{}</text>", left, bottom + 12,
                     html_escape(short_revision(runs.front().git_revision)));
  if (runs.size() > 1) {
    out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" font-size=\"9\" text-anchor=\"end\">{}</text>", left + kPlotWidth,
                       bottom + 12, html_escape(short_revision(runs.back().git_revision)));
  }
  out += "</g>\n";
  return out;
}

}  // namespace

std::string render_history_text(const std::vector<HistoryRun>& all_runs, std::size_t last) {
  if (all_runs.empty()) return "history: no runs recorded yet\n";
  const std::size_t first = all_runs.size() > last ? all_runs.size() - last : 0;
  const std::vector<HistoryRun> runs(all_runs.begin() + static_cast<long>(first), all_runs.end());
  const std::vector<Series> series = all_series(runs);

  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> head{"run"}, rev{"commit"}, date{"date"};
  for (const HistoryRun& r : runs) {
    head.push_back(fmt::format("#{}", r.id));
    rev.push_back(short_revision(r.git_revision));
    date.push_back(short_date(r.date));
  }
  rows.push_back(head);
  rows.push_back(rev);
  rows.push_back(date);
  for (const Series& s : series) {
    std::vector<std::string> row{s.label};
    for (const HistoryRun& r : runs) {
      const HistoryFigure* f = find_figure(r, s.key);
      row.push_back(f != nullptr ? format_si(f->value, f->unit) : "-");
    }
    rows.push_back(row);
  }
  std::vector<std::size_t> width(rows[0].size());
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  std::string out = fmt::format("history: {} run(s){}\n", all_runs.size(),
                                first > 0 ? fmt::format(", the last {} shown", runs.size()) : "");
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line = fmt::format("{:<{}}", rows[r][0], width[0]);
    for (std::size_t i = 1; i < rows[r].size(); ++i) line += fmt::format("  {:>{}}", rows[r][i], width[i]);
    out += line + "\n";
    if (r == 2) out += std::string(line.size(), '-') + "\n";
  }
  return out;
}

std::string render_history_svg(const std::vector<HistoryRun>& runs, const std::vector<HistoryChange>& changes) {
  const std::vector<Series> series = all_series(runs);
  const std::size_t rows = (series.size() + kColumns - 1) / kColumns;
  const double width = kPanelWidth * kColumns + 20;
  const double height = 45 + kPanelHeight * static_cast<double>(std::max<std::size_t>(rows, 1));
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"10\" y=\"24\" font-size=\"15\" font-weight=\"bold\">roofline key figures across {2} run(s), oldest "
      "left</text>\n",
      width, height, runs.size());
  if (series.empty() || runs.empty()) out += "<text x=\"10\" y=\"60\">no key figures recorded</text>\n";
  for (std::size_t i = 0; i < series.size() && !runs.empty(); ++i) {
    out += svg_panel(runs, series[i], changes, 10 + kPanelWidth * static_cast<double>(i % kColumns),
                     40 + kPanelHeight * static_cast<double>(i / kColumns));
  }
  out += "</svg>\n";
  return out;
}

std::string render_history_html(const std::vector<HistoryRun>& runs, const std::vector<HistoryChange>& changes) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>roofline history</title>\n"
      "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
      "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}th:first-child,td:first-child{text-align:left}"
      "</style></head><body>\n<h1>roofline history</h1>\n";
  out += render_history_svg(runs, changes);
  if (!changes.empty()) {
    out += "<h2>Change points</h2>\n<table><tr><th>key figure</th><th>last run before</th><th>first run after</th>"
           "<th>change</th><th>p</th><th>median before</th><th>median after</th></tr>\n";
    for (const HistoryChange& c : changes) {
      if (c.after == nullptr || c.before == nullptr) continue;
      out += fmt::format("<tr><td>{}</td><td>#{} {}</td><td>#{} {}</td><td>{:+.1f}%</td><td>{:.3f}</td><td>{}</td><td>{}</td></tr>\n",
                         html_escape(c.label), c.before->id, html_escape(short_revision(c.before->git_revision)),
                         c.after->id, html_escape(short_revision(c.after->git_revision)), c.size * 100.0, c.p_value,
                         html_escape(format_si(c.median_before, c.unit)), html_escape(format_si(c.median_after, c.unit)));
    }
    out += "</table>\n";
  }
  const std::vector<Series> series = all_series(runs);
  out += "<h2>Runs</h2>\n<table><tr><th>run</th><th>commit</th><th>date</th><th>host</th><th>CPU</th><th>profile</th>";
  for (const Series& s : series) out += "<th>" + html_escape(s.label) + "</th>";
  out += "</tr>\n";
  for (const HistoryRun& r : runs) {
    out += fmt::format("<tr><td>#{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>", r.id,
                       html_escape(r.git_revision), html_escape(short_date(r.date)), html_escape(r.host),
                       html_escape(r.cpu_model), html_escape(r.profile));
    for (const Series& s : series) {
      const HistoryFigure* f = find_figure(r, s.key);
      out += "<td>" +
             (f != nullptr ? html_escape(format_si(f->value, f->unit)) +
                                 (f->detail.empty() ? "" : " <small>(" + html_escape(f->detail) + ")</small>")
                           : std::string("-")) +
             "</td>";
    }
    out += "</tr>\n";
  }
  out += "</table>\n</body></html>\n";
  return out;
}

}  // namespace roofline
