// The stability property of the memory levels (issue 36): a run's levels must not depend on the noise of its
// own repetitions. For every recorded run in the tree (tests/data/golden: Emerald Rapids with AMX, Zen 4 quick
// and full, the Zen 5 A/A pair and its PoCL device, the Zen 5 run of issue 46 whose 2-thread sweep was cut inside
// its L3; results/reference: Emerald Rapids, Zen 5, Zen 4 PoCL) each size's repetitions are resampled with
// replacement (a bootstrap: 200 draws, fixed seeds) and the levels derived again by the same path the run takes
// (derive_memory_ceilings for the CPU, derive_target_roofline for a device). In at least 95% of draws every thread
// count (and every device) must give the same levels (a level warned dram_not_reached, issue 46, only as warned
// again), each boundary between two levels within one sweep step of the run's own (the first
// level's start and the last level's end are the sweep's ends, not boundaries).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofline/model/memory_ceilings.hpp"
#include "roofline/model/plateaus.hpp"
#include "roofline/model/results_targets.hpp"
#include "roofline/model/target_roofline.hpp"
#include "support/gzip_json.hpp"

namespace roofline {
namespace {
using nlohmann::json;

constexpr int kDraws = 200;

// The draws this run takes: kDraws, or fewer where ROOFLINE_STABILITY_DRAWS says so (the sanitize preset: 20; under
// ASan one draw of a recorded run takes 1.5-3 s, and 200 ran the Zen 4 full and PoCL cases past the 600 s test
// timeout). The draws are the first of the same fixed seeds, so the check stays deterministic; their bar is the
// required share less three binomial standard deviations of that many draws (required_share): 95% of 200 becomes
// 16 of 20, so a derivation that flips levels in many draws still fails under the sanitizers.
int draws() {
  const char* env = std::getenv("ROOFLINE_STABILITY_DRAWS");
  if (env == nullptr) return kDraws;
  const int n = std::atoi(env);
  return n >= 1 && n <= kDraws ? n : kDraws;
}
constexpr double kRequired = 0.95;

struct LevelRow {
  std::string level;
  double min_bytes = 0.0, max_bytes = 0.0;
};
using Levels = std::map<std::string, std::vector<LevelRow>>;  // "cpu/1", "opencl:0.0" -> levels in order

Levels levels_of(const json& results) {
  // A resampled draw has no roofline section: its benchmarks and context, read typed as the run's derivation reads them.
  const ResultsDocument doc = read_records(results, "resampled", ReadMode::lenient, false);
  const std::vector<RecordedTarget> targets = recorded_targets(doc);
  Levels out;
  const auto add = [&](const json& rows, bool cpu) {
    for (const json& l : rows) {
      const std::string key = cpu ? fmt::format("cpu/{}", l["threads"].get<int>()) : l["target"].get<std::string>();
      const auto bytes = [&](const char* k) { return l[k].is_number() ? l[k].get<double>() : 0.0; };
      // dram_not_reached is part of the level (a cache the sweep never left, not DRAM): a draw that loses it is not
      // the same. superlinear is not: it judges the figure against the 1-thread one, not what the level is.
      std::string name = l["level"].get<std::string>();
      if (l.value("warning", json()) == kWarningDramNotReached) name.append(1, '/').append(kWarningDramNotReached);
      out[key].push_back({name, bytes("min_bytes"), bytes("max_bytes")});
    }
  };
  add(to_json(derive_memory_ceilings(target_document(doc, kCpuTargetId), targets.front()))["memory_levels"], true);
  for (const RecordedTarget& t : targets) {
    if (t.id != kCpuTargetId && has_entries(doc, t.id)) add(to_json(derive_target_roofline(doc, t))["memory_levels"], false);
  }
  return out;
}

// The working sets a curve of `key` was measured at (every bandwidth size of that thread count or target).
std::map<std::string, std::vector<double>> sizes_of(const json& results) {
  std::map<std::string, std::vector<double>> out;
  for (const json& e : results["benchmarks"]) {
    if (!e.contains("labels") || e["labels"].value("suite", "") != "bandwidth") continue;
    const json& l = e["labels"];
    const std::string target = l.value("target", std::string(kCpuTargetId));
    const std::string key = target == kCpuTargetId ? fmt::format("cpu/{}", l.value("threads", 0)) : target;
    out[key].push_back(e.value("working_set_bytes", 0.0));
  }
  for (auto& [key, v] : out) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end(), [](double a, double b) { return std::fabs(a / b - 1.0) < 0.02; }), v.end());
  }
  return out;
}

// Index of the sweep size nearest `bytes` (log scale).
long nearest(const std::vector<double>& sizes, double bytes) {
  long best = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (std::fabs(std::log(sizes[i] / bytes)) < std::fabs(std::log(sizes[static_cast<std::size_t>(best)] / bytes))) {
      best = static_cast<long>(i);
    }
  }
  return best;
}

