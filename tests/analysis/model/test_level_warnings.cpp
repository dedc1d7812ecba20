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

TEST(LevelWarnings, ATwoThreadLevelFasterThanTwiceOneThreadIsWarned) {
  // Issue 46's run 1: 2-thread "DRAM" at 203 GB/s, 1-thread DRAM at 35.3 GB/s (5.8x); L2 scales by 1.9x.
  std::vector<json> ceilings = {row("L2", 1, 150), row("DRAM", 1, 35.3), row("L2", 2, 285), row("DRAM", 2, 203)};
  json levels = json::array({{{"threads", 2}, {"level", "DRAM"}}, {{"threads", 2}, {"level", "L2"}}});
  json notes = json::array();
  warn_superlinear_levels(ceilings, levels, notes);
  EXPECT_EQ(ceilings[3].value("warning", ""), kWarningSuperlinear);
  EXPECT_FALSE(ceilings[2].contains("warning"));
  EXPECT_FALSE(ceilings[1].contains("warning"));
  EXPECT_EQ(levels[0].value("warning", ""), kWarningSuperlinear);
  EXPECT_FALSE(levels[1].contains("warning"));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].get<std::string>().find("superlinear: 2 threads' DRAM read (203.0 GB/s) is 5.8x"),
            std::string::npos) << notes[0];
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
