// Change points (issue 59): E-divisive means over series with this machine's noise (a shared cloud VM: lognormal,
// 3% relative sd, and 1 run in 15 a 25% slower outlier), found where the level moved and nowhere else; and the
// history's use of it: the runs of the latest machine and configuration, the runs either side of a change, the
// table, the JSON and the chart's markers.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "roofline/common/errors.hpp"
#include "roofline/history/change_points.hpp"
#include "roofline/history/history.hpp"

namespace roofline {
namespace {

struct Step {
  std::size_t at = 0;   // the first run at the new level
  double size = 0.0;    // relative: -0.10 is 10% lower
};

// `n` runs of a figure at 100 (steps applied from their run on), each with lognormal noise of 3% relative sd, and an
// outlier 25% slower when the draw says so (1 in 15 on average), from a fixed-seed std::mt19937.
std::vector<double> noisy_series(std::uint32_t seed, std::size_t n, const std::vector<Step>& steps = {}) {
  std::mt19937 generator(seed);
  std::normal_distribution<double> noise(0.0, 0.03);
  std::vector<double> values;
  double level = 100.0;
  for (std::size_t i = 0; i < n; ++i) {
    for (const Step& s : steps) {
      if (s.at == i) level *= 1.0 + s.size;
    }
    double v = level * std::exp(noise(generator));
    if (generator() % 15 == 0) v *= 0.75;
    values.push_back(v);
  }
  return values;
}

// (a) A 10% step at run 20 of 40 (seed 1): exactly one change, at run 20 +- 1 (a noisy run next to the step may fall
// on either side of it), its size -10% within 3 points, significant.
TEST(ChangePoints, FindsOneTenPercentStepInThisMachinesNoise) {
  const std::vector<ChangePoint> found = find_change_points(noisy_series(1, 40, {{20, -0.10}}));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NEAR(static_cast<double>(found[0].index), 20.0, 1.0);
  EXPECT_NEAR(found[0].size, -0.10, 0.03);
  EXPECT_LE(found[0].p_value, 0.05);
  EXPECT_GT(found[0].median_before, found[0].median_after);
}

// ... and over 60 seeds, the rate: exactly that one change (at 20 +- 1, -10% +- 3 points) in at least 48 (80%; 52 with
// libstdc++'s normal distribution). The others are this noise's doing: outliers next to the step move it by 2-5
// runs, or a stretch of the noise is itself a 5% step in its half (p <= 0.05 there).
TEST(ChangePoints, FindsTheStepInMostSeriesOfThisNoise) {
  int exact = 0;
  for (std::uint32_t seed = 1; seed <= 60; ++seed) {
    const std::vector<ChangePoint> found = find_change_points(noisy_series(seed, 40, {{20, -0.10}}));
    if (found.size() == 1 && std::abs(static_cast<long>(found[0].index) - 20) <= 1 && std::fabs(found[0].size + 0.10) <= 0.03) {
      ++exact;
    }
  }
  EXPECT_GE(exact, 48);
}

// (b) The same noise without a step, 40 runs, over 50 seeds: no change in any. The permutation test alone would let
// alpha's share through as significant splits (5%: 2.5 of 50); a split of this noise is rarely a 5% step (the
// medians of two stretches of it differ by 1-2%), so the size floor drops them: the rule asserted is none at all
// (0 of 100 seeds measured; three outliers in a row, 1 series in ~100, would be a fair -25% segment).
TEST(ChangePoints, NoStepNoChangeOverFiftySeeds) {
  int with_changes = 0;
  for (std::uint32_t seed = 100; seed < 150; ++seed) {
    const std::vector<ChangePoint> found = find_change_points(noisy_series(seed, 40));
    if (!found.empty()) {
      ++with_changes;
      ADD_FAILURE() << "seed " << seed << ": change at " << found[0].index << ", " << found[0].size * 100.0 << "%";
    }
  }
  EXPECT_EQ(with_changes, 0);
}

// (c) Two steps, -10% at run 15 and +15% at run 30 of 45 (seed 3): both found, in order, each +- 1 run and its size
// within 3 points. (Over 20 seeds both are so found in 12: a step down and back up is the weak case of splitting the
// whole interval, see change_points.cpp.)
TEST(ChangePoints, FindsTwoStepsInOrder) {
  const std::vector<ChangePoint> found = find_change_points(noisy_series(3, 45, {{15, -0.10}, {30, 0.15}}));
  ASSERT_EQ(found.size(), 2u);
  EXPECT_NEAR(static_cast<double>(found[0].index), 15.0, 1.0);
  EXPECT_NEAR(static_cast<double>(found[1].index), 30.0, 1.0);
  EXPECT_NEAR(found[0].size, -0.10, 0.03);
  EXPECT_NEAR(found[1].size, 0.15, 0.03);
}

// (d) Fewer runs than two minimum segments (3 + 3): no change however large the step, and no crash on none or one.
TEST(ChangePoints, ShortSeriesHaveNone) {
  EXPECT_TRUE(find_change_points({}).empty());
  EXPECT_TRUE(find_change_points({100.0}).empty());
  EXPECT_TRUE(find_change_points({100.0, 100.0, 100.0, 50.0, 50.0}).empty());
  ChangePointOptions wide;
  wide.min_segment = 5;
  EXPECT_TRUE(find_change_points({1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0}, wide).empty());
  // A constant series: every split ties, none is significant.
  EXPECT_TRUE(find_change_points(std::vector<double>(30, 7.0)).empty());
}

// (e) The permutations have a fixed seed: the same input gives the same changes, p-values included.
TEST(ChangePoints, SameInputSameOutput) {
  const std::vector<double> series = noisy_series(7, 45, {{15, -0.10}, {30, 0.15}});
  const std::vector<ChangePoint> a = find_change_points(series), b = find_change_points(series);
  ASSERT_EQ(a.size(), b.size());
  ASSERT_FALSE(a.empty());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].index, b[i].index);
    EXPECT_EQ(a[i].size, b[i].size);
    EXPECT_EQ(a[i].p_value, b[i].p_value);
  }
}

