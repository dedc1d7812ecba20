// A results file's targets from its typed records (issues 47, 61; results_targets.hpp, which replaced ResultsView and
// DocumentView). On every recorded run and hand-made file: the host facts as context.machine holds them, the host CPU
// first and the listed targets in the file's order, and each target's part of the document: its entries alone, in
// order, the parts together the whole file; a file of one target is its own part.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "roofline/model/results_targets.hpp"
#include "roofline/model/record_fields.hpp"
#include "roofline/model/results.hpp"
#include "support/recorded_files.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
using nlohmann::json;
using testing::typed;

const std::string kTwoTargets = std::string(ROOFLINE_TEST_DATA_DIR) + "/targets/two_targets.json";
const std::string kOld = std::string(ROOFLINE_TEST_DATA_DIR) + "/report_full.json";

// Every recorded run (tests/data/golden, results/reference) and the two hand-made files, with their names.
using testing::every_results_file;

// The host's facts as the file's JSON writes them (context.machine), field by field.
void expect_host_as_written(const HostFacts& h, const json& context) {
  const bool present = context.contains("machine") && context["machine"].is_object();
  EXPECT_EQ(h.present, present);
  if (!present) return;
  const json& m = context["machine"];
  const auto text = [&](const char* key) { return m.contains(key) && m[key].is_string() ? m[key].get<std::string>() : ""; };
  const auto number = [&](const char* key) { return m.contains(key) && m[key].is_number() ? m[key].get<double>() : 0.0; };
  EXPECT_EQ(h.hostname, text("hostname"));
  EXPECT_EQ(h.cpu_vendor, text("cpu_vendor"));
  EXPECT_EQ(h.cpu_model, text("cpu_model"));
  EXPECT_EQ(h.microarchitecture, text("microarchitecture"));
  EXPECT_EQ(h.topology_source, text("topology_source"));
  EXPECT_EQ(h.memory_total_bytes, number("memory_total_bytes"));
  EXPECT_EQ(h.memory_available_bytes, number("memory_available_bytes"));
  EXPECT_EQ(h.measured_clock_hz, number("measured_clock_hz"));
  EXPECT_EQ(h.cores, m.contains("cores") && m["cores"].is_number() ? std::optional<long long>(m["cores"].get<long long>()) : std::nullopt);
  const json caches = m.contains("caches") && m["caches"].is_array() ? m["caches"] : json::array();
  ASSERT_EQ(h.caches.size(), caches.size());
  for (std::size_t i = 0; i < caches.size(); ++i) {
    EXPECT_EQ(h.caches[i].size_bytes, caches[i].value("size_bytes", 0.0));
    EXPECT_EQ(h.caches[i].type, caches[i].value("type", ""));
    EXPECT_EQ(h.caches[i].source, caches[i].value("source", ""));
  }
  EXPECT_EQ(h.isa_present, m.contains("isa") && m["isa"].is_object());
  if (h.isa_present) {
    EXPECT_EQ(h.isa.size(), m["isa"].size());
  }
  EXPECT_EQ(h.thp_present, m.contains("transparent_huge_pages"));
}

TEST(RecordedTargets, ReadsTheHostAndTargetsOnEveryRecordedRun) {
  const auto docs = every_results_file();
  ASSERT_GT(docs.size(), 4u);
  for (const auto& [name, doc] : docs) {
    SCOPED_TRACE(name);
    const ResultsDocument d = typed(doc, name);
    const std::vector<RecordedTarget> targets = recorded_targets(d);
    // The host: context.machine as the file writes it.
    const json& context = doc.contains("context") ? doc["context"] : json::object();
    expect_host_as_written(host_facts(d.context), context);
    // The host CPU first, then every listed target in the file's order, each once.
    ASSERT_FALSE(targets.empty());
    EXPECT_EQ(targets.front().id, kCpuTargetId);
    std::vector<std::string> listed;
    if (context.contains("targets") && context["targets"].is_array()) {
      for (const json& t : context["targets"]) {
        if (t.value("target", "") != kCpuTargetId) listed.push_back(t.value("target", ""));
      }
    }
    ASSERT_GE(targets.size(), listed.size() + 1);
    for (std::size_t i = 0; i < listed.size(); ++i) EXPECT_EQ(targets[i + 1].id, listed[i]);
    for (std::size_t i = 1; i < targets.size(); ++i) EXPECT_FALSE(targets[i].is_cpu());
    // Every entry's target is one of them, and has entries says so.
    for (const BenchmarkEntry& e : d.benchmarks) {
      EXPECT_NE(find_target(targets, target_of(e)), nullptr) << target_of(e);
      EXPECT_TRUE(has_entries(d, target_of(e))) << target_of(e);
    }
  }
}

