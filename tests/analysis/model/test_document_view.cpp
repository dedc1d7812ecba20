// The model's typed view of a results file (issue 47, document_view.hpp; the one view since issue 61 deleted the JSON
// one, ResultsView). On every recorded run and hand-made file it gives the host facts as context.machine holds them,
// the host CPU first and the listed targets in the file's order, and each target's part of the document: its entries
// alone, in order, the parts together the whole file; a file of one target is its own part.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "roofline/model/document_view.hpp"
#include "roofline/model/record_fields.hpp"
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

// Every recorded run (tests/data/golden, results/reference) and the two hand-made files, with their names.
using testing::every_results_file;

void expect_same_host(const HostFacts& a, const HostFacts& b) {
  EXPECT_EQ(a.present, b.present);
  EXPECT_EQ(a.hostname, b.hostname);
  EXPECT_EQ(a.cpu_vendor, b.cpu_vendor);
  EXPECT_EQ(a.cpu_model, b.cpu_model);
  EXPECT_EQ(a.microarchitecture, b.microarchitecture);
  EXPECT_EQ(a.topology_source, b.topology_source);
  EXPECT_EQ(a.memory_source, b.memory_source);
  EXPECT_EQ(a.cpu_family, b.cpu_family);
  EXPECT_EQ(a.cpu_model_number, b.cpu_model_number);
  EXPECT_EQ(a.cpu_stepping, b.cpu_stepping);
  EXPECT_EQ(a.packages, b.packages);
  EXPECT_EQ(a.cores, b.cores);
  EXPECT_EQ(a.pus, b.pus);
  EXPECT_EQ(a.numa_nodes, b.numa_nodes);
  EXPECT_EQ(a.hypervisor, b.hypervisor);
  EXPECT_EQ(a.memory_total_bytes, b.memory_total_bytes);
  EXPECT_EQ(a.memory_available_bytes, b.memory_available_bytes);
  EXPECT_EQ(a.measured_clock_hz, b.measured_clock_hz);
  ASSERT_EQ(a.caches.size(), b.caches.size());
  for (std::size_t i = 0; i < a.caches.size(); ++i) {
    EXPECT_EQ(a.caches[i].level, b.caches[i].level);
    EXPECT_EQ(a.caches[i].type, b.caches[i].type);
    EXPECT_EQ(a.caches[i].size_bytes, b.caches[i].size_bytes);
    EXPECT_EQ(a.caches[i].instances, b.caches[i].instances);
    EXPECT_EQ(a.caches[i].cores_per_instance, b.caches[i].cores_per_instance);
    EXPECT_EQ(a.caches[i].source, b.caches[i].source);
  }
  EXPECT_EQ(a.isa_present, b.isa_present);
  EXPECT_EQ(a.isa, b.isa);
  EXPECT_EQ(a.amx_status, b.amx_status);
  EXPECT_EQ(a.amx_source, b.amx_source);
  EXPECT_EQ(a.thp_present, b.thp_present);
  EXPECT_EQ(a.thp, b.thp);
  EXPECT_EQ(a.thp_defrag, b.thp_defrag);
  EXPECT_EQ(a.thp_source, b.thp_source);
  EXPECT_EQ(a.notes, b.notes);
}

TEST(DocumentView, ReadsTheHostAndTargetsOnEveryRecordedRun) {
  const auto docs = every_results_file();
  ASSERT_GT(docs.size(), 4u);
  for (const auto& [name, doc] : docs) {
    SCOPED_TRACE(name);
    const ResultsDocument d = typed(doc, name);
    const DocumentView view(d);
    // The host: context.machine as the JSON rules read it.
    const json& context = doc.contains("context") ? doc["context"] : json::object();
    expect_same_host(view.host(), host_facts_from_machine(object_or_empty(context, "machine")));
    // The host CPU first, then every listed target in the file's order, each once.
    ASSERT_FALSE(view.targets().empty());
    EXPECT_EQ(view.targets().front().id, kCpuTargetId);
    std::vector<std::string> listed;
    if (context.contains("targets") && context["targets"].is_array()) {
      for (const json& t : context["targets"]) {
        if (t.value("target", "") != kCpuTargetId) listed.push_back(t.value("target", ""));
      }
    }
    ASSERT_GE(view.devices().size(), listed.size());
    for (std::size_t i = 0; i < listed.size(); ++i) EXPECT_EQ(view.devices()[i].id, listed[i]);
    EXPECT_EQ(view.devices().size() + 1, view.targets().size());
    // Every entry's target is one of them, and has entries says so.
    for (const BenchmarkEntry& e : d.benchmarks) {
      EXPECT_NE(view.target(target_of(e)), nullptr) << target_of(e);
      EXPECT_TRUE(view.has_entries(target_of(e))) << target_of(e);
    }
  }
}