// The size floor: a clean 3% step is significant, and listed only when the floor is below it.
TEST(ChangePoints, MinChangeDropsSmallSteps) {
  std::vector<double> series(30, 100.0);
  for (std::size_t i = 15; i < series.size(); ++i) series[i] = 103.0;
  for (std::size_t i = 0; i < series.size(); ++i) series[i] *= 1.0 + 0.001 * static_cast<double>(i % 3);  // not all ties
  ChangePointOptions any_size;
  any_size.min_change = 0.0;
  const std::vector<ChangePoint> all = find_change_points(series, any_size);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].index, 15u);
  EXPECT_NEAR(all[0].size, 0.03, 0.005);
  EXPECT_TRUE(find_change_points(series).empty());  // the default floor, 5%
}

TEST(ChangePoints, RefusesValuesThatAreNotRates) {
  EXPECT_THROW(find_change_points({1.0, 0.0, 1.0}), std::invalid_argument);
  EXPECT_THROW(find_change_points({1.0, NAN, 1.0}), std::invalid_argument);
  ChangePointOptions bad;
  bad.alpha = 1.5;
  EXPECT_THROW(find_change_points({1.0, 2.0}, bad), std::invalid_argument);
}

// The history: the latest run's machine and configuration only, each change with the runs either side of it.
HistoryRun history_run(long long id, const std::string& machine, double triad, double l1) {
  HistoryRun r;
  r.id = id;
  r.machine_id = machine;
  r.configuration_id = "config";
  r.git_revision = "rev<" + std::to_string(id) + ">";  // markup, to be escaped in the chart
  r.date = "2026-01-01T00:00:00+00:00";
  r.figures.push_back({"memory/DRAM/triad/threads:2", "DRAM triad, 2 threads", triad, "B/s", 2, "memory"});
  r.figures.push_back({"memory/L1/read/threads:2", "L1 read, 2 threads", l1, "B/s", 2, "memory"});
  return r;
}

