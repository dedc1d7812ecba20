// The log-log plotting helper: see svg_chart.hpp. Charts are plain SVG text so the report stays one
// self-contained file with no scripts. Hand-written: Debian's C++ plotting options (matplotlib-cpp,
// gnuplot-iostream) drive an external program and emit no inline, testable SVG.
#include "roofline/report/svg_chart.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/report/html_escape.hpp"
#include "roofline/common/units.hpp"

namespace roofline {

double LogAxis::to_px(double value) const {
  const double t = (std::log10(value) - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
  return px_lo + t * (px_hi - px_lo);
}

double LogAxis::from_px(double px) const {
  const double t = (px - px_lo) / (px_hi - px_lo);
  return std::pow(10.0, std::log10(lo) + t * (std::log10(hi) - std::log10(lo)));
}

std::pair<double, double> decade_range(double min, double max, int min_decades) {
  if (!(min > 0.0) || !std::isfinite(min)) min = 1.0;
  if (!(max > 0.0) || !std::isfinite(max)) max = min;
  if (max < min) std::swap(min, max);
  // A tiny tolerance so that a value of exactly 10^k does not open a whole extra decade.
  double lo_exp = std::floor(std::log10(min) + 1e-9);
  double hi_exp = std::ceil(std::log10(max) - 1e-9);
  while (hi_exp - lo_exp < min_decades) {
    hi_exp += 1;
    if (hi_exp - lo_exp < min_decades) lo_exp -= 1;
  }
  return {std::pow(10.0, lo_exp), std::pow(10.0, hi_exp)};
}

std::vector<double> decade_ticks(double lo, double hi) {
  std::vector<double> out;
  const int first = static_cast<int>(std::ceil(std::log10(lo) - 1e-9));
  const int last = static_cast<int>(std::floor(std::log10(hi) + 1e-9));
  for (int e = first; e <= last; ++e) out.push_back(std::pow(10.0, e));
  return out;
}

LogLogPlot make_log_log_plot(const PlotFrame& frame, std::pair<double, double> x_range,
                             std::pair<double, double> y_range) {
  LogLogPlot p;
  p.frame = frame;
  p.x = {x_range.first, x_range.second, frame.plot_left(), frame.plot_right()};
  p.y = {y_range.first, y_range.second, frame.plot_bottom(), frame.plot_top()};
  return p;
}

std::string svg_attr(std::string_view name, std::string_view value) {
  return fmt::format(" {}=\"{}\"", name, html_escape(value));
}

std::string svg_num(double v) {
  if (!std::isfinite(v)) return "0";
  return fmt::format("{:.2f}", v);
}

std::string svg_line(double x1, double y1, double x2, double y2, std::string_view attrs) {
  return fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"{}/>\n", svg_num(x1), svg_num(y1), svg_num(x2),
                     svg_num(y2), attrs);
}

std::string svg_circle(double cx, double cy, double r, std::string_view attrs) {
  return fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\"{}/>\n", svg_num(cx), svg_num(cy), svg_num(r), attrs);
}

std::string svg_rect(double x, double y, double w, double h, std::string_view attrs) {
  return fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"{}/>\n", svg_num(x), svg_num(y),
                     svg_num(w), svg_num(h), attrs);
}

std::string svg_polyline(const std::vector<std::pair<double, double>>& points_px, std::string_view attrs) {
  std::string pts;
  for (const auto& [x, y] : points_px) {
    if (!pts.empty()) pts += ' ';
    pts += svg_num(x) + "," + svg_num(y);
  }
  return fmt::format("<polyline points=\"{}\" fill=\"none\"{}/>\n", pts, attrs);
}

std::string svg_text(double x, double y, std::string_view text, std::string_view attrs) {
  return fmt::format("<text x=\"{}\" y=\"{}\"{}>{}</text>\n", svg_num(x), svg_num(y), attrs, html_escape(text));
}

