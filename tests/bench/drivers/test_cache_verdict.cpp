// Issue 61 step 6: one cache-plausibility verdict (cache_verdict, roofline/common/reported_levels.hpp), and the plan
// and the analysis agree on it for every recorded machine. For each recorded results file (tests/data/golden and
// results/reference; ../shared/recorded too where the checkout has it), the plan's side reads the file's machine facts
// as a run would hold them (machine_from_json of context.machine, its binding) and the analysis's side reads the same
// file (the typed document's CPU target, recorded_targets): at every thread count from 1 to the most the file ran, both believe the same levels
// of the same sizes, the same largest plausible cache and the same DRAM threshold, and what the plan builds from it
// (the sweep's levels and end, the DRAM dequant GEMVs' weights) is that verdict. Hand-made machines cover the rules
// the two sides once applied differently. Nothing is measured. Here, beside the llm chain, because this binary links
// both the CPU target's plan and the analysis.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/recorded_files.hpp"
#include "roofline/cpu/cpu_plan.hpp"
#include "roofline/cpu/cpu_target.hpp"
#include "roofline/facts/machine.hpp"
#include "roofline/harness/plausible_caches.hpp"
#include "roofline/harness/sweep_plan.hpp"
#include "roofline/model/memory_ceilings.hpp"
#include "roofline/model/results_targets.hpp"
#include "roofline/model/results_document.hpp"
#include "support/typed_results.hpp"
#include "support/gzip_json.hpp"

