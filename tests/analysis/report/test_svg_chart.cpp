// The log-log plotting helper: the axis mapping is exact in log space, decade ranges and ticks are whole
// powers of ten, and text from files is escaped.
#include <cmath>

#include <gtest/gtest.h>

#include "roofline/report/html_escape.hpp"
#include "roofline/report/svg_chart.hpp"

namespace roofline {
namespace {

TEST(LogAxis, MapsDecadesLinearlyInLogSpace) {
  const LogAxis x{0.1, 1000.0, 100.0, 500.0};  // 4 decades over 400 px
  EXPECT_DOUBLE_EQ(x.to_px(0.1), 100.0);
  EXPECT_DOUBLE_EQ(x.to_px(1.0), 200.0);
  EXPECT_DOUBLE_EQ(x.to_px(1000.0), 500.0);
  EXPECT_NEAR(x.to_px(std::sqrt(10.0)), 250.0, 1e-9);  // half a decade
  EXPECT_NEAR(x.from_px(x.to_px(42.0)), 42.0, 1e-9);
}

TEST(LogAxis, YAxisGrowsUpwards) {
  const LogAxis y{1e9, 1e12, 500.0, 200.0};  // bottom 500, top 200
  EXPECT_DOUBLE_EQ(y.to_px(1e9), 500.0);
  EXPECT_DOUBLE_EQ(y.to_px(1e12), 200.0);
  EXPECT_NEAR(y.to_px(1e11), 300.0, 1e-9);
  EXPECT_LT(y.to_px(2e11), y.to_px(1e11));
}

TEST(DecadeRange, ExpandsToWholeDecades) {
  auto [lo, hi] = decade_range(0.3, 42.0);
  EXPECT_DOUBLE_EQ(lo, 0.1);
  EXPECT_DOUBLE_EQ(hi, 100.0);
  std::tie(lo, hi) = decade_range(10.0, 100.0);  // exact powers do not open an extra decade
  EXPECT_DOUBLE_EQ(lo, 10.0);
  EXPECT_DOUBLE_EQ(hi, 100.0);
  std::tie(lo, hi) = decade_range(5.0, 5.0, 2);  // at least two decades
  EXPECT_NEAR(std::log10(hi) - std::log10(lo), 2.0, 1e-12);
}

TEST(DecadeTicks, ArePowersOfTenInsideTheRange) {
  const auto ticks = decade_ticks(0.01, 100.0);
  ASSERT_EQ(ticks.size(), 5u);
  EXPECT_DOUBLE_EQ(ticks.front(), 0.01);
  EXPECT_DOUBLE_EQ(ticks.back(), 100.0);
}

TEST(TickLabels, AreReadable) {
  EXPECT_EQ(tick_plain(0.1), "0.1");
  EXPECT_EQ(tick_plain(10.0), "10");
  EXPECT_EQ(tick_flop_rate(1e9), "1 GFLOP/s");
  EXPECT_EQ(tick_flop_rate(1e11), "100 GFLOP/s");
  EXPECT_EQ(tick_byte_rate(1e10), "10 GB/s");
  EXPECT_EQ(tick_seconds(1e-3), "1 ms");
  EXPECT_EQ(tick_seconds(1e-7), "100 ns");
}

TEST(HtmlEscape, EscapesMarkupAndQuotes) {
  EXPECT_EQ(html_escape("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(html_escape("a & \"b\" 'c'"), "a &amp; &quot;b&quot; &#39;c&#39;");
  EXPECT_EQ(svg_text(1, 2, "<b>", ""), "<text x=\"1.00\" y=\"2.00\">&lt;b&gt;</text>\n");
  EXPECT_EQ(svg_attr("data-x", "\"><script>"), " data-x=\"&quot;&gt;&lt;script&gt;\"");
}

}  // namespace
}  // namespace roofline
