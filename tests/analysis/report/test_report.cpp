// Reports rendered from small hand-made results files: the roofline SVG's geometry matches the model (a
// compute roof at its FLOP/s, a memory roof on y = bandwidth x AI, a ridge at peak / bandwidth, a point at
// its (AI, FLOP/s) in log space), strings from the file are escaped, missing sections do not crash, the
// text summary and CSV hold what they promise.
#include <cmath>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "roofline/report/report.hpp"
#include "roofline/report/report_charts.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/results_document.hpp"
#include "roofline/report/spec.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;
using testing::typed;
const fs::path kData = ROOFLINE_TEST_DATA_DIR;

// All start tags of `tag` elements whose class attribute is exactly `cls`.
std::vector<std::string> elements(const std::string& svg, const std::string& tag, const std::string& cls) {
  std::vector<std::string> out;
  const std::regex re("<" + tag + "\\b[^>]*class=\"" + cls + "\"[^>]*>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it) out.push_back(it->str());
  return out;
}

std::string attr(const std::string& element, const std::string& name) {
  std::smatch m;
  if (!std::regex_search(element, m, std::regex("\\s" + name + "=\"([^\"]*)\""))) return "";
  return m[1].str();
}
double num_attr(const std::string& element, const std::string& name) { return std::stod(attr(element, name)); }

// The chart's own axis mapping, recomputed here from the data-* attributes of the <svg> element so the test
// does not reuse the code under test.
struct Mapping {
  double x_min, x_max, y_min, y_max, left, right, top, bottom;
  explicit Mapping(const std::string& svg) {
    std::smatch m;
    std::regex_search(svg, m, std::regex("<svg[^>]*>"));
    const std::string e = m.str();
    x_min = num_attr(e, "data-x-min"); x_max = num_attr(e, "data-x-max");
    y_min = num_attr(e, "data-y-min"); y_max = num_attr(e, "data-y-max");
    left = num_attr(e, "data-plot-left"); right = num_attr(e, "data-plot-right");
    top = num_attr(e, "data-plot-top"); bottom = num_attr(e, "data-plot-bottom");
  }
  [[nodiscard]] double x(double ai) const {
    return left + (std::log10(ai) - std::log10(x_min)) / (std::log10(x_max) - std::log10(x_min)) * (right - left);
  }
  [[nodiscard]] double y(double v) const {
    return bottom - (std::log10(v) - std::log10(y_min)) / (std::log10(y_max) - std::log10(y_min)) * (bottom - top);
  }
  [[nodiscard]] double ai_at(double px) const {
    return std::pow(10.0, std::log10(x_min) + (px - left) / (right - left) * (std::log10(x_max) - std::log10(x_min)));
  }
};

constexpr double kPx = 0.02;  // coordinates are printed with 2 decimals

// report_minimal.json: a compute roof of 1e11 FLOP/s, an L1 roof of 1e11 B/s and a DRAM roof of 1e10 B/s.
constexpr double kMinimalPeak = 1e11;
double minimal_bandwidth(const std::string& element) { return attr(element, "data-level") == "DRAM" ? 1e10 : 1e11; }

class ReportOfMinimal : public ::testing::Test {
 protected:
  ResultsDocument results = load_results_document(kData / "report_minimal.json");
  std::string svg = roofline_chart_svg(results);
};

TEST_F(ReportOfMinimal, AxesSpanWholeDecadesAroundTheData) {
  const Mapping m(svg);
  EXPECT_DOUBLE_EQ(m.x_min, 0.1);   // ridges at 1 and 10, point at 2: /3 and x3, to decades
  EXPECT_DOUBLE_EQ(m.x_max, 100.0);
  EXPECT_DOUBLE_EQ(m.y_min, 1e9);   // lowest value 10 GFLOP/s, one decade under it
  EXPECT_DOUBLE_EQ(m.y_max, 1e12);
  EXPECT_NE(svg.find(">1 GFLOP/s</text>"), std::string::npos);
  EXPECT_NE(svg.find(">100 GFLOP/s</text>"), std::string::npos);
  EXPECT_NE(svg.find(">0.1</text>"), std::string::npos);
  EXPECT_NE(svg.find(">10</text>"), std::string::npos);
  EXPECT_NE(svg.find("Roofline at 1 thread(s)"), std::string::npos);
}

TEST_F(ReportOfMinimal, ComputeRoofSitsAtItsPeakWithTheoreticalDashedAbove) {
  const Mapping m(svg);
  const auto compute = elements(svg, "line", "ceiling compute");
  ASSERT_EQ(compute.size(), 1u);
  EXPECT_EQ(attr(compute[0], "data-precision"), "fp32");
  EXPECT_NEAR(num_attr(compute[0], "y1"), m.y(1e11), kPx);
  EXPECT_NEAR(num_attr(compute[0], "y2"), m.y(1e11), kPx);
  EXPECT_NEAR(num_attr(compute[0], "x1"), m.x(1.0), kPx);  // starts where the L1 roof meets it: 1e11 / 1e11
  EXPECT_NEAR(num_attr(compute[0], "x2"), m.right, kPx);
  const auto theo = elements(svg, "line", "ceiling theoretical");
  ASSERT_EQ(theo.size(), 1u);
  EXPECT_NEAR(num_attr(theo[0], "y1"), m.y(2e11), kPx);
  EXPECT_LT(num_attr(theo[0], "y1"), num_attr(compute[0], "y1"));  // above
  EXPECT_EQ(attr(theo[0], "stroke-dasharray").empty(), false);
}

TEST_F(ReportOfMinimal, MemoryRoofsLieOnBandwidthTimesAiAndStopAtTheRidge) {
  const Mapping m(svg);
  const auto memory = elements(svg, "line", "ceiling memory");
  ASSERT_EQ(memory.size(), 2u);
  for (const std::string& line : memory) {
    const double bw = minimal_bandwidth(line);
    EXPECT_DOUBLE_EQ(num_attr(line, "data-value"), bw);
    for (const char* end : {"1", "2"}) {
      const double ai = m.ai_at(num_attr(line, std::string("x") + end));
      EXPECT_NEAR(num_attr(line, std::string("y") + end), m.y(bw * ai), 0.05) << line;
    }
    // Clipped at the ridge with the compute roof: ends at (peak / bw, peak).
    EXPECT_NEAR(num_attr(line, "x2"), m.x(1e11 / bw), kPx);
    EXPECT_NEAR(num_attr(line, "y2"), m.y(1e11), kPx);
  }
}

TEST_F(ReportOfMinimal, RidgePointsSitAtPeakOverBandwidth) {
  const Mapping m(svg);
  const auto ridges = elements(svg, "circle", "ridge");
  ASSERT_EQ(ridges.size(), 2u);
  for (const std::string& r : ridges) {
    const double expected_ai = kMinimalPeak / minimal_bandwidth(r);  // 10 for DRAM, 1 for L1
    EXPECT_DOUBLE_EQ(num_attr(r, "data-ai"), expected_ai);
    EXPECT_NEAR(num_attr(r, "cx"), m.x(expected_ai), kPx);
    EXPECT_NEAR(num_attr(r, "cy"), m.y(1e11), kPx);
  }
  EXPECT_NE(svg.find(">10 FLOP/B</text>"), std::string::npos);  // the DRAM ridge is labelled with its AI
}

TEST_F(ReportOfMinimal, PlacementSitsAtItsAiAndFlops) {
  const Mapping m(svg);
  const auto points = elements(svg, "circle", "point placement");
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(attr(points[0], "data-backend"), "eigen");
  EXPECT_EQ(attr(points[0], "data-batch"), "4");
  EXPECT_NEAR(num_attr(points[0], "cx"), m.x(2.0), kPx);
  EXPECT_NEAR(num_attr(points[0], "cy"), m.y(1e10), kPx);
  EXPECT_NE(svg.find(">b4 fp32</text>"), std::string::npos);
  EXPECT_NE(svg.find("class=\"legend\""), std::string::npos);
}

TEST_F(ReportOfMinimal, HtmlIsSelfContainedWithAllCharts) {
  const std::string html = render_html_report(results);
  EXPECT_EQ(html.rfind("<!doctype html>", 0), 0u);
  for (const char* id : {"roofline-chart", "bandwidth-chart", "throughput-chart", "latency-chart", "table-machine",
                         "table-compute", "table-memory", "table-placements", "table-conventions"}) {
    EXPECT_NE(html.find(std::string("id=\"") + id + "\""), std::string::npos) << id;
  }
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // only the SVG namespace
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(elements(html, "rect", "level-band").size(), 2u);
}

TEST(Report, EscapesEveryStringFromTheFile) {
  const ResultsDocument results = load_results_document(kData / "report_xss.json");
  const Spec spec = load_spec(kData / "spec_test_cpu.json");
  for (const std::string& out : {render_html_report(results, spec), render_svg_chart(results)}) {
    EXPECT_EQ(out.find("<script"), std::string::npos);
    EXPECT_EQ(out.find("alert(1)</"), std::string::npos);
  }
  const std::string html = render_html_report(results, spec);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("a &amp; b &quot;quoted&quot; &#39;single&#39;"), std::string::npos);
}