// Each target's part holds its own entries, in the file's order, and the parts together are the file (or every
// part is the file itself when one target has all its entries).
TEST(RecordedTargets, GivesEachTargetItsPartOnEveryRecordedRun) {
  for (const auto& [name, doc] : every_results_file()) {
    SCOPED_TRACE(name);
    const ResultsDocument d = typed(doc, name);
    const std::vector<RecordedTarget> targets = recorded_targets(d);
    std::size_t total = 0;
    bool whole = false;
    const std::string file = to_json(d).dump();
    for (const RecordedTarget& t : targets) {
      SCOPED_TRACE(t.id);
      const ResultsDocument part = target_document(d, t.id);
      if (to_json(part).dump() == file) {
        whole = true;
        continue;
      }
      std::vector<const BenchmarkEntry*> expected;
      for (const BenchmarkEntry& e : d.benchmarks) {
        if (target_of(e) == t.id) expected.push_back(&e);
      }
      ASSERT_EQ(part.benchmarks.size(), expected.size());
      for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(to_json(part.benchmarks[i]), to_json(*expected[i]));
      total += part.benchmarks.size();
    }
    if (!whole) {
      EXPECT_EQ(total, d.benchmarks.size());
    }
  }
}

TEST(RecordedTargets, AFileOfOneTargetIsItsOwnPartAndTwoTargetsAreSplit) {
  const ResultsDocument old = typed(load_json_file(kOld));
  ASSERT_EQ(recorded_targets(old).size(), 1u);
  EXPECT_EQ(to_json(target_document(old, kCpuTargetId)), to_json(old));  // the CPU's part of a file before targets

  const ResultsDocument two = typed(load_json_file(kTwoTargets));
  const std::vector<RecordedTarget> split_targets = recorded_targets(two);
  ASSERT_EQ(split_targets.size(), 2u);
  EXPECT_EQ(split_targets[0].id, kCpuTargetId);
  const std::string device = split_targets[1].id;
  EXPECT_LT(target_document(two, device).benchmarks.size(), two.benchmarks.size());
  std::size_t total = 0;
  for (const RecordedTarget& t : split_targets) {
    const ResultsDocument part = target_document(two, t.id);
    for (const BenchmarkEntry& e : part.benchmarks) EXPECT_EQ(target_of(e), t.id);
    for (const MemoryCeilingRecord& m : fields::records_of(part.roofline->memory_ceilings)) EXPECT_EQ(target_of(m), t.id);
    total += part.benchmarks.size();
    EXPECT_TRUE(has_entries(two, t.id));
  }
  EXPECT_EQ(total, two.benchmarks.size());
}

// The rule the typed derivations inherit (issue 61, step 3): a file whose entries are all one target's is not split,
// so every target it lists, a device without entries too, is handed the whole document.
// (Key figures take each listed target's figures from its part: the device's are the CPU's, prefixed.)
TEST(RecordedTargets, EveryListedTargetGetsTheWholeFileWhenOnlyTheCpuHasEntries) {
  json doc = load_json_file(kOld);
  doc["context"]["targets"] = json::array(
      {{{"target", "opencl:0.0"}, {"kind", "gpu"}, {"memory_levels", {{{"name", "L2"}, {"capacity_bytes", 4194304}}, {{"name", "VRAM"}}}}}});
  const ResultsDocument d = typed(doc);
  const std::vector<RecordedTarget> targets = recorded_targets(d);
  ASSERT_EQ(targets.size(), 2u);
  EXPECT_FALSE(has_entries(d, "opencl:0.0"));
  for (const RecordedTarget& t : targets) {
    SCOPED_TRACE(t.id);
    EXPECT_EQ(to_json(target_document(d, t.id)), to_json(d));
    EXPECT_FALSE(target_document(d, t.id).benchmarks.empty());
  }
  ASSERT_NE(find_target(targets, "opencl:0.0"), nullptr);
  EXPECT_EQ(find_target(targets, "opencl:0.0")->memory_levels.size(), 2u);
  EXPECT_EQ(find_target(targets, "npu:0"), nullptr);
}

}  // namespace
}  // namespace roofline
