// The model's typed roof rules (roofline_section.hpp over the typed records: what the derivations after the ceilings
// and the report read, report_roofs.hpp) and its JSON ones (memory_roof, compute_roof, memory_level_names over a JSON
// section: llm's, until it reads the typed section) are one rule written twice (issues 47, 61): they must pick the
// same ceiling, with the same value and range, for every level, precision, engine and thread count of every recorded
// run, re-derived and as recorded.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "report_roofs.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/roofline_section.hpp"
#include "support/gzip_json.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

std::vector<json> recorded_runs() {
  std::vector<json> docs = {load_json_file(std::string(ROOFLINE_TEST_DATA_DIR) + "/report_full.json")};
  for (const fs::path& dir : {fs::path(ROOFLINE_TEST_DATA_DIR) / "golden", fs::path(ROOFLINE_SOURCE_DIR) / "results" / "reference"}) {
    for (const auto& f : fs::directory_iterator(dir)) {
      if (f.path().string().ends_with(".json.gz")) docs.push_back(testing::load_gz(f.path().string()));
    }
  }
  return docs;
}

// Returns how many roofs it compared (a file without ceilings, e.g. an llm --measure run, has none).
int expect_same_roofs(const json& section, const RooflineSection& typed, const std::string& what) {
  const std::vector<std::string> levels = memory_level_names(section);
  EXPECT_EQ(report_detail::memory_level_names(typed), levels) << what;
  std::set<int> threads;
  std::set<std::string> precisions;
  for (const char* key : {"memory_ceilings", "compute_ceilings"}) {
    for (const json& c : section.value(key, json::array())) {
      threads.insert(c.value("threads", 0));
      if (c.contains("precision")) precisions.insert(c["precision"].get<std::string>());
    }
  }
  int compared = 0;
  for (const int t : threads) {
    for (const std::string& level : levels) {
      const json* j = memory_roof(section, level, t);
      const report_detail::MemoryRoof r = report_detail::memory_roof(typed, level, t);
      EXPECT_EQ(j != nullptr, r.found()) << what << " " << level << " threads " << t;
      if (j == nullptr || !r.found()) continue;
      EXPECT_EQ(r.value(), j->value("value", 0.0)) << what << " " << level << " threads " << t;
      EXPECT_EQ(r.min_bytes(), j->value("min_bytes", 0.0)) << what << " " << level << " threads " << t;
      EXPECT_EQ(r.max_bytes(), j->value("max_bytes", 0.0)) << what << " " << level << " threads " << t;
      ++compared;
    }
    for (const std::string& p : precisions) {
      for (const std::string engine : {"", "vector", "matrix"}) {
        const json* j = compute_roof(section, p, t, engine);
        const ComputeCeilingRecord* r = report_detail::compute_roof(typed, p, t, engine);
        EXPECT_EQ(j != nullptr, r != nullptr) << what << " " << p << " " << engine << " threads " << t;
        if (j == nullptr || r == nullptr) continue;
        EXPECT_EQ(r->value.value_or(0.0), j->value("value", 0.0)) << what << " " << p << " " << engine;
        ++compared;
      }
    }
  }
  return compared;
}

TEST(ReportRoofs, TheTypedRulesPickWhatTheModelsPickOnEveryRecordedRun) {
  const std::vector<json> docs = recorded_runs();
  ASSERT_GT(docs.size(), 4u);
  int compared = 0;
  for (const json& doc : docs) {
    const std::string what = doc["context"].value("host_name", std::string("(no host)"));
    compared += expect_same_roofs(doc["roofline"], *testing::typed(doc).roofline, what + " as recorded");
    json rederived = doc;
    rederived["roofline"] = testing::derived_section(doc);
    compared += expect_same_roofs(rederived["roofline"], *testing::typed(rederived).roofline, what + " re-derived");
  }
  EXPECT_GT(compared, 200);
}

}  // namespace
}  // namespace roofline
