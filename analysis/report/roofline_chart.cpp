// The roofline chart: one thread count (the largest measured, said in the title), a horizontal compute
// roof per precision and engine (the matrix engine's, AMX, drawn thicker above the vector one where both
// exist) with its theoretical peak dashed above it, a diagonal memory roof per level clipped at
// the ridge with the highest compute roof, ridge points marked with their AI, and the GEMV/GEMM points
// labelled by batch and precision. A device's chart adds its host-to-device transfer roofs (dotted), the roof
// of work offloaded with its operands on every call.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

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
using namespace report_detail;

namespace {

struct Roofs {
  int threads = 0;
  std::vector<std::pair<std::string, const ComputeCeilingRecord*>> compute;  // precision -> best ceiling per engine
  std::vector<std::pair<std::string, double>> memory;        // level -> roof bandwidth
  std::string main_memory;                                    // the target's outermost level: DRAM, HBM, global
  std::vector<std::pair<std::string, double>> transfers;     // "host_to_device pinned" -> bandwidth (devices)
  std::vector<std::pair<std::string, double>> dequant;       // block format -> its dequant-dot ceiling as FLOP/s
  std::vector<const PlacementRecord*> placements;
  double bw_max = 0.0;
  double peak_max = 0.0;
};

Roofs collect_roofs(const ResultsDocument& results) {
  Roofs r;
  r.threads = report_threads(results);
  const RooflineSection& section = section_of(results);
  for (const std::string& p : report_precisions(results)) {
    for (const char* engine : {"vector", "matrix"}) {
      const ComputeCeilingRecord* c = compute_roof(section, p, r.threads, engine);
      if (c != nullptr && amount(ROOFLINE_FIELD(*c, value)) > 0) {
        r.compute.emplace_back(p, c);
        r.peak_max = std::max(r.peak_max, amount(ROOFLINE_FIELD(*c, value)));
      }
    }
  }
  const std::vector<std::string> levels = memory_level_names(section);
  if (!levels.empty()) r.main_memory = levels.back();
  for (const std::string& level : levels) {
    const MemoryRoof m = memory_roof(section, level, r.threads);
    if (m.found() && m.value() > 0) {
      r.memory.emplace_back(level, m.value());
      r.bw_max = std::max(r.bw_max, m.value());
    }
  }
  // A device's host-to-device transfers: the roof of work whose operands come from the host on every call.
  for (const TransferCeilingRecord& t : records_of(section.transfer_ceilings)) {
    const double value = amount(ROOFLINE_FIELD(t, value));
    if (cell(ROOFLINE_FIELD(t, direction)) == "host_to_device" && value > 0) r.transfers.emplace_back(cell(ROOFLINE_FIELD(t, memory)), value);
  }
  // Quantized weights' own roofs (issue 38): each format's dequant-dot ceiling at 2 FLOP per weight
  for (const DequantCeilingRecord& d : records_of(section.dequant_ceilings)) {
    const double value = amount(ROOFLINE_FIELD(d, value));
    if (static_cast<int>(amount(ROOFLINE_FIELD(d, threads))) == r.threads && value > 0) {
      r.dequant.emplace_back(cell(ROOFLINE_FIELD(d, format)), 2.0 * value);
    }
  }
  for (const PlacementRecord& p : records_of(section.placements)) {
    if (static_cast<int>(amount(ROOFLINE_FIELD(p, threads))) == r.threads && amount(ROOFLINE_FIELD(p, ai)) > 0 &&
        amount(ROOFLINE_FIELD(p, value)) > 0) {
      r.placements.push_back(&p);
    }
  }
  return r;
}

std::string precision_unit_word(const Roofs& r) {
  bool flop = false, op = false;
  for (const auto& [p, c] : r.compute) (rate_unit_of(*c) == "OP/s" ? op : flop) = true;
  return flop && op ? "FLOP/s (OP/s for integer)" : op ? "OP/s" : "FLOP/s";
}

std::string tick_ai(double v) { return tick_plain(v); }

// Ridge points: where each level's roof meets each compute roof; the main memory's (the CPU's DRAM, a device's HBM or
// global) are labelled.
std::string ridges_svg(const Roofs& r, const LogLogPlot& plot, const std::string& id) {
  std::string s = svg_clipped_group(id, " class=\"ridges\"");
  for (const auto& [precision, c] : r.compute) {
    const double peak = amount(ROOFLINE_FIELD(*c, value));
    for (const auto& [level, bw] : r.memory) {
      const double ai = peak / bw;
      const double cx = plot.x.to_px(ai), cy = plot.y.to_px(peak);
      s += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4\" class=\"ridge\" data-precision=\"{}\" data-level=\"{}\" "
                       "data-ai=\"{:g}\" fill=\"#fff\" stroke=\"{}\" stroke-width=\"1.5\"><title>{} {} ridge: {:.3g} "
                       "FLOP/B</title></circle>\n",
                       svg_num(cx), svg_num(cy), html_escape(precision), html_escape(level), ai, series_colour(level), html_escape(precision),
                       html_escape(level), ai);
      if (level == r.main_memory) {
        s += svg_text(cx + 6, cy + 15, fmt::format("{:.3g} FLOP/B", ai),
                      fmt::format(" class=\"ridge-label\" data-precision=\"{}\" font-size=\"10\" fill=\"{}\"", html_escape(precision),
                                  series_colour(precision)));
      }
    }
  }
  s += "</g>\n";
  return s;
}

