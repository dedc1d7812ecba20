// Rendering a FleetAnalysis for the terminal, for a CI step summary (Markdown) and for other tools (JSON).
// The HTML page lives in fleet_html.cpp. See fleet.hpp.
#include <algorithm>

#include <fmt/format.h>

#include "roofline/fleet/fleet.hpp"
#include "roofline/report/html_escape.hpp"
#include "roofline/report/report_tables.hpp"
#include "roofline/common/units.hpp"

namespace roofline {
using nlohmann::json;

namespace {

std::string rule_line(const FleetAnalysis& f) {
  return fmt::format("a figure is flagged when it is at least {:g}% below its group median and its robust z-score "
                     "(value - median) / (1.4826 MAD) is at or below -{:g}; groups under {} nodes: percent only",
                     f.options.threshold * 100.0, f.options.robust_z, kFleetMinGroupForStatistics);
}

std::string summary_line(const FleetAnalysis& f) {
  return fmt::format("{} node(s): {} measured, {} failed, {} flagged; {} hardware group(s)", f.nodes.size(),
                     f.nodes.size() - f.failed_count(), f.failed_count(), f.flagged_count(), f.groups.size());
}

// The group's figures at its largest thread count: the columns of the compact tables.
std::vector<const FleetFigure*> compact_figures(const FleetGroup& g) {
  int threads = 0;
  for (const FleetFigure& f : g.figures) threads = std::max(threads, f.figure.threads);
  std::vector<const FleetFigure*> out;
  for (const FleetFigure& f : g.figures) {
    if (f.figure.threads == threads) out.push_back(&f);
  }
  return out;
}

std::vector<const FleetFigure*> all_figures(const FleetGroup& g) {
  std::vector<const FleetFigure*> out;
  for (const FleetFigure& f : g.figures) out.push_back(&f);
  return out;
}

std::string cell_text(const FleetNodeResult& r, const FleetFigure& f, const char* flag_mark) {
  const auto it = r.cells.find(f.figure.id);
  if (it == r.cells.end()) return "n/a";
  return fmt::format("{:.1f}%{}", it->second.percent_of_median, it->second.flagged ? flag_mark : "");
}


// Rows: the group's nodes (percent of the median, flagged cells marked), then the median itself.
ReportTable group_table(const FleetAnalysis& fleet, std::size_t gi, const std::vector<const FleetFigure*>& figures,
                        const char* flag_mark) {
  const FleetGroup& g = fleet.groups[gi];
  ReportTable t;
  t.id = fmt::format("fleet-group-{}", gi + 1);
  t.title = fmt::format("Group {}: {} node(s){}", gi + 1, g.nodes.size(), g.statistics ? ", robust statistics" : ", percent only");
  t.columns = {"node"};
  t.right_aligned = {false};
  for (const FleetFigure* f : figures) {
    t.columns.push_back(f->figure.label);
    t.right_aligned.push_back(true);
  }
  for (std::size_t n : g.nodes) {
    std::vector<std::string> row = {fleet.label(n)};
    for (const FleetFigure* f : figures) row.push_back(cell_text(fleet.results[n], *f, flag_mark));
    t.rows.push_back(row);
  }
  std::vector<std::string> median = {"median"};
  for (const FleetFigure* f : figures) median.push_back(format_si(f->median, f->figure.unit));
  t.rows.push_back(median);
  t.note = g.fingerprint;
  return t;
}

// Rows and columns swapped (figures down, nodes across): the narrower shape on a terminal when a group
// has fewer nodes than figures.
ReportTable transposed(const ReportTable& t) {
  ReportTable out;
  out.id = t.id;
  out.title = t.title;
  out.note = t.note;
  out.columns = {t.columns.front()};
  for (const auto& row : t.rows) out.columns.push_back(row.front());
  out.right_aligned.assign(out.columns.size(), true);
  out.right_aligned.front() = false;
  out.columns.front() = "key figure";
  for (std::size_t c = 1; c < t.columns.size(); ++c) {
    std::vector<std::string> row = {t.columns[c]};
    for (const auto& r : t.rows) row.push_back(c < r.size() ? r[c] : "");
    out.rows.push_back(row);
  }
  return out;
}

json cell_json(const FleetCell& c) {
  return {{"value", c.value}, {"percent_of_median", c.percent_of_median}, {"shortfall", c.shortfall},
          {"robust_z", c.robust_z ? json(*c.robust_z) : json(nullptr)}, {"flagged", c.flagged}};
}

}  // namespace

std::string render_fleet_text(const FleetAnalysis& fleet) {
  std::string s = "Fleet: " + summary_line(fleet) + "\n" + rule_line(fleet) + "\n\n";
  for (std::size_t i = 0; i < fleet.nodes.size(); ++i) {
    if (!fleet.results[i].diagnosis.empty()) s += fmt::format("FLAGGED {}: {}\n", fleet.label(i), fleet.results[i].diagnosis);
    if (!fleet.nodes[i].ok) s += fmt::format("FAILED  {} ({}): {}\n", fleet.label(i), fleet.nodes[i].source, fleet.nodes[i].error);
  }
  if (fleet.flagged_count() == 0 && fleet.failed_count() == 0) s += "Every node is in line with its group.\n";
  for (std::size_t g = 0; g < fleet.groups.size(); ++g) {
    s += '\n';
    const ReportTable t = group_table(fleet, g, compact_figures(fleet.groups[g]), " *");
    s += render_table_text(t.rows.size() < t.columns.size() ? transposed(t) : t);
  }
  s += "\nPercent of the group median at each group's largest thread count (* flagged); every figure and thread "
       "count in --json and --html.\n";
  for (const std::string& n : fleet.notes) s += "note: " + n + "\n";
  return s;
}

std::string render_fleet_markdown(const FleetAnalysis& fleet) {
  std::string s = "## Roofline fleet\n\n" + markdown_escape(summary_line(fleet)) + ". " + markdown_escape(rule_line(fleet)) + ".\n\n";
  for (std::size_t i = 0; i < fleet.nodes.size(); ++i) {
    if (!fleet.results[i].diagnosis.empty()) {
      s += fmt::format("- **FLAGGED** {}: {}\n", markdown_escape(fleet.label(i)), markdown_escape(fleet.results[i].diagnosis));
    }
    if (!fleet.nodes[i].ok) {
      s += fmt::format("- **FAILED** {} ({}): {}\n", markdown_escape(fleet.label(i)), markdown_escape(fleet.nodes[i].source),
                       markdown_escape(fleet.nodes[i].error));
    }
  }
  if (fleet.flagged_count() == 0 && fleet.failed_count() == 0) s += "Every node is in line with its group.\n";
  auto table = [](const ReportTable& t) {
    std::string out = "| " ;
    for (const auto& c : t.columns) out += markdown_escape(c) + " | ";
    out += "\n|";
    for (std::size_t c = 0; c < t.columns.size(); ++c) out += c == 0 ? "---|" : "--:|";
    out += "\n";
    for (const auto& row : t.rows) {
      out += "|";
      for (const auto& cell : row) out += fmt::format(" {} |", markdown_escape(cell));
      out += "\n";
    }
    return out;
  };
  for (std::size_t g = 0; g < fleet.groups.size(); ++g) {
    const ReportTable compact = group_table(fleet, g, compact_figures(fleet.groups[g]), " FLAGGED");
    s += fmt::format("\n### {}\n\n{}\n\n{}", markdown_escape(compact.title), markdown_escape(compact.note), table(compact));
    s += "\n<details><summary>Every key figure and thread count</summary>\n\n" +
         table(group_table(fleet, g, all_figures(fleet.groups[g]), " FLAGGED")) + "\n</details>\n";
  }
  for (const std::string& n : fleet.notes) s += "\n_note:_ " + markdown_escape(n) + "\n";
  return s;
}

json fleet_to_json(const FleetAnalysis& fleet) {
  json groups = json::array();
  for (const FleetGroup& g : fleet.groups) {
    json facts = json::object(), nodes = json::array(), figures = json::array();
    for (const auto& [k, v] : g.facts) facts[k] = v;
    for (std::size_t n : g.nodes) nodes.push_back(fleet.label(n));
    for (const FleetFigure& f : g.figures) {
      figures.push_back({{"id", f.figure.id}, {"label", f.figure.label}, {"group", f.figure.group},
                         {"threads", f.figure.threads}, {"unit", f.figure.unit},
                         {"higher_is_better", f.figure.higher_is_better}, {"median", f.median}, {"mad", f.mad},
                         {"robust_sigma", f.robust_sigma}, {"nodes", f.nodes}});
    }
    groups.push_back({{"fingerprint", facts}, {"nodes", nodes}, {"statistics", g.statistics}, {"figures", figures}});
  }
  json nodes = json::array();
  for (std::size_t i = 0; i < fleet.nodes.size(); ++i) {
    const FleetNode& n = fleet.nodes[i];
    const FleetNodeResult& r = fleet.results[i];
    json cells = json::object();
    for (const auto& [id, c] : r.cells) cells[id] = cell_json(c);
    json node = {{"node", n.name}, {"label", fleet.label(i)}, {"rank", n.rank ? json(*n.rank) : json(nullptr)},
                 {"source", n.source}, {"ok", n.ok}, {"group", r.group >= 0 ? json(r.group + 1) : json(nullptr)},
                 {"flagged", r.flagged}, {"missing", r.missing}, {"diagnosis", r.diagnosis}, {"figures", cells}};
    if (!n.ok) node["error"] = n.error;
    nodes.push_back(node);
  }
  return {{"fleet_analysis_version", 1}, {"threshold", fleet.options.threshold}, {"robust_z", fleet.options.robust_z},
          {"min_group_for_statistics", kFleetMinGroupForStatistics}, {"flagged", fleet.flagged_count()},
          {"failed", fleet.failed_count()}, {"exit_code", fleet.exit_code()}, {"groups", groups}, {"nodes", nodes},
          {"notes", fleet.notes}};
}

}  // namespace roofline
