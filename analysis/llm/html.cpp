// The LLM section in HTML: see html.hpp. Charts use the report's log-log helper (svg_chart.hpp).
#include "roofline/llm/html.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "roofline/analysis/html_escape.hpp"
#include "roofline/analysis/report_charts.hpp"
#include "roofline/analysis/report_tables.hpp"
#include "roofline/analysis/svg_chart.hpp"
#include "roofline/llm/tables.hpp"

namespace roofline::llm {
using nlohmann::json;

namespace {

std::string tick_per_second(double v) { return tick_plain(v) + "/s"; }

// Tokens/s (total) and seconds per token against the batch, from the decode rows.
std::string batch_chart(const json& a, bool throughput) {
  std::vector<std::pair<double, double>> points;
  for (const json& r : a["decode"]) {
    points.emplace_back(r["batch"].get<double>(), throughput ? r["tokens_per_second"].get<double>() : r["seconds_per_token"].get<double>());
  }
  if (points.empty()) return "";
  double y_lo = std::numeric_limits<double>::max(), y_hi = 0;
  for (const auto& [x, y] : points) y_lo = std::min(y_lo, y), y_hi = std::max(y_hi, y);
  const std::string id = throughput ? "llm-throughput-chart" : "llm-latency-chart";
  PlotFrame frame;
  frame.width = 600;
  frame.height = 400;
  const LogLogPlot plot = make_log_log_plot(frame, decade_range(points.front().first, points.back().first),
                                            decade_range(y_lo, y_hi));
  std::string s = svg_open_log_log(plot, id, throughput ? "Decode tokens/s (all sequences) vs batch" : "Decode latency per token vs batch",
                                   "batch (sequences)", throughput ? "tokens/s" : "seconds per token", tick_plain,
                                   throughput ? tick_per_second : tick_seconds);
  std::vector<std::pair<double, double>> px;
  s += svg_clipped_group(id, " class=\"series\"");
  for (const auto& [x, y] : points) {
    px.emplace_back(plot.x.to_px(x), plot.y.to_px(y));
    s += svg_circle(px.back().first, px.back().second, 4,
                    fmt::format(" class=\"decode-point\" fill=\"#1f77b4\" data-batch=\"{}\" data-value=\"{:.6g}\"", x, y));
  }
  s += svg_polyline(px, " fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\"");
  s += "</g>\n</svg>\n";
  return s;
}

struct ChartPoint {
  std::string label, css, colour;
  double ai = 0, rate = 0;
};

// The ceilings used (the weights precision's compute roof, every memory level's roof) with the decode and
// prefill steps and one layer's operations placed at (AI, FLOPs / estimated time).
std::string roofline_chart(const json& a) {
  const std::string weights = a["model"].value("weights", "");
  double peak = 0;
  for (const json& c : a["roofs"]["compute"]) {
    if (c.value("precision", "") == weights) peak = c["value"].get<double>();
  }
  std::vector<ChartPoint> points;
  for (const json& r : a["decode"]) {
    points.push_back({fmt::format("decode batch {}", r["batch"].get<long long>()), "llm-decode", "#1f77b4",
                      r["flops"].get<double>() / r["bytes"].get<double>(), r["flops"].get<double>() / r["seconds"].get<double>()});
  }
  for (const json& r : a["prefill"]) {
    points.push_back({fmt::format("prefill {} tokens", r["prompt_tokens"].get<long long>()), "llm-prefill", "#d62728",
                      r["flops"].get<double>() / r["bytes"].get<double>(), r["flops"].get<double>() / r["seconds"].get<double>()});
  }
  for (const char* phase : {"decode", "prefill"}) {
    for (const json& op : a["layer"][phase]["ops"]) {
      if (op["flops"].get<double>() <= 0.0) continue;
      points.push_back({std::string(phase) + " " + op.value("name", ""), std::string("llm-op llm-op-") + phase,
                        std::string(phase) == "decode" ? "#9ecae1" : "#fcae91", op["ai"].get<double>(),
                        op["flops"].get<double>() / op["estimated_seconds"].get<double>()});
    }
  }
  if (peak <= 0.0 || points.empty()) return "";
  double ai_lo = 1e300, ai_hi = 0, lo = peak, bw_hi = 0;
  for (const ChartPoint& p : points) ai_lo = std::min(ai_lo, p.ai), ai_hi = std::max(ai_hi, p.ai), lo = std::min(lo, p.rate);
  for (const json& l : a["roofs"]["memory"]) bw_hi = std::max(bw_hi, l["value"].get<double>());
  ai_hi = std::max(ai_hi, 4 * peak / a["roofs"]["memory"].back()["value"].get<double>());
  PlotFrame frame;
  const LogLogPlot plot = make_log_log_plot(frame, decade_range(ai_lo, ai_hi), decade_range(lo, peak * 2));
  std::string s = svg_open_log_log(plot, "llm-roofline-chart", "Decode and prefill on the measured roofline",
                                   "arithmetic intensity (FLOP/byte)", "FLOP/s", tick_plain, tick_flop_rate);
  s += svg_clipped_group("llm-roofline-chart", " class=\"roofs\"");
  std::vector<LegendRow> legend;
  for (const json& l : a["roofs"]["memory"]) {
    const double bw = l["value"].get<double>();
    const std::string level = l.value("level", "");
    const bool gemv = l.contains("precision");  // --roof gemm: the bandwidth the run's GEMV attained
    const std::string dash = gemv ? "6 4" : "";
    const double ridge = peak / bw;
    s += svg_line(plot.x.to_px(plot.x.lo), plot.y.to_px(bw * plot.x.lo), plot.x.to_px(ridge), plot.y.to_px(peak),
                  fmt::format(" class=\"memory-roof\" stroke=\"{}\" stroke-width=\"2\" stroke-dasharray=\"{}\" data-level=\"{}\" "
                              "data-value=\"{:.6g}\"", series_colour(level), dash, html_escape(level), bw));
    const std::string label = gemv ? fmt::format("{} {} GEMV roof", level, l.value("precision", "")) : level + " roof";
    legend.push_back({label, series_colour(level), dash, ""});
  }
  s += svg_line(plot.x.to_px(plot.x.lo), plot.y.to_px(peak), plot.x.to_px(plot.x.hi), plot.y.to_px(peak),
                fmt::format(" class=\"compute-roof\" stroke=\"#333\" stroke-width=\"2\" data-precision=\"{}\" data-value=\"{:.6g}\"",
                            html_escape(weights), peak));
  legend.push_back({weights + " compute roof", "#333", "", ""});
  s += "</g>\n" + svg_clipped_group("llm-roofline-chart", " class=\"points\"");
  for (const ChartPoint& p : points) {
    s += svg_circle(plot.x.to_px(p.ai), plot.y.to_px(p.rate), p.css.rfind("llm-op", 0) == 0 ? 3 : 6,
                    fmt::format(" class=\"{}\" fill=\"{}\" data-label=\"{}\" data-ai=\"{:.6g}\" data-value=\"{:.6g}\"", p.css,
                                p.colour, html_escape(p.label), p.ai, p.rate));
  }
  s += "</g>\n";
  legend.push_back({"decode; lighter: ops", "#1f77b4", "", "circle"});
  legend.push_back({"prefill; lighter: ops", "#d62728", "", "circle"});
  s += svg_legend(plot, legend) + "</svg>\n";
  return s;
}

std::string figure(const std::string& svg) { return svg.empty() ? "" : "<figure>\n" + svg + "</figure>\n"; }

}  // namespace

std::string render_llm_section(const json& a) {
  std::string s = fmt::format("<section id=\"llm\">\n<h2>LLM inference: {}</h2>\n", html_escape(a["model"].value("name", "")));
  s += fmt::format("<p class=\"note\">Estimated from the ceilings of {} (every operation at max(FLOPs / compute roof, "
                   "bytes / memory roof)).</p>\n", html_escape(a.value("results", "")));
  s += figure(roofline_chart(a));
  s += "<div class=\"pair\">\n" + figure(batch_chart(a, true)) + figure(batch_chart(a, false)) + "</div>\n";
  for (const ReportTable& t : llm_tables(a)) s += render_table_html(t);
  for (const json& n : llm_notes(a)) s += "<p class=\"note\">" + html_escape(n.get<std::string>()) + "</p>\n";
  return s + "</section>\n";
}

std::string render_llm_page(const json& a) {
  std::string s = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  s += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n";
  s += fmt::format("<title>roofline llm: {}</title>\n<style>{}</style>\n</head>\n<body>\n",
                   html_escape(a["model"].value("name", "")), report_css());
  return s + render_llm_section(a) + "</body>\n</html>\n";
}

}  // namespace roofline::llm
