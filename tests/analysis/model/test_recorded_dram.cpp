// Issue 46's "re-derived recorded runs: no level named DRAM inside a plausible cache": every recorded run in the tree
// (tests/data/golden, results/reference, and ../shared/recorded where the checkout has it) is re-derived by this
// analysis, and every level it names DRAM (the CPU's) or main memory (a device's last level) without a named warning
// starts beyond the largest plausible cache those threads use (a device's: the largest cache its facts or, for a CPU
// device, the host's plausible caches report). A level the sweep never left a cache for is warned, never DRAM: the
// 2-thread levels of the Zen 5 run of issue 46 (4-45 MiB at 203 GB/s inside a 32 MiB L3) are the case in point.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/recorded_files.hpp"
#include "roofline/model/memory_ceilings.hpp"
#include "roofline/model/plateaus.hpp"
#include "roofline/model/results_targets.hpp"
#include "roofline/model/target_roofline.hpp"
#include "support/gzip_json.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
using nlohmann::json;
namespace fs = std::filesystem;

std::vector<fs::path> recorded_files() { return testing::recorded_run_paths(); }

std::string policy_of(const json& results) {
  const json& ctx = results["context"];
  return ctx.contains("binding") && ctx["binding"].is_object() && ctx["binding"].value("policy", "").size() > 0
             ? ctx["binding"]["policy"].get<std::string>()
             : std::string("compact");
}

// The largest plausible cache `threads` threads see, as the analysis reads the machine facts.
double largest_plausible(const HostFacts& host, int threads, const std::string& policy) {
  double largest = 0.0;
  for (const ReportedLevel& l : reported_levels(host, threads, policy)) {
    if (l.plausible) largest = std::max(largest, l.bytes);
  }
  return largest;
}

TEST(RecordedDram, NoLevelNamedDramInsideAPlausibleCache) {
  const std::vector<fs::path> files = recorded_files();
  ASSERT_GE(files.size(), 10u);  // 7 golden, at least 3 reference runs with benchmarks
  int dram_levels = 0;
  for (const fs::path& file : files) {
    const json results = testing::load_gz(file.string());
    ASSERT_TRUE(results.is_object()) << file;
    if (!results.contains("benchmarks") || !results.contains("context")) continue;
    const ResultsDocument doc = testing::typed(results, file.string());
    const HostFacts host = host_facts(doc.context);
    const std::vector<RecordedTarget> targets = recorded_targets(doc);
    const std::string policy = policy_of(results);
    const json cpu = derive_memory_ceilings(target_document(doc, kCpuTargetId), targets.front());
    for (const json& l : cpu["memory_levels"]) {
      if (l["level"] != "DRAM" || l.value("warning", json()).is_string()) continue;
      ++dram_levels;
      const int threads = l["threads"].get<int>();
      const double cache = largest_plausible(host, threads, policy);
      EXPECT_GT(l["min_bytes"].get<double>(), cache) << file.filename() << " " << threads << " thread(s): " << l.dump();
    }
    for (const RecordedTarget& t : targets) {
      if (t.id == kCpuTargetId || !has_entries(doc, t.id)) continue;
      double cache = 0.0;
      for (const TargetLevel& m : t.memory_levels) cache = std::max(cache, m.capacity_bytes);
      if (t.kind == "cpu") cache = std::max(cache, largest_plausible(host, std::max(1, static_cast<int>(t.compute_units)), "compact"));
      const json device = derive_target_roofline(doc, t);
      for (const json& l : device["memory_levels"]) {
        if (l["level"] != t.main_memory() || l.value("warning", json()).is_string()) continue;
        ++dram_levels;
        EXPECT_GT(l["min_bytes"].get<double>(), cache) << file.filename() << " " << t.id << ": " << l.dump();
      }
    }
  }
  EXPECT_GT(dram_levels, 10);
}

TEST(RecordedDram, TheZen5RunsTwoThreadLevelsInsideItsL3AreWarnedNotDram) {
  const json results =
      testing::load_gz(std::string(ROOFLINE_SOURCE_DIR) + "/tests/data/golden/zen5-l3-32m-2vcpu_quick_a.json.gz");
  ASSERT_TRUE(results.is_object());
  const ResultsDocument doc = testing::typed(results);
  const json derived = derive_memory_ceilings(target_document(doc, kCpuTargetId), recorded_targets(doc).front());
  int warned = 0;
  for (const json& l : derived["memory_levels"]) {
    if (l["threads"] != 2) continue;
    EXPECT_NE(l["level"], "DRAM") << l.dump();  // not "DRAM" at ~203 GB/s from 4 MiB, inside the 32 MiB L3
    const std::string warning = l.value("warning", json()).is_string() ? l["warning"].get<std::string>() : "";
    if (warning == kWarningDramNotReached || warning == kWarningSuperlinear) ++warned;
  }
  EXPECT_GE(warned, 1);
}

}  // namespace
}  // namespace roofline