// The roofs: memory (and a device's transfers) diagonal up to the highest compute roof's ridge, compute
// horizontal with the theoretical peak dashed above.
std::string roofs_svg(const Roofs& r, const LogLogPlot& plot, const std::string& id) {
  std::string s;
  s += svg_clipped_group(id, " class=\"roofs\"");
  const double x_lo = plot.x.lo, x_hi = plot.x.hi;

  // Memory roofs: y = bw x AI from the left edge up to the ridge with the highest compute roof.
  for (const auto& [level, bw] : r.memory) {
    const double x_end = r.peak_max > 0 ? r.peak_max / bw : x_hi;
    s += svg_line(plot.x.to_px(x_lo), plot.y.to_px(bw * x_lo), plot.x.to_px(x_end), plot.y.to_px(bw * x_end),
                  fmt::format(" class=\"ceiling memory\" data-level=\"{}\" data-value=\"{:g}\" stroke=\"{}\" "
                              "stroke-width=\"2.5\"",
                              html_escape(level), bw, series_colour(level)));
  }
  // Transfer roofs (devices): y = host-to-device bandwidth x AI, dotted, for work offloaded with its operands.
  for (const auto& [memory, bw] : r.transfers) {
    const double x_end = r.peak_max > 0 ? r.peak_max / bw : x_hi;
    s += svg_line(plot.x.to_px(x_lo), plot.y.to_px(bw * x_lo), plot.x.to_px(x_end), plot.y.to_px(bw * x_end),
                  fmt::format(" class=\"ceiling transfer\" data-memory=\"{}\" data-value=\"{:g}\" stroke=\"#888\" "
                              "stroke-width=\"1.5\" stroke-dasharray=\"{}\"",
                              html_escape(memory), bw, memory == "pinned" ? "2 3" : "6 3 2 3"));
  }
  // Compute roofs: horizontal from where the fastest memory roof meets them; theoretical dashed above.
  for (const auto& [precision, c] : r.compute) {
    const double peak = amount(ROOFLINE_FIELD(*c, value)), theo = amount(ROOFLINE_FIELD(*c, theoretical));
    const double x_start = r.bw_max > 0 ? peak / r.bw_max : x_lo;
    const std::string colour = series_colour(precision);
    const std::string engine = cell(ROOFLINE_FIELD(*c, engine), "vector");
    s += svg_line(plot.x.to_px(x_start), plot.y.to_px(peak), plot.x.to_px(x_hi), plot.y.to_px(peak),
                  fmt::format(" class=\"ceiling compute\"{}{}{} data-precision=\"{}\" data-value=\"{:g}\" stroke=\"{}\" "
                              "stroke-width=\"{}\"",
                              engine == "matrix" ? " data-matrix=\"1\"" : "", svg_attr("data-isa", cell(ROOFLINE_FIELD(*c, isa))),
                              svg_attr("data-engine", engine), html_escape(precision), peak, colour,
                              engine == "matrix" ? "5" : "2.5"));
    if (theo > 0) {
      const double tx = r.bw_max > 0 ? theo / r.bw_max : x_lo;
      s += svg_line(plot.x.to_px(tx), plot.y.to_px(theo), plot.x.to_px(x_hi), plot.y.to_px(theo),
                    fmt::format(" class=\"ceiling theoretical\" data-precision=\"{}\" data-value=\"{:g}\" stroke=\"{}\" "
                                "stroke-width=\"1.5\" stroke-dasharray=\"7 5\"",
                                html_escape(precision), theo, colour));
    }
  }
  // Dequant-dot roofs: horizontal, dotted, in the compute roofs' x range.
  for (const auto& [format, v] : r.dequant) {
    const double x_start = r.bw_max > 0 ? v / r.bw_max : x_lo;
    s += svg_line(plot.x.to_px(x_start), plot.y.to_px(v), plot.x.to_px(x_hi), plot.y.to_px(v),
                  fmt::format(" class=\"ceiling dequant\" data-format=\"{}\" data-value=\"{:g}\" stroke=\"{}\" "
                              "stroke-width=\"1.5\" stroke-dasharray=\"1 3\"",
                              html_escape(format), v, series_colour(format)));
  }
  s += "</g>\n";
  return s;
}

}  // namespace

