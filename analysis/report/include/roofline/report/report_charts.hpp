// The report's SVG charts, built from a results file (the typed model, results_document.hpp): the roofline chart (ceilings, ridge points,
// GEMV/GEMM placements), bandwidth vs working set with the detected levels shaded, and throughput and
// latency per call against batch size. Each element carries class and data-* attributes (precision, level,
// value, ai, batch) so tests and the browser check can find it. A chart with no data returns "".
#pragma once

#include <string>

#include "roofline/model/results_document.hpp"
#include "roofline/report/svg_chart.hpp"

namespace roofline {

// The axes of the roofline chart for this file (what roofline_chart_svg draws with): x is arithmetic
// intensity in FLOP/byte, y is FLOP/s (OP/s for integer precisions), both log10.
LogLogPlot roofline_plot(const ResultsDocument& results);

// `id`: the SVG's id (and its clip path's), unique in a page that charts several targets. Each chart draws one
// target's part of a file (every target's by the same code): its own memory levels, innermost first, its kernels'
// curves at the width its ceilings were taken at, its points at its largest thread count (none named: all of them).
std::string roofline_chart_svg(const ResultsDocument& results, const std::string& id = "roofline-chart");
std::string bandwidth_chart_svg(const ResultsDocument& results, const std::string& id = "bandwidth-chart");
std::string throughput_chart_svg(const ResultsDocument& results, const std::string& id = "throughput-chart");
std::string latency_chart_svg(const ResultsDocument& results, const std::string& id = "latency-chart");

// The colour of a precision, memory level or backend in every chart and legend.
std::string series_colour(const std::string& name);

}  // namespace roofline