std::vector<HistoryRun> stepped_history() {
  const std::vector<double> triad = noisy_series(3, 40, {{20, -0.10}}), l1 = noisy_series(4, 40);
  std::vector<HistoryRun> runs;
  long long id = 1;
  for (std::size_t i = 0; i < 40; ++i) {
    runs.push_back(history_run(id++, "this", triad[i] * 1e9, l1[i] * 1e9));
    if (i % 10 == 0) runs.push_back(history_run(id++, "other", 1e9, 1e9));  // another machine's runs: not in the series
  }
  runs.push_back(history_run(id++, "", 1e9, 1e9));  // a schema-1 run: no machine; the latest with one decides
  return runs;
}

TEST(HistoryChanges, FindsTheStepOfTheLatestMachineAndNamesItsRuns) {
  const std::vector<HistoryRun> runs = stepped_history();
  const HistoryChanges c = history_changes(runs, {}, ChangePointOptions{});
  EXPECT_EQ(c.machine_id, "this");
  EXPECT_EQ(c.runs, 40);
  EXPECT_EQ(c.figures, 2u);
  ASSERT_EQ(c.changes.size(), 1u);
  const HistoryChange& h = c.changes[0];
  EXPECT_EQ(h.figure, "memory/DRAM/triad/threads:2");
  EXPECT_EQ(h.series, 40u);
  EXPECT_NEAR(static_cast<double>(h.index), 20.0, 1.0);
  ASSERT_NE(h.before, nullptr);
  ASSERT_NE(h.after, nullptr);
  EXPECT_EQ(h.after->machine_id, "this");
  EXPECT_EQ(h.before->machine_id, "this");
  EXPECT_LT(h.before->id, h.after->id);

  const std::string text = render_changes_text(c);
  EXPECT_NE(text.find("DRAM triad, 2 threads"), std::string::npos) << text;
  EXPECT_NE(text.find("1 change point(s) in 1 of 2 key figure(s)"), std::string::npos) << text;
  EXPECT_EQ(text, render_changes_text(history_changes(runs, {}, ChangePointOptions{})));  // deterministic
  const nlohmann::json j = changes_to_json(c);
  EXPECT_EQ(j["changes"].size(), 1u);
  EXPECT_EQ(j["changes"][0]["after"]["run"], h.after->id);
  EXPECT_EQ(j["options"]["min_change"], 0.05);

  const std::string svg = render_history_svg(runs, c.changes);
  EXPECT_NE(svg.find("class=\"change-point\""), std::string::npos);
  EXPECT_NE(svg.find("rev&lt;"), std::string::npos);
  EXPECT_EQ(svg.find("rev<"), std::string::npos);
  EXPECT_NE(render_history_html(runs, c.changes).find("<h2>Change points</h2>"), std::string::npos);
  EXPECT_EQ(render_history_svg(runs).find("change-point"), std::string::npos);  // no changes given, no marker
}

TEST(HistoryChanges, OneFigureOrAnUnknownOne) {
  const std::vector<HistoryRun> runs = stepped_history();
  const HistoryChanges l1 = history_changes(runs, {"memory/L1/read/threads:2"}, ChangePointOptions{});
  EXPECT_EQ(l1.figures, 1u);
  EXPECT_TRUE(l1.changes.empty());
  EXPECT_NE(render_changes_text(l1).find("no change points in 1 key figure(s) over 40 run(s)"), std::string::npos);
  EXPECT_THROW(history_changes(runs, {"memory/L9/read"}, ChangePointOptions{}), InputError);
  std::vector<HistoryRun> old{history_run(1, "", 1e9, 1e9)};
  EXPECT_THROW(history_changes(old, {}, ChangePointOptions{}), InputError);
}

}  // namespace
}  // namespace roofline
