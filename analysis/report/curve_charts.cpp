// The two curve charts of the report: bandwidth against working set (swept kernels as curves, the quick
// profile's spot measurements as markers only, the detected levels as bands labelled with their ceiling,
// the reported cache sizes as ticks), and throughput and latency per call against batch size (one line per
// backend and precision), which show the trade-off the roofline implies: a larger batch buys throughput
// until the ridge and costs latency per call.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include <fmt/format.h>

#include "roofline/common/vocabulary.hpp"
#include "roofline/report/html_escape.hpp"
#include "roofline/report/report_charts.hpp"
#include "roofline/report/report_facts.hpp"
#include "roofline/common/units.hpp"
#include "report_roofs.hpp"
#include "table_cells.hpp"
#include "typed_fields.hpp"

namespace roofline {
using nlohmann::json;
using namespace report_detail;

namespace {

using Series = std::map<std::string, std::vector<std::pair<double, double>>>;  // name -> (x, y) sorted by x

struct Extent {
  double x_lo = std::numeric_limits<double>::max(), x_hi = 0, y_lo = std::numeric_limits<double>::max(), y_hi = 0;
  void see(double x, double y) {
    x_lo = std::min(x_lo, x); x_hi = std::max(x_hi, x);
    y_lo = std::min(y_lo, y); y_hi = std::max(y_hi, y);
  }
  [[nodiscard]] bool empty() const { return x_hi == 0; }
};

// Draws each series as a polyline with point markers (series in `markers_only`: the markers alone, since
// joining measurements of different levels would draw a curve nobody measured); `data_of` gives extra
// attributes of a series.
std::string draw_series(const LogLogPlot& plot, const std::string& id, const Series& series,
                        const std::map<std::string, std::string>& colour_of, const std::map<std::string, std::string>& dash_of,
                        const std::string& css_class, const std::map<std::string, std::string>& data_of,
                        const std::set<std::string>& markers_only = {}) {
  std::string s = svg_clipped_group(id, fmt::format(" class=\"{}\"", css_class));
  for (const auto& [name, points] : series) {
    std::vector<std::pair<double, double>> px;
    for (const auto& [x, y] : points) px.emplace_back(plot.x.to_px(x), plot.y.to_px(y));
    const std::string colour = colour_of.at(name);
    const bool spot = markers_only.count(name) > 0;
    for (std::size_t i = 0; spot && i < points.size(); ++i) {
      s += svg_rect(px[i].first - 3.5, px[i].second - 3.5, 7, 7,
                    fmt::format(" class=\"spot\"{}{} data-x=\"{:g}\" data-y=\"{:g}\" fill=\"none\" stroke=\"{}\" "
                                "stroke-width=\"1.5\"", svg_attr("data-series", name),
                                data_of.count(name) ? data_of.at(name) : "", points[i].first, points[i].second, colour));
    }
    if (spot) continue;
    s += svg_polyline(px, fmt::format(" class=\"series\"{}{} stroke=\"{}\" stroke-width=\"2\"{}", svg_attr("data-series", name),
                                      data_of.count(name) ? data_of.at(name) : "", colour,
                                      dash_of.count(name) && !dash_of.at(name).empty() ? svg_attr("stroke-dasharray", dash_of.at(name)) : ""));
    for (std::size_t i = 0; i < points.size(); ++i) {
      s += svg_circle(px[i].first, px[i].second, 2.8,
                      fmt::format(" class=\"point\"{} data-x=\"{:g}\" data-y=\"{:g}\" fill=\"{}\"", svg_attr("data-series", name),
                                  points[i].first, points[i].second, colour));
    }
  }
  s += "</g>\n";
  return s;
}

// Bandwidth entries: the max aggregates (what ceilings use), else medians, else single repetitions.
std::vector<const BenchmarkEntry*> bandwidth_entries(const ResultsDocument& results) {
  for (const char* aggregate : {"max", "median", ""}) {
    auto entries = benchmark_entries(results, "bandwidth", aggregate);
    if (!entries.empty()) return entries;
  }
  return {};
}

// An entry's thread count: its labels', else its own (Google Benchmark's).
int entry_threads(const BenchmarkEntry& e) {
  const double own = amount(ROOFLINE_FIELD(e, threads));
  return static_cast<int>(e.labels ? amount(ROOFLINE_FIELD(*e.labels, threads), own) : own);
}

// The vector width each kernel's ceilings were taken at, where a target's kernels ran in several (an OpenCL device's:
// the model keeps one variant per kernel, memory_points.cpp); its curve is drawn at that width alone.
std::map<std::string, long long> ceiling_widths(const ResultsDocument& results) {
  std::map<std::string, long long> out;
  for (const MemoryCeilingRecord& c : records_of(section_of(results).memory_ceilings)) {
    if (c.width && c.kernel) out.emplace(*c.kernel, *c.width);
  }
  return out;
}

}  // namespace

std::string bandwidth_chart_svg(const ResultsDocument& results, const std::string& id) {
  Series series;
  std::map<std::string, std::string> colours, data;
  std::map<std::string, std::string> dashed;
  Extent ext;
  int max_threads = 0;
  const std::vector<const BenchmarkEntry*> entries = bandwidth_entries(results);
  const std::map<std::string, long long> widths = ceiling_widths(results);
  for (const BenchmarkEntry* e : entries) max_threads = std::max(max_threads, entry_threads(*e));
  for (const BenchmarkEntry* e : entries) {
    const double ws = amount(ROOFLINE_FIELD(*e, working_set_bytes)), bw = amount(ROOFLINE_FIELD(*e, bytes_per_second));
    if (!(ws > 0) || !(bw > 0)) continue;
    const std::string kernel = e->labels ? cell(ROOFLINE_FIELD(*e->labels, kernel), "?") : "?";
    const auto width = widths.find(kernel);
    if (width != widths.end() && e->labels && e->labels->width.value_or(width->second) != width->second) continue;
    const int threads = entry_threads(*e);
    const std::string name = fmt::format("{} {}t", kernel, threads);
    series[name].emplace_back(ws, bw);
    colours[name] = series_colour(kernel);
    dashed[name] = threads != max_threads ? "6 4" : "";
    data[name] = svg_attr("data-kernel", kernel) + fmt::format(" data-threads=\"{}\"", threads);
    ext.see(ws, bw);
  }
  if (ext.empty()) return "";
  for (auto& [name, pts] : series) std::sort(pts.begin(), pts.end());
  // Spot measurements (a kernel with few sizes beside swept ones, as in the quick profile) are markers.
  std::size_t most = 0;
  for (const auto& [name, pts] : series) most = std::max(most, pts.size());
  std::set<std::string> spots;
  for (const auto& [name, pts] : series) {
    if (pts.size() < std::max<std::size_t>(4, (most + 1) / 2)) spots.insert(name);
  }

  PlotFrame frame;
  frame.width = 1000;
  frame.height = 480;
  frame.right = 210;
  const LogLogPlot plot = make_log_log_plot(frame, decade_range(ext.x_lo, ext.x_hi), decade_range(ext.y_lo / 1.5, ext.y_hi * 1.5));
  std::string s = svg_open_log_log(plot, id, "Bandwidth vs working set (all arrays together)", "working set",
                                   "bandwidth", tick_bytes, tick_byte_rate);

  // Level bands: the working-set range each level's ceiling came from (at the largest thread count).
  s += svg_clipped_group(id, " class=\"levels\"");
  const int threads = report_threads(results);
  for (const std::string& level : memory_level_names(section_of(results))) {  // the target's own, innermost first
    const MemoryRoof roof = memory_roof(section_of(results), level, threads);
    if (!roof.found() || !(roof.min_bytes() > 0) || !(roof.max_bytes() >= roof.min_bytes())) continue;
    const double x0 = plot.x.to_px(roof.min_bytes()), x1 = plot.x.to_px(roof.max_bytes());
    s += svg_rect(x0, plot.frame.plot_top(), std::max(2.0, x1 - x0), plot.frame.plot_bottom() - plot.frame.plot_top(),
                  fmt::format(" class=\"level-band\" data-level=\"{}\" data-min-bytes=\"{:g}\" data-max-bytes=\"{:g}\" "
                              "fill=\"{}\" fill-opacity=\"0.13\"",
                              level, roof.min_bytes(), roof.max_bytes(), series_colour(level)));
    s += svg_text((x0 + x1) / 2, plot.frame.plot_top() + 14, fmt::format("{} {}", level, format_si(roof.value(), "B/s")),
                  fmt::format(" class=\"level-label\" text-anchor=\"middle\" font-size=\"11\" fill=\"{}\"", series_colour(level)));
  }
  // The cache sizes the machine facts report for these threads: ticks the bands can be checked against
  // (the typed roofline.memory_levels).
  for (const DetectedLevelRecord& l : records_of(section_of(results).memory_levels)) {
    const double reported = amount(ROOFLINE_FIELD(l, reported_bytes));
    if (static_cast<int>(amount(ROOFLINE_FIELD(l, threads))) != threads || !(reported > 0)) continue;
    const double x = plot.x.to_px(reported);
    const std::string level = cell(ROOFLINE_FIELD(l, level));
    s += svg_line(x, plot.frame.plot_bottom(), x, plot.frame.plot_bottom() - 12,
                  fmt::format(" class=\"reported-size\"{} data-bytes=\"{:.0f}\" stroke=\"{}\" stroke-width=\"2\"",
                              svg_attr("data-level", level), reported, series_colour(level)));
    s += svg_text(x + 3, plot.frame.plot_bottom() - 14, fmt::format("{} reported", level),
                  fmt::format(" class=\"reported-label\" font-size=\"10\" fill=\"{}\"", series_colour(level)));
  }
  s += "</g>\n";
  s += draw_series(plot, id, series, colours, dashed, "bandwidth-series", data, spots);
  std::vector<LegendRow> legend;
  for (const auto& [name, pts] : series) {
    legend.push_back({spots.count(name) ? name + " (spot)" : name, colours[name], dashed[name], ""});
  }
  s += svg_legend(plot, legend);
  s += "</svg>\n";
  return s;
}

namespace {

// Whether a series of `precision` is drawn (series are named "<backend> <precision>").
bool shown(const Series& series, const std::string& precision) {
  for (const auto& [name, pts] : series) {
    if (name.size() > precision.size() && name.compare(name.size() - precision.size(), precision.size(), precision) == 0) return true;
  }
  return false;
}

// One series per backend+precision at the report's thread count: (batch, metric).
std::string batch_chart(const ResultsDocument& results, const std::string& id, const std::string& title, bool latency) {
  const int threads = report_threads(results);
  Series series;
  std::map<std::string, std::string> colours, data;
  std::map<std::string, std::string> dashed;
  Extent ext;
  std::vector<std::string> backends;
  for (const PlacementRecord& p : records_of(section_of(results).placements)) {
    if (static_cast<int>(amount(ROOFLINE_FIELD(p, threads))) != threads) continue;
    const double batch = amount(ROOFLINE_FIELD(p, batch), amount(ROOFLINE_FIELD(p, n)));
    const double value = amount(ROOFLINE_FIELD(p, value)), m = amount(ROOFLINE_FIELD(p, m)), k = amount(ROOFLINE_FIELD(p, k));
    double y = value;
    if (latency) {
      y = amount(ROOFLINE_FIELD(p, latency_seconds));
      // Older files: the time of one call follows from the FLOP count of the call and the rate.
      if (!(y > 0) && m > 0 && k > 0 && batch > 0 && value > 0) y = 2.0 * m * k * batch / value;
    }
    if (!(batch > 0) || !(y > 0)) continue;
    const std::string backend = cell(ROOFLINE_FIELD(p, backend)), precision = cell(ROOFLINE_FIELD(p, precision));
    const std::string name = backend + " " + precision;
    series[name].emplace_back(batch, y);
    colours[name] = series_colour(precision);
    // Colour says the precision, the dash pattern the backend.
    static const char* kDashes[] = {"", "7 4", "2 3", "10 3 2 3"};
    auto it = std::find(backends.begin(), backends.end(), backend);
    if (it == backends.end()) it = backends.insert(backends.end(), backend);
    dashed[name] = kDashes[static_cast<std::size_t>(it - backends.begin()) % 4];
    data[name] = svg_attr("data-backend", backend) + svg_attr("data-precision", precision);
    ext.see(batch, y);
  }
  if (ext.empty()) return "";
  for (auto& [name, pts] : series) std::sort(pts.begin(), pts.end());
  if (!latency) {
    for (const std::string& precision : report_precisions(results)) {
      const ComputeCeilingRecord* c = compute_roof(section_of(results), precision, threads);
      if (c != nullptr && amount(ROOFLINE_FIELD(*c, value)) > 0 && shown(series, precision)) ext.see(ext.x_lo, amount(ROOFLINE_FIELD(*c, value)));
    }
  }
  PlotFrame frame;
  frame.width = 600;
  frame.height = 420;
  frame.right = 130;
  const LogLogPlot plot = make_log_log_plot(frame, decade_range(ext.x_lo, ext.x_hi), decade_range(ext.y_lo, ext.y_hi));
  // A target whose points name no thread count runs each on all of itself: no count in the title.
  const std::string at = threads > 0 ? fmt::format("{} at {} thread(s)", title, threads) : title;
  std::string s = svg_open_log_log(plot, id, at, "batch (columns of B)",
                                   latency ? "time per call" : "throughput", tick_plain,
                                   latency ? tick_seconds : tick_flop_rate);
  s += draw_series(plot, id, series, colours, dashed, latency ? "latency-series" : "throughput-series", data);
  if (!latency) {
    // The compute roof each precision can reach: throughput flattens as the batch passes the ridge.
    s += svg_clipped_group(id, " class=\"roofs\"");
    for (const std::string& precision : report_precisions(results)) {
      const ComputeCeilingRecord* c = compute_roof(section_of(results), precision, threads);
      if (c == nullptr || !(amount(ROOFLINE_FIELD(*c, value)) > 0) || !shown(series, precision)) continue;
      const double y = plot.y.to_px(amount(ROOFLINE_FIELD(*c, value)));
      s += svg_line(plot.frame.plot_left(), y, plot.frame.plot_right(), y,
                    fmt::format(" class=\"ceiling compute\"{} data-value=\"{:g}\" stroke=\"{}\" stroke-width=\"1\" "
                                "stroke-dasharray=\"2 3\"",
                                svg_attr("data-precision", precision), amount(ROOFLINE_FIELD(*c, value)), series_colour(precision)));
    }
    s += "</g>\n";
  }
  std::vector<LegendRow> legend;
  for (const auto& [name, pts] : series) legend.push_back({name, colours[name], dashed[name], ""});
  if (!latency) legend.push_back({"compute roof", "#999", "2 3", ""});
  s += svg_legend(plot, legend);
  s += "</svg>\n";
  return s;
}

}  // namespace

std::string throughput_chart_svg(const ResultsDocument& results, const std::string& id) {
  return batch_chart(results, id, "Throughput vs batch", false);
}

std::string latency_chart_svg(const ResultsDocument& results, const std::string& id) {
  return batch_chart(results, id, "Latency per call vs batch", true);
}

}  // namespace roofline