TEST(Report, MissingSectionsGiveNotesNotCrashes) {
  json results = load_results(kData / "report_minimal.json");
  for (const char* key : {"compute_ceilings", "memory_ceilings", "ridge_points", "placements"}) results["roofline"][key] = json::array();
  results["benchmarks"] = json::array();
  results["context"].erase("machine");
  const std::string html = render_html_report(typed(results));
  EXPECT_NE(html.find("No ceilings or placements in this file"), std::string::npos);
  EXPECT_NE(html.find("No bandwidth benchmarks in this file"), std::string::npos);
  EXPECT_NE(render_text_summary(typed(results)).find("No compute ceilings in this file."), std::string::npos);
  // A document with nothing at all (no context facts, no benchmarks, no roofline section).
  EXPECT_NO_THROW(render_html_report(ResultsDocument{}));
  EXPECT_NO_THROW(render_text_summary(ResultsDocument{}));
  EXPECT_NO_THROW(render_csv(ResultsDocument{}));
}

TEST(Report, TextSummaryHasTheTablesWithUnits) {
  const ResultsDocument results = load_results_document(kData / "report_full.json");
  const std::string text = render_text_summary(results, load_spec(kData / "spec_test_cpu.json"));
  for (const char* title : {"Machine", "Compute ceilings", "Memory ceilings", "Memory levels", "GEMV/GEMM placements",
                            "Crossovers", "Best backend", "Advertised vs measured", "Notes", "Counting conventions"}) {
    EXPECT_NE(text.find(title), std::string::npos) << title;
  }
  EXPECT_NE(text.find("not supported"), std::string::npos);    // compute_table row with value null
  EXPECT_NE(text.find("255 GFLOP/s"), std::string::npos);      // fp32 at 2 threads
  EXPECT_NE(text.find("25.0 GB/s"), std::string::npos);        // DRAM read at 2 threads
  EXPECT_NE(text.find("hwloc"), std::string::npos);            // facts carry their source
  EXPECT_NE(text.find("16 KiB .. 64 KiB"), std::string::npos);  // L1 working-set range
}

