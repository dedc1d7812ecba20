// Which target a typed record belongs to and a target's memory facts (issue 47): the results model's answers
// (results_targets.hpp), the one place that says what a record without a target means and where the host CPU's
// memory comes from; they agree with the file's recorded targets (recorded_targets) on every recorded run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "roofline/model/results.hpp"
#include "roofline/model/results_targets.hpp"
#include "support/recorded_files.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
using nlohmann::json;
using testing::typed;

const std::string kTwoTargets = std::string(ROOFLINE_TEST_DATA_DIR) + "/targets/two_targets.json";
const std::string kOld = std::string(ROOFLINE_TEST_DATA_DIR) + "/report_full.json";
const std::string kHost = "the run's machine facts (context.machine)";

TEST(TargetOf, ARecordWithoutATargetIsTheHostCpus) {
  MemoryCeilingRecord m;
  EXPECT_EQ(target_of(m), "cpu");
  m.target = "test:0";
  EXPECT_EQ(target_of(m), "test:0");
  PlacementRecord p;
  EXPECT_EQ(target_of(p), kCpuTargetId);
  BenchmarkEntry e;
  EXPECT_EQ(target_of(e), "cpu");  // no labels
  e.labels = EntryLabels{};
  EXPECT_EQ(target_of(e), "cpu");  // labels without a target
  e.labels->target = "gpu:1";
  EXPECT_EQ(target_of(e), "gpu:1");
  // An entry's own `target` (kept in extra by the lenient reader) comes first, as entry_target reads a table kept as JSON.
  e.extra["target"] = "opencl:0";
  EXPECT_EQ(target_of(e), "opencl:0");
  EXPECT_EQ(target_of(e), entry_target(to_json(e)));
}

TEST(TargetOf, ASectionIsItsFirstMemoryCeilingsTarget) {
  RooflineSection s;
  EXPECT_EQ(target_of(s), "cpu");  // no memory ceilings: the host's
  s.memory_ceilings.emplace();
  EXPECT_EQ(target_of(s), "cpu");
  s.memory_ceilings->push_back({});
  s.memory_ceilings->front().target = "test:0";
  s.memory_ceilings->push_back({});
  EXPECT_EQ(target_of(s), "test:0");
}

TEST(TargetOf, EveryTypedEntryAgreesWithTheJsonView) {
  const json doc = load_json_file(kTwoTargets);
  const ResultsDocument d = typed(doc);
  ASSERT_EQ(d.benchmarks.size(), doc["benchmarks"].size());
  for (std::size_t i = 0; i < d.benchmarks.size(); ++i) EXPECT_EQ(target_of(d.benchmarks[i]), entry_target(doc["benchmarks"][i]));
}

TEST(TargetMemoryFacts, TheHostCpuHasTheHostsMemoryEvenWhereTheTargetsListIt) {
  const ResultsDocument d = typed(load_json_file(kTwoTargets));
  const TargetMemoryFacts cpu = target_memory_facts(d.context, "cpu");
  EXPECT_EQ(cpu.level_names, (std::vector<std::string>{"L1", "L2", "DRAM"}));  // its listed levels
  EXPECT_EQ(cpu.total_bytes, static_cast<double>(*d.context.machine->memory_total_bytes));
  EXPECT_EQ(cpu.source, kHost);
  const TargetMemoryFacts dev = target_memory_facts(d.context, "test:0");
  EXPECT_EQ(dev.level_names, (std::vector<std::string>{"L2", "HBM"}));
  EXPECT_EQ(dev.total_bytes, 85899345920.0);
  EXPECT_EQ(dev.available_bytes, 80530636800.0);
  EXPECT_EQ(dev.source, "context.targets[test:0]");
}

TEST(TargetMemoryFacts, AnUnlistedCpuHasTheHostsLevelsAnUnlistedDeviceNothing) {
  const ResultsDocument d = typed(load_json_file(kOld));
  const TargetMemoryFacts cpu = target_memory_facts(d.context, "cpu");
  EXPECT_EQ(cpu.level_names, (std::vector<std::string>{"L1", "L2", "L3", "DRAM"}));
  EXPECT_EQ(cpu.source, kHost);
  const TargetMemoryFacts dev = target_memory_facts(d.context, "gpu:9");
  EXPECT_TRUE(dev.level_names.empty());
  EXPECT_EQ(dev.total_bytes, 0.0);
  EXPECT_EQ(dev.available_bytes, 0.0);
  EXPECT_EQ(dev.source, "context.targets[gpu:9]");
}

TEST(TargetMemoryFacts, AMemoryFigureWrittenAsANonIntegerIsRead) {
  json doc = load_json_file(kTwoTargets);
  doc["context"]["machine"]["memory_available_bytes"] = 16.0 * 1024 * 1024 * 1024 + 0.5;
  doc["context"]["targets"][1]["memory_total_bytes"] = 80.0 * 1024 * 1024 * 1024 + 0.5;
  const ResultsDocument d = typed(doc);
  EXPECT_EQ(target_memory_facts(d.context, "cpu").available_bytes, 16.0 * 1024 * 1024 * 1024 + 0.5);
  EXPECT_EQ(target_memory_facts(d.context, "test:0").total_bytes, 80.0 * 1024 * 1024 * 1024 + 0.5);
}

// The memory facts and the document's targets (recorded_targets) are one rule: same levels, memory and source
// for every target of every recorded run and hand-made file.
TEST(TargetMemoryFacts, AgreesWithTheRecordedTargetsOnEveryRecordedRun) {
  const auto docs = testing::every_results_file();
  ASSERT_GT(docs.size(), 4u);
  for (const auto& [name, doc] : docs) {
    SCOPED_TRACE(name);
    const ResultsDocument d = typed(doc);
    const std::vector<RecordedTarget> targets = recorded_targets(d);
    for (const RecordedTarget& t : targets) {
      const TargetMemoryFacts m = target_memory_facts(d.context, t.id);
      std::vector<std::string> names;
      for (const TargetLevel& l : t.memory_levels) names.push_back(l.name);
      EXPECT_EQ(m.level_names, names) << t.id;
      EXPECT_EQ(m.total_bytes, t.memory_total_bytes) << t.id;
      EXPECT_EQ(m.available_bytes, t.memory_available_bytes) << t.id;
      EXPECT_EQ(m.source, t.memory_from) << t.id;
    }
  }
}

}  // namespace
}  // namespace roofline