// Each target's part holds its own entries, in the file's order, and the parts together are the file (or every
// part is the file itself when one target has all its entries).
TEST(DocumentView, GivesEachTargetItsPartOnEveryRecordedRun) {
  for (const auto& [name, doc] : every_results_file()) {
    SCOPED_TRACE(name);
    const ResultsDocument d = typed(doc, name);
    const DocumentView view(d);
    std::size_t total = 0;
    bool whole = false;
    for (const TargetView& t : view.targets()) {
      SCOPED_TRACE(t.id);
      const ResultsDocument& part = view.target_document(t.id);
      if (&part == &d) {
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

TEST(DocumentView, AFileOfOneTargetIsItsOwnPartAndTwoTargetsAreSplit) {
  const ResultsDocument old = typed(load_json_file(kOld));
  const DocumentView one(old);
  ASSERT_EQ(one.targets().size(), 1u);
  EXPECT_EQ(&one.host_document(), &old);  // no copy: the CPU's part of a file before targets is the file
  EXPECT_TRUE(one.devices().empty());

  const ResultsDocument two = typed(load_json_file(kTwoTargets));
  const DocumentView split(two);
  ASSERT_EQ(split.targets().size(), 2u);
  EXPECT_EQ(split.targets()[0].id, kCpuTargetId);
  ASSERT_EQ(split.devices().size(), 1u);
  const std::string device = split.devices()[0].id;
  EXPECT_NE(&split.target_document(device), &two);
  std::size_t total = 0;
  for (const TargetView& t : split.targets()) {
    const ResultsDocument& part = split.target_document(t.id);
    for (const BenchmarkEntry& e : part.benchmarks) EXPECT_EQ(target_of(e), t.id);
    for (const MemoryCeilingRecord& m : fields::records_of(part.roofline->memory_ceilings)) EXPECT_EQ(target_of(m), t.id);
    total += part.benchmarks.size();
    EXPECT_TRUE(split.has_entries(t.id));
  }
  EXPECT_EQ(total, two.benchmarks.size());
}

// The rule the typed derivations inherit (issue 61, step 3): a file whose entries are all one target's is not split,
// so every target it lists, a device without entries too, is handed the whole document.
// (Key figures take each listed target's figures from its part: the device's are the CPU's, prefixed.)
TEST(DocumentView, EveryListedTargetGetsTheWholeFileWhenOnlyTheCpuHasEntries) {
  json doc = load_json_file(kOld);
  doc["context"]["targets"] = json::array(
      {{{"target", "opencl:0.0"}, {"kind", "gpu"}, {"memory_levels", {{{"name", "L2"}, {"capacity_bytes", 4194304}}, {{"name", "VRAM"}}}}}});
  const ResultsDocument d = typed(doc);
  const DocumentView typed_view(d);
  ASSERT_EQ(typed_view.targets().size(), 2u);
  EXPECT_FALSE(typed_view.has_entries("opencl:0.0"));
  for (const TargetView& t : typed_view.targets()) {
    SCOPED_TRACE(t.id);
    EXPECT_EQ(&typed_view.target_document(t.id), &d);
    EXPECT_FALSE(typed_view.target_document(t.id).benchmarks.empty());
  }
  ASSERT_NE(typed_view.target("opencl:0.0"), nullptr);
  EXPECT_EQ(typed_view.target("opencl:0.0")->memory_levels.size(), 2u);
  EXPECT_EQ(typed_view.target("npu:0"), nullptr);
}

}  // namespace
}  // namespace roofline
