// The HTML report: one self-contained page (inline CSS and SVG, no scripts, no fonts, no network; a
// Content-Security-Policy says so to the browser) with the charts and the same tables as the terminal
// summary. Every string from the results or spec file is escaped.
#include <fmt/format.h>

#include "roofline/model/results_targets.hpp"
#include "roofline/report/html_escape.hpp"
#include "roofline/report/report.hpp"
#include "roofline/report/report_charts.hpp"
#include "roofline/report/report_facts.hpp"
#include "roofline/report/report_tables.hpp"
#include "roofline/report/spec.hpp"
#include "typed_fields.hpp"

namespace roofline {
using namespace report_detail;

namespace {

constexpr const char* kStyle = R"(
body { font-family: sans-serif; margin: 24px auto; max-width: 1240px; color: #222; background: #fff; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ddd; }
.subtitle { color: #555; margin-top: 0; } figure { margin: 8px 0; } figcaption { color: #555; font-size: 13px; }
.pair { display: flex; flex-wrap: wrap; gap: 12px; }
table { border-collapse: collapse; margin: 8px 0 4px 0; font-size: 13px; }
caption { text-align: left; font-weight: bold; padding: 6px 0; }
th, td { border: 1px solid #ddd; padding: 3px 8px; vertical-align: top; } th { background: #f3f3f3; }
td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.note, .missing { color: #555; font-size: 13px; margin: 2px 0 14px 0; } .missing { font-style: italic; }
nav a { margin-right: 14px; }
)";

std::string html_table(const ReportTable& t) {
  std::string s = fmt::format("<table id=\"{}\"><caption>{}</caption>\n", html_escape(t.id), html_escape(t.title));
  if (!t.rows.empty()) {
    s += "<thead><tr>";
    for (const auto& c : t.columns) s += "<th>" + html_escape(c) + "</th>";
    s += "</tr></thead>\n<tbody>\n";
    for (const auto& row : t.rows) {
      s += "<tr>";
      for (std::size_t i = 0; i < row.size(); ++i) {
        const bool right = i < t.right_aligned.size() && t.right_aligned[i];
        s += (right ? "<td class=\"num\">" : "<td>") + html_escape(row[i]) + "</td>";
      }
      s += "</tr>\n";
    }
    s += "</tbody>\n";
  }
  s += "</table>\n";
  if (!t.note.empty()) s += "<p class=\"note\">" + html_escape(t.note) + "</p>\n";
  return s;
}

std::string chart_or_note(const std::string& svg, const std::string& missing) {
  return svg.empty() ? "<p class=\"missing\">" + html_escape(missing) + "</p>\n" : "<figure>\n" + svg + "</figure>\n";
}

}  // namespace

// Shared with the fleet report, so that both pages look and escape alike.
std::string render_table_html(const ReportTable& table) { return html_table(table); }
std::string_view report_css() { return kStyle; }

std::string render_html_report(const ResultsDocument& document, const std::optional<Spec>& spec) {
  // The charts are the CPU's (its entries alone); the tables add every other target's after the CPU's.
  const std::vector<RecordedTarget> targets = recorded_targets(document);
  const ResultsDocument results = target_document(document, targets.front().id);
  const ResultsContext& ctx = results.context;
  const HostFacts machine = host_facts(document.context);
  const std::string host = cell(ROOFLINE_FIELD(ctx, host_name), machine.hostname.empty() ? "unknown host" : machine.hostname);
  const int threads = report_threads(results);

  std::string s = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  s += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n";
  s += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  s += fmt::format("<title>Roofline: {}</title>\n<style>{}</style>\n</head>\n<body>\n", html_escape(host), kStyle);
  s += fmt::format("<header><h1>Roofline report: <span id=\"host\">{}</span></h1>\n", html_escape(host));
  s += fmt::format("<p class=\"subtitle\"><span id=\"cpu\">{}</span> &middot; {} &middot; {} &middot; schema {}</p></header>\n",
                   html_escape(machine.cpu_model.empty() ? "unknown CPU" : machine.cpu_model), html_escape(cell(ROOFLINE_FIELD(ctx, date), "no date")),
                   html_escape(cell(ROOFLINE_FIELD(ctx, git_revision), "no revision")),
                   html_escape(cell(ROOFLINE_FIELD(ctx, schema_version), "?")));
  if (const std::string warning = emulation_warning(document); !warning.empty()) {
    s += "<p class=\"note\" id=\"emulated\"><strong>" + html_escape(warning) + "</strong></p>\n";
  }
  s += "<nav><a href=\"#roofline\">Roofline</a>";
  if (spec) s += "<a href=\"#advertised\">Advertised vs measured</a>";
  s += "<a href=\"#bandwidth\">Bandwidth</a><a href=\"#batch\">Throughput and latency</a><a href=\"#tables\">Tables</a></nav>\n";

  s += "<section id=\"roofline\"><h2>Roofline</h2>\n";
  s += chart_or_note(roofline_chart_svg(results), "No ceilings or placements in this file: nothing to chart.");
  s += fmt::format(
      "<p class=\"note\">Log-log. At {} thread(s), the largest measured. Solid horizontal lines: the best measured "
      "compute ceiling per precision (its ISA named); dashed: the theoretical peak at the measured clock. Diagonal "
      "lines: each memory level's roof (its read-kernel ceiling), clipped at the ridge with the highest compute roof. "
      "Open circles: ridge points (peak / bandwidth), the DRAM ones labelled with their AI. Filled markers: GEMV/GEMM "
      "at that thread count, labelled b&lt;batch&gt; &lt;precision&gt;.</p>\n</section>\n",
      threads);

  // Every other target's charts after the CPU's roofline, by the same chart code on its own part of the file: its
  // roofline on its own ceilings and levels, its bandwidth curves, its points against the batch (its tables come with
  // the others).
  for (auto target = targets.begin() + 1; target != targets.end(); ++target) {
    const RecordedTarget& t = *target;
    if (!has_entries(document, t.id)) continue;
    const ResultsDocument part = target_document(document, t.id);
    const std::string id = html_escape(t.id);
    s += fmt::format("<section id=\"roofline-{0}\"><h2>Roofline: {0}</h2>\n", id);
    s += chart_or_note(roofline_chart_svg(part, "roofline-chart-" + id), "No ceilings or placements of this target: nothing to chart.");
    s += fmt::format("<p class=\"note\">{}: its memory levels as its facts name them ({} last: main memory), its "
                     "compute ceilings per precision and engine; dashed: the theoretical peak of its peak model; its main "
                     "memory's ridge points labelled with their AI.</p>\n",
                     html_escape(t.name.empty() ? t.id : t.name), html_escape(t.main_memory()));
    const std::string bandwidth = bandwidth_chart_svg(part, "bandwidth-chart-" + id);
    if (!bandwidth.empty()) s += "<figure>\n" + bandwidth + "</figure>\n";
    const std::string throughput = throughput_chart_svg(part, "throughput-chart-" + id);
    if (!throughput.empty()) {
      s += "<div class=\"pair\">\n<figure>\n" + throughput + "</figure>\n<figure>\n" +
           latency_chart_svg(part, "latency-chart-" + id) + "</figure>\n</div>\n";
    }
    s += "</section>\n";
  }

  if (spec) {
    const AdvertisedComparison cmp = compare_to_spec(document, *spec);
    s += "<section id=\"advertised\"><h2>Advertised vs measured</h2>\n";
    s += html_table(advertised_table(cmp));
    if (!spec->source.empty()) s += "<p class=\"note\">Source of the advertised figures: " + html_escape(spec->source) + "</p>\n";
    for (const auto& n : cmp.notes) s += "<p class=\"note\">" + html_escape(n) + "</p>\n";
    s += "</section>\n";
  }

  s += "<section id=\"bandwidth\"><h2>Bandwidth vs working set</h2>\n";
  s += chart_or_note(bandwidth_chart_svg(results), "No bandwidth benchmarks in this file.");
  s += "<p class=\"note\">Max of the repetitions per working set (medians when no max aggregate is present). Shaded: "
       "the working-set range each level's ceiling came from. Dashed lines: fewer threads than the largest count.</p>\n</section>\n";

  s += "<section id=\"batch\"><h2>Throughput and latency vs batch</h2>\n<div class=\"pair\">\n";
  const std::string throughput = throughput_chart_svg(results), latency = latency_chart_svg(results);
  if (throughput.empty()) {
    s += "<p class=\"missing\">No GEMV/GEMM placements in this file.</p>\n";
  } else {
    s += "<figure>\n" + throughput + "</figure>\n<figure>\n" + latency + "</figure>\n";
  }
  s += "</div>\n<p class=\"note\">Colour: precision; dash pattern: backend. A larger batch buys throughput until the "
       "ridge (where the dotted compute roof is reached) and costs latency per call.</p>\n</section>\n";

  s += "<section id=\"tables\"><h2>Tables</h2>\n";
  for (const ReportTable& t : report_tables(document)) s += html_table(t);
  s += "</section>\n<footer class=\"note\">Generated by roofline from the results file alone; re-render with "
       "<code>roofline report</code>.</footer>\n</body>\n</html>\n";
  return s;
}

std::string render_svg_chart(const ResultsDocument& results) {
  const std::string svg = roofline_chart_svg(results);
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" +
         (svg.empty() ? std::string("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"400\" height=\"40\"><text x=\"10\" "
                                    "y=\"25\">No ceilings or placements in this file.</text></svg>\n")
                      : svg);
}

}  // namespace roofline
