// A small log-log plotting helper for the report's inline SVG charts. The axis mapping is a pure function
// (LogAxis::to_px) so tests can check that a ceiling or a point sits where the model says; the element
// helpers only format SVG text, escaping every string that came from a file.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace roofline {

// A log10 axis mapping data values [lo, hi] (both > 0) onto pixels [px_lo, px_hi]. For a y axis px_lo is
// the bottom of the plot area and px_hi its top, so larger values sit higher.
struct LogAxis {
  double lo = 1.0;
  double hi = 10.0;
  double px_lo = 0.0;
  double px_hi = 100.0;
  // Pixel position of `value` (> 0), interpolated in log space; not clamped to the axis.
  [[nodiscard]] double to_px(double value) const;
  // Inverse of to_px.
  [[nodiscard]] double from_px(double px) const;
  [[nodiscard]] bool contains(double value) const { return value >= lo * (1 - 1e-9) && value <= hi * (1 + 1e-9); }
};

// Expands [min, max] (both > 0) outward to whole decades, at least `min_decades` wide.
std::pair<double, double> decade_range(double min, double max, int min_decades = 1);

// The powers of ten within [lo, hi].
std::vector<double> decade_ticks(double lo, double hi);

// The pixel frame of one chart: overall size and the plot area inside the margins.
struct PlotFrame {
  double width = 900;
  double height = 560;
  double left = 110;   // margin for y tick labels and title
  double right = 190;  // room for the legend
  double top = 40;
  double bottom = 60;
  [[nodiscard]] double plot_left() const { return left; }
  [[nodiscard]] double plot_right() const { return width - right; }
  [[nodiscard]] double plot_top() const { return top; }
  [[nodiscard]] double plot_bottom() const { return height - bottom; }
};

// A log-log plot: a frame and its two axes (x left to right, y bottom to top).
struct LogLogPlot {
  PlotFrame frame;
  LogAxis x;
  LogAxis y;
};
LogLogPlot make_log_log_plot(const PlotFrame& frame, std::pair<double, double> x_range,
                             std::pair<double, double> y_range);

// ` name="value"` with the value escaped.
std::string svg_attr(std::string_view name, std::string_view value);
// A number for SVG coordinates (2 decimals).
std::string svg_num(double v);

std::string svg_line(double x1, double y1, double x2, double y2, std::string_view attrs);
std::string svg_circle(double cx, double cy, double r, std::string_view attrs);
std::string svg_rect(double x, double y, double w, double h, std::string_view attrs);
std::string svg_polyline(const std::vector<std::pair<double, double>>& points_px, std::string_view attrs);
// A text element; `text` is escaped.
std::string svg_text(double x, double y, std::string_view text, std::string_view attrs);

// Opens the <svg> element (with a <title> for accessibility and a clip path named `id`-clip for the plot
// area) and draws background, decade grid, ticks, tick labels and axis titles. `x_tick` and `y_tick`
// format a tick value for people, e.g. 1e9 -> "1 GFLOP/s".
std::string svg_open_log_log(const LogLogPlot& plot, std::string_view id, std::string_view title,
                             std::string_view x_title, std::string_view y_title,
                             std::string (*x_tick)(double), std::string (*y_tick)(double));
// Opening tag of a group clipped to the plot area of the chart `id`.
std::string svg_clipped_group(std::string_view id, std::string_view attrs = "");

// A legend box at the right of the frame: one row per (label, colour, dash pattern).
struct LegendRow {
  std::string label;
  std::string colour;
  std::string dash;     // an SVG stroke-dasharray ("" for a solid line)
  std::string marker;   // "circle", "square" or "triangle" for a point marker instead of a line
};
std::string svg_legend(const LogLogPlot& plot, const std::vector<LegendRow>& rows);

// Tick label helpers: plain numbers ("0.1", "10", "1k") and SI with a unit ("1 GFLOP/s").
std::string tick_plain(double v);
std::string tick_flop_rate(double v);
std::string tick_byte_rate(double v);
std::string tick_bytes(double v);
std::string tick_seconds(double v);

}  // namespace roofline
