// The fleet report as one self-contained HTML page (inline CSS and SVG, no scripts, no network): the
// diagnoses, the groups, the table of nodes x key figures (percent of the group median, flagged cells
// marked), a bar chart per key figure with the nodes sorted, and each node's key tables one click away.
// Every string from input is escaped. See fleet.hpp.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/fleet/fleet.hpp"
#include "roofline/report/html_escape.hpp"
#include "roofline/report/report_tables.hpp"
#include "roofline/report/svg_chart.hpp"
#include "roofline/common/units.hpp"

namespace roofline {
namespace {

constexpr const char* kFleetStyle = R"(
td.flag { background: #f8d0cc; font-weight: bold; } td.na { color: #999; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; } details { margin: 6px 0; } summary { cursor: pointer; }
li.flagged { color: #a4161a; } li.failed { color: #7a4b00; }
)";

// An id safe in an HTML attribute and a URL fragment: letters, digits and '-' only.
std::string anchor(const std::string& prefix, std::size_t index) { return fmt::format("{}-{}", prefix, index + 1); }

std::string full_table(const FleetAnalysis& fleet, std::size_t gi) {
  const FleetGroup& g = fleet.groups[gi];
  std::string s = fmt::format("<table id=\"{}\"><caption>Group {}: percent of the group median</caption>\n<thead><tr><th>node</th>",
                              anchor("fleet-table", gi), gi + 1);
  for (const FleetFigure& f : g.figures) {
    s += fmt::format("<th title=\"{}\">{}</th>", html_escape(f.figure.id), html_escape(f.figure.label));
  }
  s += "</tr></thead>\n<tbody>\n";
  for (std::size_t n : g.nodes) {
    const FleetNodeResult& r = fleet.results[n];
    s += fmt::format("<tr><td><a href=\"#{}\">{}</a></td>", anchor("node", n), html_escape(fleet.label(n)));
    for (const FleetFigure& f : g.figures) {
      const auto it = r.cells.find(f.figure.id);
      if (it == r.cells.end()) {
        s += "<td class=\"num na\">n/a</td>";
        continue;
      }
      const FleetCell& c = it->second;
      const std::string z = c.robust_z ? fmt::format(", z {:.1f}", *c.robust_z) : "";
      s += fmt::format("<td class=\"num{}\" title=\"{}{}\">{:.1f}%{}</td>", c.flagged ? " flag" : "",
                       html_escape(format_si(c.value, f.figure.unit)), z, c.percent_of_median, c.flagged ? " &#9888;" : "");
    }
    s += "</tr>\n";
  }
  s += "<tr><td>median</td>";
  for (const FleetFigure& f : g.figures) s += "<td class=\"num\">" + html_escape(format_si(f.median, f.figure.unit)) + "</td>";
  s += "</tr>\n</tbody>\n</table>\n";
  return s;
}

// One horizontal bar per node, sorted from the slowest, as a percent of the median; the median and the
// threshold are vertical lines.
std::string figure_chart(const FleetAnalysis& fleet, const FleetGroup& g, const FleetFigure& f, const std::string& id) {
  std::vector<std::pair<double, std::size_t>> bars;
  for (std::size_t n : g.nodes) {
    const auto it = fleet.results[n].cells.find(f.figure.id);
    if (it != fleet.results[n].cells.end()) bars.emplace_back(it->second.percent_of_median, n);
  }
  std::sort(bars.begin(), bars.end());
  if (!f.figure.higher_is_better) std::reverse(bars.begin(), bars.end());
  const double left = 150, width = 460, row = 16, top = 28;
  const double height = top + row * static_cast<double>(bars.size()) + 24;
  double hi = 110;
  for (const auto& [p, n] : bars) hi = std::max(hi, std::ceil(p / 10.0) * 10.0);
  auto x = [&](double percent) { return left + std::max(0.0, percent) / hi * (width - 50); };  // 50: the value label
  std::string s = fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"{}\" class=\"chart\" width=\"{:.0f}\" height=\"{:.0f}\" "
                              "role=\"img\" font-family=\"sans-serif\" font-size=\"11\">\n",
                              id, left + width, height);
  const std::string title = fmt::format("{}: median {}", f.figure.label, format_si(f.median, f.figure.unit));
  s += fmt::format("<title>{}</title>\n", html_escape(title));
  s += svg_text(4, 16, title, " font-weight=\"bold\"");
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const auto& [p, n] = bars[i];
    const double y = top + row * static_cast<double>(i);
    const bool flagged = fleet.results[n].cells.at(f.figure.id).flagged;
    s += svg_text(left - 6, y + 11, fleet.label(n), " text-anchor=\"end\"");
    s += svg_rect(left, y + 2, x(p) - left, row - 4, flagged ? " fill=\"#c0392b\" class=\"bar flagged\"" : " fill=\"#4a7fb5\" class=\"bar\"");
    s += svg_text(x(p) + 4, y + 11, fmt::format("{:.1f}%", p), "");
  }
  const double bottom = top + row * static_cast<double>(bars.size());
  const double limit = f.figure.higher_is_better ? 100.0 - fleet.options.threshold * 100.0 : 100.0 + fleet.options.threshold * 100.0;
  s += svg_line(x(100), top - 4, x(100), bottom + 2, " stroke=\"#222\"");
  s += svg_line(x(limit), top - 4, x(limit), bottom + 2, " stroke=\"#c0392b\" stroke-dasharray=\"4 3\"");
  s += svg_text(x(100) + 2, bottom + 16, "median", " text-anchor=\"start\"");
  s += svg_text(x(limit) - 2, bottom + 16, fmt::format("{:g}%", limit), " text-anchor=\"end\" fill=\"#c0392b\"");
  return s + "</svg>\n";
}

std::string diagnoses(const FleetAnalysis& fleet) {
  std::string s = "<section id=\"diagnoses\"><h2>Flagged and failed nodes</h2>\n<ul>\n";
  for (std::size_t i = 0; i < fleet.nodes.size(); ++i) {
    if (!fleet.results[i].diagnosis.empty()) {
      s += fmt::format("<li class=\"flagged\"><a href=\"#{}\">{}</a>: {}</li>\n", anchor("node", i),
                       html_escape(fleet.label(i)), html_escape(fleet.results[i].diagnosis));
    }
    if (!fleet.nodes[i].ok) {
      s += fmt::format("<li class=\"failed\">{} ({}) failed: {}</li>\n", html_escape(fleet.label(i)),
                       html_escape(fleet.nodes[i].source), html_escape(fleet.nodes[i].error));
    }
  }
  if (fleet.flagged_count() + fleet.failed_count() == 0) s += "<li>Every node is in line with its group.</li>\n";
  return s + "</ul>\n</section>\n";
}

ReportTable groups_table(const FleetAnalysis& fleet) {
  ReportTable t;
  t.id = "fleet-groups";
  t.title = "Hardware groups";
  t.columns = {"group", "nodes", "compared by"};
  t.right_aligned = {true, false, false};
  if (!fleet.groups.empty()) {
    for (const auto& [k, v] : fleet.groups.front().facts) {
      t.columns.push_back(k);
      t.right_aligned.push_back(false);
    }
  }
  for (std::size_t g = 0; g < fleet.groups.size(); ++g) {
    std::string names;
    for (std::size_t n : fleet.groups[g].nodes) names += (names.empty() ? "" : ", ") + fleet.label(n);
    std::vector<std::string> row = {std::to_string(g + 1), names,
                                    fleet.groups[g].statistics ? "median, MAD and percent" : "percent only (under 5 nodes)"};
    for (const auto& [k, v] : fleet.groups[g].facts) row.push_back(v);
    t.rows.push_back(row);
  }
  return t;
}

std::string node_details(const FleetAnalysis& fleet) {
  std::string s = "<section id=\"nodes\"><h2>Nodes</h2>\n";
  for (std::size_t i = 0; i < fleet.nodes.size(); ++i) {
    const FleetNode& n = fleet.nodes[i];
    s += fmt::format("<details id=\"{}\"><summary>{} &middot; {}{}</summary>\n", anchor("node", i), html_escape(fleet.label(i)),
                     html_escape(n.source), n.ok ? "" : " &middot; failed");
    if (!n.ok) {
      s += "<p class=\"missing\">" + html_escape(n.error) + "</p>\n";
    } else {
      const ResultsDocument& doc = n.results;
      for (const ReportTable& t : {machine_table(doc), compute_table(doc), memory_table(doc), placements_table(doc)}) {
        ReportTable local = t;
        local.id = fmt::format("{}-{}", anchor("node", i), t.id);
        s += render_table_html(local);
      }
    }
    s += "</details>\n";
  }
  return s + "</section>\n";
}

}  // namespace