std::string series_colour(const std::string& name) {
  static const std::map<std::string, std::string> kColours{
      {"fp64", "#1f77b4"}, {"fp32", "#d62728"}, {"bf16", "#2ca02c"}, {"fp16", "#9467bd"}, {"int8", "#ff7f0e"},
      {"L1", "#17becf"},   {"L2", "#8c564b"},   {"L3", "#e377c2"},   {"DRAM", "#555555"},
      {"eigen", "#1f77b4"}, {"onednn", "#d62728"}, {"openblas", "#2ca02c"},
      {"copy", "#1f77b4"}, {"scale", "#ff7f0e"}, {"add", "#2ca02c"}, {"triad", "#d62728"}, {"read", "#9467bd"},
      {"write", "#8c564b"}, {"copy_nt", "#e377c2"}, {"triad_nt", "#7f7f7f"}, {"write_nt", "#bcbd22"}};
  const auto it = kColours.find(name);
  if (it != kColours.end()) return it->second;
  // Anything else: a stable colour from the name.
  static const char* kFallback[] = {"#17becf", "#bcbd22", "#7f7f7f", "#8c564b", "#e377c2"};
  std::size_t h = 0;
  for (char c : name) h = h * 31 + static_cast<unsigned char>(c);
  return kFallback[h % 5];
}

LogLogPlot roofline_plot(const ResultsDocument& results) {
  const Roofs r = collect_roofs(results);
  double ai_lo = std::numeric_limits<double>::max(), ai_hi = 0.0;
  double y_lo = std::numeric_limits<double>::max(), y_hi = 0.0;
  auto see_ai = [&](double ai) { if (ai > 0) { ai_lo = std::min(ai_lo, ai); ai_hi = std::max(ai_hi, ai); } };
  auto see_y = [&](double y) { if (y > 0) { y_lo = std::min(y_lo, y); y_hi = std::max(y_hi, y); } };
  for (const auto& [p, c] : r.compute) {
    see_y(amount(ROOFLINE_FIELD(*c, value)));
    see_y(amount(ROOFLINE_FIELD(*c, theoretical)));
    for (const auto& [level, bw] : r.memory) see_ai(amount(ROOFLINE_FIELD(*c, value)) / bw);
    for (const auto& [memory, bw] : r.transfers) see_ai(amount(ROOFLINE_FIELD(*c, value)) / bw);
  }
  for (const auto& [format, v] : r.dequant) see_y(v);
  for (const PlacementRecord* p : r.placements) {
    see_ai(amount(ROOFLINE_FIELD(*p, ai)));
    see_y(amount(ROOFLINE_FIELD(*p, value)));
  }
  if (ai_hi == 0.0) { ai_lo = 0.1; ai_hi = 10.0; }
  if (y_hi == 0.0) { y_lo = 1e9; y_hi = 1e12; }
  // Margins: a factor of 3 around the intensities, and one decade under the lowest value so the memory
  // roofs can be seen rising to their ridges.
  PlotFrame frame;
  frame.width = 1000;
  frame.height = 620;
  frame.right = 210;
  return make_log_log_plot(frame, decade_range(ai_lo / 3.0, ai_hi * 3.0, 2), decade_range(y_lo / 10.0, y_hi * 1.5, 2));
}

