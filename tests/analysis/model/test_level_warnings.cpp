// Named warnings on memory levels (issue 46, roofline/model/level_warnings.hpp): a T-thread level faster than T
// times the same level at 1 thread beyond both figures' noise is warned superlinear (rows, note), and a warned
// level's key figure carries its warning, which the gate does not trust.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "roofline/model/key_figures.hpp"
#include "roofline/model/level_warnings.hpp"
#include "roofline/model/plateaus.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
using nlohmann::json;

json row(const std::string& level, int threads, double gbps) {
  return {{"level", level}, {"kernel", "read"}, {"threads", threads}, {"value", gbps * 1.02e9},
          {"median", gbps * 1e9}, {"plateau_median", gbps * 1e9}, {"unit", "B/s"}};
}

MemoryCeilingRecord typed_row(const std::string& level, int threads, double gbps) {
  MemoryCeilingRecord r;
  r.level = level;
  r.kernel = "read";
  r.threads = threads;
  r.value = gbps * 1.02e9;
  r.median = gbps * 1e9;
  r.plateau_median = gbps * 1e9;
  r.unit = "B/s";
  return r;
}

DetectedLevelRecord level(const std::string& name, int threads) {
  DetectedLevelRecord l;
  l.level = name;
  l.threads = threads;
  return l;
}

TEST(LevelWarnings, ATwoThreadLevelFasterThanTwiceOneThreadIsWarned) {
  // Issue 46's run 1: 2-thread "DRAM" at 203 GB/s, 1-thread DRAM at 35.3 GB/s (5.8x); L2 scales by 1.9x.
  std::vector<MemoryCeilingRecord> ceilings = {typed_row("L2", 1, 150), typed_row("DRAM", 1, 35.3),
                                               typed_row("L2", 2, 285), typed_row("DRAM", 2, 203)};
  std::vector<DetectedLevelRecord> levels = {level("DRAM", 2), level("L2", 2)};
  std::vector<std::string> notes;
  warn_superlinear_levels(ceilings, levels, notes);
  EXPECT_EQ(ceilings[3].warning.value_or(""), kWarningSuperlinear);
  EXPECT_FALSE(ceilings[2].warning.has_value());
  EXPECT_FALSE(ceilings[1].warning.has_value());
  EXPECT_EQ(levels[0].warning.value_or(""), kWarningSuperlinear);
  EXPECT_FALSE(levels[1].warning.has_value());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("superlinear: 2 threads' DRAM read (203.0 GB/s) is 5.8x"), std::string::npos) << notes[0];
}

TEST(LevelWarnings, ARowWarnedAlreadyKeepsItsWarning) {
  // A level the plateaus warned first (its own named warning) is not re-marked; the note still names it.
  std::vector<MemoryCeilingRecord> ceilings = {typed_row("DRAM", 1, 35.3), typed_row("DRAM", 2, 203)};
  ceilings[1].warning = "short_plateau";
  std::vector<DetectedLevelRecord> levels = {level("DRAM", 2)};
  std::vector<std::string> notes;
  warn_superlinear_levels(ceilings, levels, notes);
  EXPECT_EQ(ceilings[1].warning.value_or(""), "short_plateau");
  EXPECT_EQ(levels[0].warning.value_or(""), kWarningSuperlinear);
  EXPECT_EQ(notes.size(), 1u);
}

TEST(LevelWarnings, AWarnedLevelsKeyFigureCarriesTheWarning) {
  json doc = {{"context", {{"schema_version", 1}}},
              {"benchmarks", json::array()},
              {"roofline", {{"schema_version", 1},
                            {"compute_ceilings", json::array()},
                            {"memory_ceilings", json::array({row("DRAM", 1, 35.3), row("DRAM", 2, 203)})},
                            {"ridge_points", json::array()},
                            {"placements", json::array()}}}};
  doc["roofline"]["memory_ceilings"][1]["warning"] = kWarningSuperlinear;
  bool seen = false;
  for (const KeyFigure& f : key_figures(testing::lenient(doc))) {
    if (f.id == "memory/DRAM/read/threads:2") {
      EXPECT_EQ(f.warning, kWarningSuperlinear);
      seen = true;
    }
    if (f.id == "memory/DRAM/read/threads:1") {
      EXPECT_TRUE(f.warning.empty());
    }
  }
  EXPECT_TRUE(seen);
}

}  // namespace
}  // namespace roofline