bool same_levels(const std::vector<LevelRow>& a, const std::vector<LevelRow>& b, const std::vector<double>& sizes) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].level != b[i].level) return false;
    const auto within_a_step = [&](double x, double y) {
      return x > 0.0 && y > 0.0 && std::labs(nearest(sizes, x) - nearest(sizes, y)) <= 1;
    };
    if (i > 0 && !within_a_step(a[i].min_bytes, b[i].min_bytes)) return false;
    if (i + 1 < a.size() && !within_a_step(a[i].max_bytes, b[i].max_bytes)) return false;
  }
  return true;
}

// The run with each bandwidth size's repetitions drawn with replacement from its own (aggregates dropped, so
// that the analysis takes medians and spreads from the drawn repetitions).
json resampled(const json& results, std::mt19937& rng) {
  using Key = std::tuple<std::string, std::string>;  // run_name (kernel, size, threads, width), target
  std::map<Key, std::vector<double>> values;
  for (const json& e : results["benchmarks"]) {
    if (e.value("run_type", "iteration") != "iteration" || !e.contains("labels")) continue;
    if (e["labels"].value("suite", "") != "bandwidth" || !e.contains("bytes_per_second")) continue;
    values[{e.value("run_name", e.value("name", "")), e["labels"].value("target", "")}].push_back(e["bytes_per_second"]);
  }
  json out = {{"context", results["context"]}, {"benchmarks", json::array()}};  // what the levels are derived from
  for (const json& e : results["benchmarks"]) {
    if (e.value("run_type", "iteration") == "aggregate" || !e.contains("labels")) continue;
    if (e["labels"].value("suite", "") != "bandwidth") continue;
    json copy = e;
    if (e.contains("labels") && e["labels"].value("suite", "") == "bandwidth" && e.contains("bytes_per_second")) {
      const std::vector<double>& v = values[{e.value("run_name", e.value("name", "")), e["labels"].value("target", "")}];
      copy["bytes_per_second"] = v[std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng)];
    }
    out["benchmarks"].push_back(std::move(copy));
  }
  return out;
}

// Where the property does not hold (issue 36 stays open for them): the share of draws that keep the run's levels
// (measured with this analysis, fixed seeds, rounded down), as a floor that catches a regression, never as the goal.
// Every one is a recorded curve the sweep and DRAM rule of issue 46 cannot change after the fact (a plan fixes where
// new runs sweep, not what old ones measured):
//  - Zen 4 full, 2 threads (92.5%): the L2-to-L3 step is 1.14x and the segmentation merges it (L2 76 KiB..22.6 MiB);
//    the draws that split it move the L3 and the first DRAM size (77-131 MiB) by two steps or more.
//  - Zen 5 A/A pair, 2 threads (91% each): the guest's DRAM flips between two speeds inside the run (15-25% spread
//    between repetitions from 64 MiB on), so the first DRAM size moves from 64 MiB to 128-370 MiB in 9% of draws.
//  - Zen 5 PoCL (76.5%): in 21% of draws the cache plateau (1-16 MiB) and global memory merge into one level.
//  - Zen 4 PoCL, its CPU at 2 threads (94.5%): the L2's end moves between 1 and 5.8 MiB in 5.5% of draws.
//  - Zen 5 of issue 46 (zen5-l3-32m), 2 threads (84%): the sweep was cut at 45 MiB inside the 32 MiB L3 (the run-time
//    budget the plan replaced), so the L2 and L3 plateaus are all the curve has and their knee (1.4-4 MiB) moves;
//    in every draw its last level stays L3 warned dram_not_reached, never DRAM (ZenFiveL3RunNeverDrawsDram).
double required_share(const std::string& file, const std::string& key, int n_draws) {
  static const std::map<std::pair<std::string, std::string>, double> kKnown = {
      {{"tests/data/golden/zen4-2vcpu_full.json.gz", "cpu/2"}, 0.92},
      {{"tests/data/golden/zen5-oxide-2vcpu_quick_a.json.gz", "cpu/2"}, 0.90},
      {{"tests/data/golden/zen5-oxide-2vcpu_quick_b.json.gz", "cpu/2"}, 0.90},
      {{"tests/data/golden/zen5-oxide-2vcpu_opencl-pocl.json.gz", "opencl:0.0"}, 0.76},
      {{"results/reference/vm-amd-zen4-2vcpu_opencl-pocl_quick.json.gz", "cpu/2"}, 0.94},
      {{"tests/data/golden/zen5-l3-32m-2vcpu_quick_a.json.gz", "cpu/2"}, 0.83},
  };
  const auto it = kKnown.find({file, key});
  const double floor = it == kKnown.end() ? kRequired : it->second;
  if (n_draws >= kDraws) return floor;
  return floor - 3.0 * std::sqrt(floor * (1.0 - floor) / n_draws);
}

class LevelStability : public ::testing::TestWithParam<const char*> {};