std::string svg_open_log_log(const LogLogPlot& plot, std::string_view id, std::string_view title,
                             std::string_view x_title, std::string_view y_title,
                             std::string (*x_tick)(double), std::string (*y_tick)(double)) {
  const PlotFrame& f = plot.frame;
  const double l = f.plot_left(), r = f.plot_right(), t = f.plot_top(), b = f.plot_bottom();
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\"{} class=\"chart\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" role=\"img\" font-family=\"sans-serif\" font-size=\"12\""
      " data-x-min=\"{:g}\" data-x-max=\"{:g}\" data-y-min=\"{:g}\" data-y-max=\"{:g}\""
      " data-plot-left=\"{:g}\" data-plot-right=\"{:g}\" data-plot-top=\"{:g}\" data-plot-bottom=\"{:g}\">\n",
      svg_attr("id", id), svg_num(f.width), svg_num(f.height), svg_num(f.width), svg_num(f.height), plot.x.lo,
      plot.x.hi, plot.y.lo, plot.y.hi, l, r, t, b);
  s += fmt::format("<title>{}</title>\n", html_escape(title));
  s += fmt::format("<defs><clipPath{}><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath></defs>\n",
                   svg_attr("id", std::string(id) + "-clip"), svg_num(l), svg_num(t), svg_num(r - l),
                   svg_num(b - t));
  s += svg_rect(0, 0, f.width, f.height, " fill=\"#ffffff\"");
  s += svg_rect(l, t, r - l, b - t, " class=\"plot-area\" fill=\"#fcfcfc\" stroke=\"#888\"");
  s += "<g class=\"grid\" stroke=\"#e2e2e2\">\n";
  for (double v : decade_ticks(plot.x.lo, plot.x.hi)) {
    const double px = plot.x.to_px(v);
    s += svg_line(px, t, px, b, "");
  }
  for (double v : decade_ticks(plot.y.lo, plot.y.hi)) {
    const double py = plot.y.to_px(v);
    s += svg_line(l, py, r, py, "");
  }
  s += "</g>\n<g class=\"ticks x-ticks\" text-anchor=\"middle\" fill=\"#333\">\n";
  for (double v : decade_ticks(plot.x.lo, plot.x.hi)) {
    const double px = plot.x.to_px(v);
    s += svg_line(px, b, px, b + 5, " stroke=\"#555\"");
    s += svg_text(px, b + 19, x_tick(v), fmt::format(" class=\"tick\" data-value=\"{:g}\"", v));
  }
  s += "</g>\n<g class=\"ticks y-ticks\" text-anchor=\"end\" fill=\"#333\">\n";
  for (double v : decade_ticks(plot.y.lo, plot.y.hi)) {
    const double py = plot.y.to_px(v);
    s += svg_line(l - 5, py, l, py, " stroke=\"#555\"");
    s += svg_text(l - 8, py + 4, y_tick(v), fmt::format(" class=\"tick\" data-value=\"{:g}\"", v));
  }
  s += "</g>\n";
  s += svg_text((l + r) / 2, f.height - 14, x_title, " class=\"axis-title\" text-anchor=\"middle\" font-size=\"13\"");
  s += svg_text(14, (t + b) / 2, y_title,
                fmt::format(" class=\"axis-title\" text-anchor=\"middle\" font-size=\"13\" transform=\"rotate(-90 14 {})\"",
                            svg_num((t + b) / 2)));
  s += svg_text(l, t - 14, title, " class=\"chart-title\" font-size=\"14\" font-weight=\"bold\"");
  return s;
}

std::string svg_clipped_group(std::string_view id, std::string_view attrs) {
  return fmt::format("<g clip-path=\"url(#{}-clip)\"{}>\n", html_escape(id), attrs);
}

std::string svg_legend(const LogLogPlot& plot, const std::vector<LegendRow>& rows) {
  const double x = plot.frame.plot_right() + 14;
  double y = plot.frame.plot_top() + 8;
  std::string s = "<g class=\"legend\">\n";
  for (const LegendRow& row : rows) {
    const std::string colour = svg_attr("stroke", row.colour);
    if (row.marker == "square") {
      s += svg_rect(x + 7, y - 4, 8, 8, svg_attr("fill", row.colour));
    } else if (row.marker == "triangle") {
      s += fmt::format("<path d=\"M{} {} L{} {} L{} {} Z\"{}/>\n", svg_num(x + 11), svg_num(y - 5), svg_num(x + 16),
                       svg_num(y + 4), svg_num(x + 6), svg_num(y + 4), svg_attr("fill", row.colour));
    } else if (!row.marker.empty()) {
      s += svg_circle(x + 11, y, 4, svg_attr("fill", row.colour));
    } else {
      s += svg_line(x, y, x + 22, y, colour + " stroke-width=\"2.5\"" + (row.dash.empty() ? "" : svg_attr("stroke-dasharray", row.dash)));
    }
    s += svg_text(x + 28, y + 4, row.label, " class=\"legend-label\" font-size=\"11\"");
    y += 17;
  }
  s += "</g>\n";
  return s;
}

std::string tick_plain(double v) {
  if (v >= 1e4 || v < 1e-3) return fmt::format("1e{}", static_cast<int>(std::lround(std::log10(v))));
  return fmt::format("{:g}", v);
}

std::string tick_flop_rate(double v) { return format_si(v, "FLOP/s", 1); }
std::string tick_byte_rate(double v) { return format_si(v, "B/s", 1); }

std::string tick_bytes(double v) {
  // Decade ticks in SI bytes read better than binary sizes here ("1 MB", "10 MB").
  return format_si(v, "B", 1);
}

std::string tick_seconds(double v) {
  if (v >= 1.0) return fmt::format("{:g} s", v);
  if (v >= 1e-3) return fmt::format("{:g} ms", v * 1e3);
  if (v >= 1e-6) return fmt::format("{:g} us", v * 1e6);
  return fmt::format("{:g} ns", v * 1e9);
}

}  // namespace roofline
