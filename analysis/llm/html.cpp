// The LLM section in HTML: see html.hpp. Charts use the report's log-log helper (svg_chart.hpp).
#include "roofline/llm/html.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "roofline/report/html_escape.hpp"
#include "roofline/report/report_charts.hpp"
#include "roofline/report/report_tables.hpp"
#include "roofline/report/svg_chart.hpp"
#include "roofline/llm/tables.hpp"

namespace roofline::llm {
namespace {

std::string tick_per_second(double v) { return tick_plain(v) + "/s"; }

// Tokens/s (total) and seconds per token against the batch, from the decode rows.
std::string batch_chart(const LlmAnswer& a, bool throughput) {
  std::vector<std::pair<double, double>> points;
  for (const DecodeRow& r : a.decode) {
    points.emplace_back(static_cast<double>(r.batch), throughput ? r.tokens_per_second : r.step.seconds);
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
std::string roofline_chart(const LlmAnswer& a) {
  // The weights' compute roof: a quantized format names no precision, so its chart has no roof to draw.
  const std::string weights = a.model.weights.name;
  double peak = 0;
  for (const auto& [p, c] : a.roofs.compute) {
    if (to_string(p) == weights) peak = c.value;
  }
  std::vector<ChartPoint> points;
  for (const DecodeRow& r : a.decode) {
    points.push_back({fmt::format("decode batch {}", r.batch), "llm-decode", "#1f77b4", r.step.flops / r.step.bytes,
                      r.step.flops / r.step.seconds});
  }
  for (const PrefillRow& r : a.prefill) {
    points.push_back({fmt::format("prefill {} tokens", r.prompt_tokens), "llm-prefill", "#d62728", r.step.flops / r.step.bytes,
                      r.step.flops / r.step.seconds});
  }
  for (const auto& [phase, ops] : {std::pair{"decode", &a.layer_decode.ops}, std::pair{"prefill", &a.layer_prefill.ops}}) {
    for (const OpEstimate& e : *ops) {
      if (e.op.flops <= 0.0) continue;
      points.push_back({std::string(phase) + " " + e.op.name, std::string("llm-op llm-op-") + phase,
                        std::string(phase) == "decode" ? "#9ecae1" : "#fcae91", e.ai, e.op.flops / e.seconds});
    }
  }
  if (peak <= 0.0 || points.empty()) return "";
  double ai_lo = 1e300, ai_hi = 0, lo = peak;
  for (const ChartPoint& p : points) ai_lo = std::min(ai_lo, p.ai), ai_hi = std::max(ai_hi, p.ai), lo = std::min(lo, p.rate);
  ai_hi = std::max(ai_hi, 4 * peak / a.roofs.memory.back().bandwidth);
  PlotFrame frame;
  const LogLogPlot plot = make_log_log_plot(frame, decade_range(ai_lo, ai_hi), decade_range(lo, peak * 2));
  std::string s = svg_open_log_log(plot, "llm-roofline-chart", "Decode and prefill on the measured roofline",
                                   "arithmetic intensity (FLOP/byte)", "FLOP/s", tick_plain, tick_flop_rate);
  s += svg_clipped_group("llm-roofline-chart", " class=\"roofs\"");
  std::vector<LegendRow> legend;
  for (const MemoryRoofUsed& l : a.roofs.memory) {
    const double bw = l.bandwidth;
    const std::string& level = l.level;
    const bool gemv = l.gemv.has_value();  // --roof gemm: the bandwidth the run's GEMV attained
    const std::string dash = gemv ? "6 4" : "";
    const double ridge = peak / bw;
    s += svg_line(plot.x.to_px(plot.x.lo), plot.y.to_px(bw * plot.x.lo), plot.x.to_px(ridge), plot.y.to_px(peak),
                  fmt::format(" class=\"memory-roof\" stroke=\"{}\" stroke-width=\"2\" stroke-dasharray=\"{}\" data-level=\"{}\" "
                              "data-value=\"{:.6g}\"", series_colour(level), dash, html_escape(level), bw));
    const std::string label = gemv ? fmt::format("{} {} GEMV roof", level, to_string(*l.gemv)) : level + " roof";
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

std::string render_llm_section(const LlmAnswer& a) {
  std::string s = fmt::format("<section id=\"llm\">\n<h2>LLM inference: {}</h2>\n", html_escape(a.model.config.name));
  s += fmt::format("<p class=\"note\">Estimated from the ceilings of {} (every operation at max(FLOPs / compute roof, "
                   "bytes / memory roof)).</p>\n", html_escape(a.results));
  s += figure(roofline_chart(a));
  s += "<div class=\"pair\">\n" + figure(batch_chart(a, true)) + figure(batch_chart(a, false)) + "</div>\n";
  for (const ReportTable& t : llm_tables(a)) s += render_table_html(t);
  for (const std::string& n : llm_notes(a)) s += "<p class=\"note\">" + html_escape(n) + "</p>\n";
  return s + "</section>\n";
}

std::string render_llm_page(const LlmAnswer& a) {
  std::string s = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  s += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n";
  s += fmt::format("<title>roofline llm: {}</title>\n<style>{}</style>\n</head>\n<body>\n",
                   html_escape(a.model.config.name), report_css());
  return s + render_llm_section(a) + "</body>\n</html>\n";
}

}  // namespace roofline::llm
