// One memory derivation for every target (issue 47): the CPU's levels and a device's come from
// derive_memory_ceilings, named and primed by each target's own facts (level_names, target_reported_levels).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "roofline/model/memory_ceilings.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/results_targets.hpp"
#include "roofline/model/roofline_section.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
using nlohmann::json;

const std::string kFile = std::string(ROOFLINE_TEST_DATA_DIR) + "/targets/two_targets.json";

// What differs between targets is read from each target's facts, never from which target it is.
TEST(Targets, EveryTargetsLevelsComeFromItsOwnFactsThroughOneDerivation) {
  const json doc = load_json_file(kFile);
  const ResultsDocument typed_doc = testing::typed(doc, kFile);
  const std::vector<RecordedTarget> targets = recorded_targets(typed_doc);
  // The CPU: a cache topology (context.machine.caches), so L1..L3 and DRAM, its caches as the run's threads see them.
  const RecordedTarget& cpu = targets.front();
  ASSERT_FALSE(cpu.caches.empty());
  EXPECT_EQ(cpu.binding, "compact");
  const LevelNames cpu_names = level_names(cpu);
  EXPECT_EQ(cpu_names.caches, (std::vector<std::string>{"L1", "L2", "L3"}));
  EXPECT_EQ(cpu_names.main, "DRAM");
  EXPECT_FALSE(target_reported_levels(cpu, 1).empty());
  // The device: its facts' names and capacities.
  const RecordedTarget* device = find_target(targets, "test:0");
  ASSERT_NE(device, nullptr);
  EXPECT_TRUE(device->caches.empty());
  const LevelNames names = level_names(*device);
  EXPECT_EQ(names.caches, std::vector<std::string>{"L2"});
  EXPECT_EQ(names.main, "HBM");
  const std::vector<ReportedLevel> reported = target_reported_levels(*device, 0);
  ASSERT_EQ(reported.size(), 1u);
  EXPECT_EQ(reported[0].name, "L2");
  EXPECT_DOUBLE_EQ(reported[0].bytes, 4.0 * 1024 * 1024);
  // A device listing main memory alone leaves room for one unlisted cache level, called "cache".
  RecordedTarget bare = *device;
  bare.memory_levels.erase(bare.memory_levels.begin());
  EXPECT_EQ(level_names(bare).caches, std::vector<std::string>{"cache"});
  EXPECT_TRUE(target_reported_levels(bare, 0).empty());
  // The device's part of the section is derive_memory_ceilings' for it, stamped with its id; its rows name no
  // thread count, and every kernel keeps the width it ran in.
  const json part = derive_memory_ceilings(target_document(typed_doc, device->id), *device);
  const json section = testing::derived_section(doc);
  std::size_t rows = 0;
  for (const json& r : section["memory_ceilings"]) {
    if (r.value("target", "") != "test:0") continue;
    ++rows;
    EXPECT_FALSE(r.contains("threads")) << r.dump();
    EXPECT_EQ(r["width"], 4) << r.dump();
  }
  EXPECT_EQ(rows, part["memory_ceilings"].size());
  for (const json& l : part["memory_levels"]) EXPECT_EQ(l["detected_from"], (json{"read", "triad"})) << l.dump();
}

}  // namespace
}  // namespace roofline