std::string roofline_chart_svg(const ResultsDocument& results, const std::string& id) {
  const Roofs r = collect_roofs(results);
  if (r.compute.empty() && r.memory.empty() && r.placements.empty()) return "";
  const LogLogPlot plot = roofline_plot(results);
  const std::string unit_word = precision_unit_word(r);
  // A target other than the CPU has no thread counts: its kernels run on the whole device.
  const std::string title = r.threads > 0 ? fmt::format("Roofline at {} thread(s), the largest measured", r.threads)
                                          : std::string("Roofline of the whole device");
  std::string s = svg_open_log_log(plot, id, title,
                                   "arithmetic intensity (FLOP/byte; OP/byte for integer)", unit_word, tick_ai,
                                   tick_flop_rate);
  s.insert(s.find('>', s.find("<svg")), fmt::format(" data-threads=\"{}\"", r.threads));
  s += roofs_svg(r, plot, id);

  s += ridges_svg(r, plot, id);

  // GEMV/GEMM points, shaped by backend, coloured by precision.
  s += svg_clipped_group(id, " class=\"placements\"");
  std::vector<std::string> backends, labelled;
  bool any_roof_now = false;
  for (const PlacementRecord* p : r.placements) {
    const std::string backend = cell(ROOFLINE_FIELD(*p, backend)), precision = cell(ROOFLINE_FIELD(*p, precision));
    auto it = std::find(backends.begin(), backends.end(), backend);
    const std::size_t shape = static_cast<std::size_t>(it - backends.begin());
    if (it == backends.end()) backends.push_back(backend);
    const double cx = plot.x.to_px(amount(ROOFLINE_FIELD(*p, ai))), cy = plot.y.to_px(amount(ROOFLINE_FIELD(*p, value)));
    const std::string data = fmt::format(
        " class=\"point placement\"{}{} data-batch=\"{}\" data-ai=\"{:g}\" data-value=\"{:g}\" fill=\"{}\" "
        "stroke=\"#222\" stroke-width=\"0.7\"",
        svg_attr("data-backend", backend), svg_attr("data-precision", precision), html_escape(cell(ROOFLINE_FIELD(*p, batch))), amount(ROOFLINE_FIELD(*p, ai)),
        amount(ROOFLINE_FIELD(*p, value)), series_colour(precision));
    // The roof now (roof_now.hpp): a dashed tick at the point's AI where the probes around it put its roof,
    // joined to the point, beside the run's roof lines; both fractions in the tooltip.
    static const PlacementRoofNow kNotProbed;
    const PlacementRoofNow& now = p->roof_now ? *p->roof_now : kNotProbed;
    std::string fractions;
    if (amount(ROOFLINE_FIELD(now, attainable)) > 0.0) {
      fractions = fmt::format("; {:.0f}% of roof", 100.0 * amount(ROOFLINE_FIELD(*p, efficiency)));
      any_roof_now = true;
      const double ny = plot.y.to_px(amount(ROOFLINE_FIELD(now, attainable)));
      fractions += fmt::format(", {:.0f}% of roof now ({}){}", 100.0 * amount(ROOFLINE_FIELD(now, efficiency)),
                               format_si(amount(ROOFLINE_FIELD(now, bandwidth)), "B/s"),
                               now.moved.value_or(false) ? ", memory moved while measuring" : "");
      s += fmt::format("<line class=\"roof-now-link\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\" "
                       "stroke-opacity=\"0.35\" stroke-width=\"1\"/>\n"
                       "<line class=\"roof-now\" x1=\"{4}\" y1=\"{2}\" x2=\"{5}\" y2=\"{2}\" stroke=\"{3}\" "
                       "stroke-width=\"2\" stroke-dasharray=\"2 2\" data-attainable-now=\"{6:g}\"/>\n",
                       svg_num(cx), svg_num(cy), svg_num(ny), series_colour(precision), svg_num(cx - 7), svg_num(cx + 7),
                       amount(ROOFLINE_FIELD(now, attainable)));
    }
    const std::string tip = "<title>" + html_escape(fmt::format("{} {} batch {}: {} at {:.3g} FLOP/B ({}{})", backend,
                                        precision, cell(ROOFLINE_FIELD(*p, batch)), format_si(amount(ROOFLINE_FIELD(*p, value)), rate_unit_of(*p)),
                                        amount(ROOFLINE_FIELD(*p, ai)), cell(ROOFLINE_FIELD(*p, bound)), fractions)) + "</title>";
    if (shape % 3 == 0) {
      s += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4.5\"{}>{}</circle>\n", svg_num(cx), svg_num(cy), data, tip);
    } else if (shape % 3 == 1) {
      s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"8\" height=\"8\"{} data-cx=\"{}\" data-cy=\"{}\">{}</rect>\n",
                       svg_num(cx - 4), svg_num(cy - 4), data, svg_num(cx), svg_num(cy), tip);
    } else {
      s += fmt::format("<path d=\"M{} {} L{} {} L{} {} Z\"{} data-cx=\"{}\" data-cy=\"{}\">{}</path>\n", svg_num(cx),
                       svg_num(cy - 5), svg_num(cx + 5), svg_num(cy + 4), svg_num(cx - 5), svg_num(cy + 4), data,
                       svg_num(cx), svg_num(cy), tip);
    }
    // One label per precision and batch (the backends' points of one batch sit close together).
    const std::string label = fmt::format("b{} {}", cell(ROOFLINE_FIELD(*p, batch)), precision);
    if (std::find(labelled.begin(), labelled.end(), label) == labelled.end()) {
      labelled.push_back(label);
      s += svg_text(cx + 7, cy + 12, label, " class=\"point-label\" font-size=\"9\" fill=\"#333\"");
    }
  }
  s += "</g>\n";

  std::vector<LegendRow> legend;
  for (const auto& [precision, c] : r.compute) {
    const bool matrix = cell(ROOFLINE_FIELD(*c, engine), "vector") == "matrix";
    // The ISA that reached it, where the ceiling names one (a device's name none: no empty brackets).
    const std::string isa = cell(ROOFLINE_FIELD(*c, isa));
    legend.push_back({fmt::format("{}{} {}{}", precision, matrix ? " matrix" : "", format_si(amount(ROOFLINE_FIELD(*c, value)), rate_unit_of(*c)),
                                  isa.empty() ? "" : " (" + isa + ")"),
                      series_colour(precision), "", ""});
  }
  for (const auto& [format, v] : r.dequant) {
    legend.push_back({fmt::format("{} dequant-dot {} (2 FLOP/weight)", format, format_si(v, "FLOP/s")), series_colour(format), "1 3", ""});
  }
  legend.push_back({"theoretical peak", "#666", "7 5", ""});
  legend.push_back({"ridge point", "#666", "", "circle"});
  for (const auto& [level, bw] : r.memory) legend.push_back({std::string(level) + " " + format_si(bw, "B/s"), series_colour(level), "", ""});
  for (const auto& [memory, bw] : r.transfers) {
    legend.push_back({fmt::format("host-to-device {} {} (operands sent per call)", memory, format_si(bw, "B/s")), "#888",
                      memory == "pinned" ? "2 3" : "6 3 2 3", ""});
  }
  const char* shapes[] = {"circle", "square", "triangle"};
  for (std::size_t i = 0; i < backends.size(); ++i) legend.push_back({backends[i], "#888", "", shapes[i % 3]});
  if (any_roof_now) legend.push_back({"roof now (probes around the point)", "#888", "2 2", ""});
  s += svg_legend(plot, legend);
  s += "</svg>\n";
  return s;
}

}  // namespace roofline