std::string render_fleet_html(const FleetAnalysis& fleet) {
  std::string s = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  s += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n";
  s += fmt::format("<title>Roofline fleet: {} nodes</title>\n<style>{}{}</style>\n</head>\n<body>\n", fleet.nodes.size(),
                   report_css(), kFleetStyle);
  s += fmt::format("<header><h1>Roofline fleet: {} node(s)</h1>\n<p class=\"subtitle\" id=\"summary\">{} flagged, {} failed, "
                   "{} hardware group(s)</p></header>\n",
                   fleet.nodes.size(), fleet.flagged_count(), fleet.failed_count(), fleet.groups.size());
  s += "<nav><a href=\"#diagnoses\">Flagged</a><a href=\"#groups\">Groups</a><a href=\"#table\">Table</a>"
       "<a href=\"#charts\">Charts</a><a href=\"#nodes\">Nodes</a></nav>\n";
  s += diagnoses(fleet);
  s += "<section id=\"groups\"><h2>Groups</h2>\n" + render_table_html(groups_table(fleet));
  s += fmt::format("<p class=\"note\">A figure is flagged when it is at least {:g}% below its group median and its "
                   "robust z-score (value - median) / (1.4826 MAD) is at or below -{:g}; groups under {} nodes are compared "
                   "by the percent alone.</p>\n",
                   fleet.options.threshold * 100.0, fleet.options.robust_z, kFleetMinGroupForStatistics);
  for (const std::string& n : fleet.notes) s += "<p class=\"note\">" + html_escape(n) + "</p>\n";
  s += "</section>\n<section id=\"table\"><h2>Nodes x key figures</h2>\n";
  for (std::size_t g = 0; g < fleet.groups.size(); ++g) s += full_table(fleet, g);
  s += "<p class=\"note\">Percent of the group median; hover a cell for the value and z-score. Flagged cells are "
       "marked.</p>\n</section>\n<section id=\"charts\"><h2>Charts</h2>\n";
  for (std::size_t g = 0; g < fleet.groups.size(); ++g) {
    s += fmt::format("<h3>Group {}</h3>\n<div class=\"charts\">\n", g + 1);
    for (std::size_t k = 0; k < fleet.groups[g].figures.size(); ++k) {
      s += "<figure>\n" + figure_chart(fleet, fleet.groups[g], fleet.groups[g].figures[k], fmt::format("chart-{}-{}", g + 1, k + 1)) + "</figure>\n";
    }
    s += "</div>\n";
  }
  s += "</section>\n" + node_details(fleet);
  s += "<footer class=\"note\">Generated by roofline fleet from the nodes' results files alone.</footer>\n</body>\n</html>\n";
  return s;
}

}  // namespace roofline