TEST_P(LevelStability, SameLevelsIn95PercentOfResampledRuns) {
  const json results = testing::load_gz(std::string(ROOFLINE_SOURCE_DIR) + "/" + GetParam());
  ASSERT_TRUE(results.is_object()) << GetParam();
  // The run's own levels, from its repetitions alone (as every draw is: aggregates dropped).
  std::mt19937 none(0);
  json plain = resampled(results, none);
  for (std::size_t i = 0, j = 0; i < results["benchmarks"].size(); ++i) {  // undo the draw: each entry its own
    const json& e = results["benchmarks"][i];
    if (e.value("run_type", "iteration") == "aggregate" || !e.contains("labels") || e["labels"].value("suite", "") != "bandwidth") continue;
    plain["benchmarks"][j++] = e;
  }
  const Levels base = levels_of(plain);
  const auto sizes = sizes_of(results);
  ASSERT_FALSE(base.empty());
  const auto describe = [](const std::vector<LevelRow>& levels) {
    std::string names;
    for (const LevelRow& l : levels) names += fmt::format(" {} {:.0f}K..{:.0f}K", l.level, l.min_bytes / 1024, l.max_bytes / 1024);
    return names;
  };
  std::map<std::string, int> same;
  std::map<std::string, std::map<std::string, int>> other;  // key -> a different outcome -> draws
  const int n_draws = draws();
  for (int draw = 0; draw < n_draws; ++draw) {
    std::mt19937 rng(static_cast<std::uint32_t>(1000 + draw));
    const Levels drawn = levels_of(resampled(results, rng));
    for (const auto& [key, levels] : base) {
      const auto it = drawn.find(key);
      if (it != drawn.end() && same_levels(levels, it->second, sizes.at(key))) {
        ++same[key];
      } else {
        ++other[key][it == drawn.end() ? std::string(" none") : describe(it->second)];
      }
    }
  }
  for (const auto& [key, levels] : base) {
    const double share = static_cast<double>(same[key]) / n_draws;
    std::printf("%s %s:%s: %.1f%% of %d draws the same\n", GetParam(), key.c_str(), describe(levels).c_str(),
                100.0 * share, n_draws);
    std::string others;
    for (const auto& [what, n] : other[key]) others += fmt::format("\n  {} draws:{}", n, what);
    if (!others.empty()) std::printf("  the other draws:%s\n", others.c_str());
    const double bar = required_share(GetParam(), key, n_draws);
    EXPECT_GE(share, bar) << GetParam() << " " << key << ":" << describe(levels) << others;
  }
}

INSTANTIATE_TEST_SUITE_P(Recorded, LevelStability,
                         ::testing::Values("tests/data/golden/emr-2vcpu-amx_quick_a.json.gz",
                                           "tests/data/golden/zen4-2vcpu_quick.json.gz",
                                           "tests/data/golden/zen4-2vcpu_full.json.gz",
                                           "tests/data/golden/zen5-oxide-2vcpu_quick_a.json.gz",
                                           "tests/data/golden/zen5-oxide-2vcpu_quick_b.json.gz",
                                           "tests/data/golden/zen5-oxide-2vcpu_opencl-pocl.json.gz",
                                           "tests/data/golden/zen5-l3-32m-2vcpu_quick_a.json.gz",
                                           "results/reference/vm-emerald-rapids-2vcpu_quick.json.gz",
                                           "results/reference/vm-amd-zen5-2vcpu_quick.json.gz",
                                           "results/reference/vm-amd-zen4-2vcpu_opencl-pocl_quick.json.gz"));

// Issue 46's run 1 (2-vCPU Zen 5 guest, plausible 32 MiB L3): its 2-thread sweep was cut at 45 MiB and named 4-45 MiB
// "DRAM" at 203 GB/s. Under its own noise, in every draw, no 2-thread level is DRAM and the last one is warned.
TEST(LevelStability, ZenFiveL3RunNeverDrawsDram) {
  const json results =
      testing::load_gz(std::string(ROOFLINE_SOURCE_DIR) + "/tests/data/golden/zen5-l3-32m-2vcpu_quick_a.json.gz");
  ASSERT_TRUE(results.is_object());
  const std::string warned = std::string("L3/") + kWarningDramNotReached;
  for (int draw = 0; draw < draws(); ++draw) {
    std::mt19937 rng(static_cast<std::uint32_t>(1000 + draw));
    const Levels drawn = levels_of(resampled(results, rng));
    ASSERT_TRUE(drawn.count("cpu/2")) << draw;
    const std::vector<LevelRow>& levels = drawn.at("cpu/2");
    ASSERT_FALSE(levels.empty()) << draw;
    for (const LevelRow& l : levels) EXPECT_EQ(l.level.find("DRAM"), std::string::npos) << "draw " << draw;
    EXPECT_EQ(levels.back().level, warned) << "draw " << draw;
  }
}

}  // namespace
}  // namespace roofline