TEST(Report, CsvHasOneRowPerBenchmarkEntryWithCounters) {
  const ResultsDocument results = load_results_document(kData / "report_full.json");
  const std::string csv = render_csv(results);
  const auto lines = std::count(csv.begin(), csv.end(), '\n');
  EXPECT_EQ(static_cast<std::size_t>(lines), results.benchmarks.size() + 1);
  const std::string header = csv.substr(0, csv.find('\n'));
  for (const char* col : {"name", "bytes_per_second", "flop_per_second", "op_per_second", "working_set_bytes",
                          "latency_seconds", "label_suite", "label_kernel", "label_batch"}) {
    EXPECT_NE(header.find(col), std::string::npos) << col;
  }
}

TEST(Report, CsvQuotesFieldsWithSeparators) {
  ResultsDocument results;
  BenchmarkEntry entry;
  entry.name = "a,\"b\"";
  entry.real_time = 1.5;
  results.benchmarks.push_back(entry);
  const std::string csv = render_csv(results);
  EXPECT_NE(csv.find("\"a,\"\"b\"\"\""), std::string::npos) << csv;
}

TEST(Report, BandwidthChartDrawsSweptCurvesSpotMarkersBandsAndReportedSizes) {
  json results = load_results(kData / "report_full.json");
  // A spot kernel (the quick profile's copy: one size per level) beside the swept read and triad curves.
  for (double ws : {16384.0, 1048576.0, 268435456.0}) {
    results["benchmarks"].push_back({{"name", "bandwidth/copy/x_max"}, {"run_type", "aggregate"},
                                     {"aggregate_name", "max"}, {"bytes_per_second", 1e11},
                                     {"working_set_bytes", ws},
                                     {"labels", {{"suite", "bandwidth"}, {"kernel", "copy"}, {"threads", 2}}}});
  }
  results["roofline"]["memory_levels"] = json::array({{{"threads", 2}, {"level", "L2"}, {"reported_bytes", 4194304}},
                                                      {{"threads", 1}, {"level", "L2"}, {"reported_bytes", 2097152}}});
  const std::string svg = bandwidth_chart_svg(typed(results));
  const auto spots = elements(svg, "rect", "spot");
  ASSERT_EQ(spots.size(), 3u);
  EXPECT_EQ(attr(spots[0], "data-kernel"), "copy");
  for (const std::string& line : elements(svg, "polyline", "series")) EXPECT_NE(attr(line, "data-kernel"), "copy");
  EXPECT_FALSE(elements(svg, "polyline", "series").empty());
  // The reported sizes for the report's thread count (2) are ticks; the 1-thread one is not drawn.
  const auto ticks = elements(svg, "line", "reported-size");
  ASSERT_EQ(ticks.size(), 1u);
  EXPECT_EQ(attr(ticks[0], "data-level"), "L2");
  EXPECT_EQ(num_attr(ticks[0], "data-bytes"), 4194304);
  EXPECT_NE(svg.find("copy 2t (spot)"), std::string::npos);
}

}  // namespace
}  // namespace roofline