namespace roofline {
namespace {
using nlohmann::json;
namespace fs = std::filesystem;

constexpr std::uint64_t MiB = 1ull << 20;

std::vector<fs::path> recorded_files() { return testing::recorded_run_paths(); }

std::string policy_of(const json& results) {
  const json& ctx = results["context"];
  if (ctx.contains("binding") && ctx["binding"].is_object() && ctx["binding"].value("policy", "").size() > 0) {
    return ctx["binding"]["policy"].get<std::string>();
  }
  return "compact";
}

std::vector<int> thread_counts_of(const json& results) {
  std::vector<int> counts;
  const json& ctx = results["context"];
  if (ctx.contains("threads") && ctx["threads"].is_array()) {
    for (const json& t : ctx["threads"]) counts.push_back(t.get<int>());
  }
  if (counts.empty()) counts.push_back(1);
  std::sort(counts.begin(), counts.end());
  return counts;
}

// The two verdicts are one: levels (name, size, plausible), the caches not believed, the largest plausible cache and
// the DRAM threshold.
void expect_same_verdict(const CacheVerdict& plan, const CacheVerdict& analysis, const std::string& where) {
  ASSERT_EQ(plan.levels.size(), analysis.levels.size()) << where;
  for (std::size_t i = 0; i < plan.levels.size(); ++i) {
    EXPECT_EQ(plan.levels[i].name, analysis.levels[i].name) << where;
    EXPECT_EQ(plan.levels[i].bytes, analysis.levels[i].bytes) << where << " " << plan.levels[i].name;
    EXPECT_EQ(plan.levels[i].plausible, analysis.levels[i].plausible) << where << " " << plan.levels[i].name;
    EXPECT_EQ(plan.levels[i].why, analysis.levels[i].why) << where << " " << plan.levels[i].name;
  }
  EXPECT_EQ(plan.implausible_caches, analysis.implausible_caches) << where;
  EXPECT_EQ(plan.last_level_unknown, analysis.last_level_unknown) << where;
  EXPECT_EQ(plan.largest_plausible_bytes, analysis.largest_plausible_bytes) << where;
  EXPECT_EQ(plan.dram_threshold_bytes, analysis.dram_threshold_bytes) << where;
}

// What the plan builds from the analysis's verdict: the sweep's levels and end at every thread count, the DRAM
// dequant GEMVs' weights at the most threads.
void expect_plan_built_from(const MachineFacts& machine, BindPolicy bind, const std::vector<int>& counts,
                            const RecordedTarget& cpu, const std::string& where) {
  RunConfig config;
  config.thread_counts = counts;
  config.bind = bind;
  const BandwidthPlan plan = plan_bandwidth(config, machine);
  ASSERT_EQ(plan.per_threads.size(), counts.size()) << where;
  for (const BandwidthThreadPlan& t : plan.per_threads) {
    const CacheVerdict believed = target_cache_verdict(cpu, t.threads);
    const std::vector<ReportedLevel> levels = believed.plausible_levels();
    ASSERT_EQ(t.levels.size(), levels.size()) << where << " " << t.threads;
    for (std::size_t i = 0; i < levels.size(); ++i) EXPECT_EQ(t.levels[i].bytes, levels[i].bytes) << where;
    EXPECT_EQ(double(t.cache_bytes), believed.largest_plausible_bytes) << where << " " << t.threads;
    if (believed.dram_threshold_bytes > 0.0) {
      EXPECT_EQ(double(t.sweep.planned_end_bytes), double(kSweepEndCacheFactor) * believed.dram_threshold_bytes) << where;
    }
  }
  const double dram = target_cache_verdict(cpu, counts.back()).dram_threshold_bytes;
  EXPECT_EQ(double(dequant_gemv_weight_bytes(config, machine)), std::clamp(4.0 * dram, 128.0 * MiB, 1024.0 * MiB))
      << where;
}

TEST(CacheVerdict, ThePlanAndTheAnalysisAgreeOnEveryRecordedMachine) {
  const std::vector<fs::path> files = recorded_files();
  ASSERT_GE(files.size(), 7u);  // the recorded runs of ../shared/recorded, held in tests/data/golden
  int machines = 0, unknown_last = 0;
  for (const fs::path& file : files) {
    const json results = testing::load_gz(file.string());
    ASSERT_TRUE(results.is_object()) << file;
    if (!results.contains("context") || !results["context"].contains("machine")) continue;
    const MachineFacts machine = machine_from_json(results["context"]["machine"]);
    const BindPolicy bind = parse_bind_policy(policy_of(results));
    const ResultsDocument doc = testing::typed(results, file.string());
    const std::vector<RecordedTarget> targets = recorded_targets(doc);
    const RecordedTarget& cpu = targets.front();
    const std::vector<int> counts = thread_counts_of(results);
    ++machines;
    for (int threads = 1; threads <= counts.back(); ++threads) {
      const std::string where = file.filename().string() + " at " + std::to_string(threads) + " thread(s)";
      const CacheVerdict plan = cache_verdict(machine, threads, bind);
      expect_same_verdict(plan, target_cache_verdict(cpu, threads), where);
      EXPECT_EQ(double(dram_threshold_bytes(machine, threads, bind)), plan.dram_threshold_bytes) << where;
      unknown_last += plan.last_level_unknown ? 1 : 0;
    }
    expect_plan_built_from(machine, bind, counts, cpu, file.filename().string());
  }
  EXPECT_GE(machines, 7);
  EXPECT_GT(unknown_last, 0);  // the Zen 5 guest's 508 MiB L3 per core and the Emerald Rapids guest's 150 MiB
}

// A results file holding only these machine facts and binding, as the analysis reads one.
json results_with(const MachineFacts& machine, const std::string& policy) {
  return json{{"context", {{"machine", to_json(machine)}, {"threads", {1, 2}}, {"binding", {{"policy", policy}}}}},
              {"benchmarks", json::array()}};
}

TEST(CacheVerdict, TheRulesTheTwoSidesOnceAppliedDifferentlyAreOne) {
  MachineFacts base = machine_from_json(testing::load_gz(std::string(ROOFLINE_TEST_DATA_DIR) +
                                                         "/golden/zen4-2vcpu_quick.json.gz")["context"]["machine"]);
  std::vector<std::pair<std::string, MachineFacts>> cases;
  MachineFacts l2 = base;  // a 12 MiB-per-core L2: the plan's 16 MiB limit believed it, the analysis's 8 MiB did not
  l2.caches[1].size_bytes = 12 * MiB;
  cases.emplace_back("12 MiB L2 per core", l2);
  MachineFacts memory = base;  // 64 L3s of 32 MiB on 4 GiB: only the plan's rule looked at the memory
  memory.memory_total_bytes = 4096 * MiB;
  memory.caches[2].instances = 64;
  memory.caches[2].cores_per_instance = 1;
  cases.emplace_back("L3s over an eighth of the memory", memory);
  MachineFacts unshared = base;  // a 96 MiB L3 of unknown sharing: the analysis took it as shared by every core
  unshared.caches[2].size_bytes = 96 * MiB;
  unshared.caches[2].cores_per_instance = 0;
  cases.emplace_back("96 MiB L3, sharing unknown", unshared);
  for (const auto& [what, machine] : cases) {
    for (const std::string policy : {"compact", "spread"}) {
      const json results = results_with(machine, policy);
      const ResultsDocument doc = testing::typed_fragment(results);
      const std::vector<RecordedTarget> targets = recorded_targets(doc);
      for (int threads : {1, 2}) {
        const std::string where = what + ", " + policy + ", " + std::to_string(threads) + " thread(s)";
        const CacheVerdict plan = cache_verdict(machine, threads, parse_bind_policy(policy));
        expect_same_verdict(plan, target_cache_verdict(targets.front(), threads), where);
        EXPECT_FALSE(plan.implausible_caches.empty()) << where;
      }
    }
  }
}

// Issue 61: the CPU's facts a run writes (cpu_target_facts) and the CPU the analysis synthesizes for a file without
// context.targets (recorded_targets) are one rule (common's cpu_memory_levels): on every recorded machine, and on one
// whose L2 is not reported (both keep the level at 0 bytes; the run's facts once left it out) and whose L1 is reported
// twice (both take the larger; the run's facts once took the last).
TEST(CpuFacts, TheRunsAndTheAnalysisSynthesizedCpuLevelsAreOneRule) {
  std::vector<std::pair<std::string, MachineFacts>> machines;
  for (const fs::path& file : recorded_files()) {
    const json results = testing::load_gz(file.string());
    if (!results.contains("context") || !results["context"].contains("machine")) continue;
    machines.emplace_back(file.filename().string(), machine_from_json(results["context"]["machine"]));
  }
  ASSERT_GE(machines.size(), 7u);
  MachineFacts odd = machines.front().second;
  std::erase_if(odd.caches, [](const CacheInfo& c) { return c.level == 2; });
  const auto l1 = std::find_if(odd.caches.begin(), odd.caches.end(),
                               [](const CacheInfo& c) { return c.level == 1 && c.type != "instruction"; });
  ASSERT_NE(l1, odd.caches.end());
  const double l1_bytes = static_cast<double>(l1->size_bytes) * std::max(1, l1->instances);
  CacheInfo small_l1 = *l1;
  small_l1.size_bytes /= 2;
  odd.caches.push_back(small_l1);
  machines.emplace_back("no L2, two L1s", odd);
  for (const auto& [what, machine] : machines) {
    SCOPED_TRACE(what);
    const TargetFacts run = cpu_target_facts(machine);
    const std::vector<RecordedTarget> read = recorded_targets(testing::typed_fragment(results_with(machine, "compact")));
    ASSERT_TRUE(read.front().synthesized);
    const std::vector<TargetLevel>& synthesized = read.front().memory_levels;
    ASSERT_EQ(run.memory_levels.size(), synthesized.size());
    for (std::size_t i = 0; i < synthesized.size(); ++i) {
      EXPECT_EQ(run.memory_levels[i].name, synthesized[i].name);
      EXPECT_EQ(static_cast<double>(run.memory_levels[i].capacity_bytes), synthesized[i].capacity_bytes);
      EXPECT_EQ(run.memory_levels[i].shared, synthesized[i].shared);
    }
  }
  const TargetFacts odd_facts = cpu_target_facts(odd);
  ASSERT_EQ(odd_facts.memory_levels.size(), 4u);
  EXPECT_EQ(odd_facts.memory_levels[1].name, "L2");
  EXPECT_EQ(odd_facts.memory_levels[1].capacity_bytes, 0u);
  EXPECT_EQ(static_cast<double>(odd_facts.memory_levels[0].capacity_bytes), l1_bytes);
}

}  // namespace
}  // namespace roofline
