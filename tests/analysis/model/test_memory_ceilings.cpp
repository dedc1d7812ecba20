// Plateau detection and level labelling on synthetic bandwidth curves (with and without reported cache
// sizes, and the VM case where the reported L3 is the host's), and derive_memory_ceilings on a small
// hand-made results document.
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/model/memory_ceilings.hpp"
#include "roofline/model/plateaus.hpp"
#include "roofline/model/record_fields.hpp"
#include "support/notes.hpp"
#include "support/typed_results.hpp"
#include "synthetic_curves.hpp"

namespace roofline {
namespace {
using nlohmann::json;

using namespace roofline::testing;

std::vector<std::string> names(const LevelLabels& l) { return level_names(l); }

const std::vector<ReportedLevel> kReported = {{"L1", 48 * KiB}, {"L2", 2 * MiB}, {"L3", 32 * MiB}};

// The labels of `curve`'s own plateaus (find_plateaus first, which sorts the curve).
LevelLabels labels_of(std::vector<CurvePoint>& curve, const std::vector<ReportedLevel>& reported) {
  const std::vector<Plateau> plateaus = find_plateaus(curve);
  return label_levels(curve, plateaus, reported);
}

TEST(Plateaus, FindsFourPlateausOnACleanCurve) {
  auto curve = synthetic_curve(kFourLevels, 4 * KiB, 1024 * MiB, 4);
  const auto p = find_plateaus(curve);
  ASSERT_EQ(p.size(), 4u);
  EXPECT_DOUBLE_EQ(p[0].level, 400 * GB);
  EXPECT_DOUBLE_EQ(p[1].level, 150 * GB);
  EXPECT_DOUBLE_EQ(p[2].level, 60 * GB);
  EXPECT_DOUBLE_EQ(p[3].level, 20 * GB);
  EXPECT_EQ(p[0].min_bytes, 4 * KiB);
  EXPECT_LE(p[0].max_bytes, 48 * KiB * 1.2);
  EXPECT_GE(p[1].min_bytes, 48 * KiB);
  EXPECT_LE(p[1].max_bytes, 2 * MiB * 1.2);
  EXPECT_EQ(p[3].max_bytes, 1024 * MiB);
  EXPECT_TRUE(flat_after_last_knee(curve, p, 2.0));
}

TEST(Plateaus, ShortRunsOnASlopeAreTransitionsNotLevels) {
  // 4 sizes per octave (the full profile): the slope from L2 to L3 holds a 2-point run within tolerance
  // (70, 65 GB/s over a quarter octave). It must not become a level of its own.
  std::vector<CurvePoint> curve;
  for (double b = 16 * 1024.0; b <= 1024.0 * 1024 * 1024; b *= std::pow(2.0, 0.25)) {
    double v = 17e9;
    if (b <= 40 * 1024.0) v = 300e9;
    else if (b <= 1024 * 1024.0) v = 140e9;
    else if (b <= 1.25 * 1024 * 1024) v = 70e9;
    else if (b <= 1.5 * 1024 * 1024) v = 65e9;
    else if (b <= 1.8 * 1024 * 1024) v = 45e9;
    else if (b <= 64.0 * 1024 * 1024) v = 30e9;
    curve.push_back({b, v});
  }
  const std::vector<Plateau> plateaus = find_plateaus(curve);
  ASSERT_EQ(plateaus.size(), 4u);
  EXPECT_NEAR(plateaus[0].level, 300e9, 1e6);
  EXPECT_NEAR(plateaus[1].level, 140e9, 1e6);
  EXPECT_NEAR(plateaus[2].level, 30e9, 1e6);
  EXPECT_NEAR(plateaus[3].level, 17e9, 1e6);
}

TEST(Plateaus, NoiseAndAnOutlierDoNotSplitAPlateau) {
  // +-5% noise and one point 40% low in the middle of the L2 plateau.
  std::vector<double> noise = {1.0, 1.04, 0.96, 1.02, 0.97, 1.05, 0.98, 1.01};
  auto curve = synthetic_curve(kFourLevels, 4 * KiB, 1024 * MiB, 4, noise);
  for (CurvePoint& c : curve) {
    if (std::fabs(c.bytes - 512 * KiB) < 1) c.value *= 0.6;
  }
  const auto p = find_plateaus(curve);
  ASSERT_EQ(p.size(), 4u);
  EXPECT_LE(p[1].min_bytes, 128 * KiB);
  EXPECT_GE(p[1].max_bytes, 1 * MiB);
}

TEST(Plateaus, OverheadBoundSmallSizesAreNotALevel) {
  auto curve = synthetic_curve(kFourLevels, 4 * KiB, 256 * MiB, 2);
  curve[0].value = 100 * GB;
  curve[1].value = 110 * GB;  // two low points at 4 and 5.7 KiB
  const auto p = find_plateaus(curve);
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[0].min_bytes, 8 * KiB);
  EXPECT_DOUBLE_EQ(p[0].level, 400 * GB);
}

TEST(Plateaus, StillFallingCurveIsNotFlat) {
  auto curve = synthetic_curve(kFourLevels, 4 * KiB, 3 * MiB, 2);  // ends on the L2->L3 slope
  const auto p = find_plateaus(curve);
  EXPECT_FALSE(flat_after_last_knee(curve, p, 2.0));
  std::vector<CurvePoint> empty;
  EXPECT_TRUE(find_plateaus(empty).empty());
}

TEST(Levels, ReportedSizesThatAgreeLabelEveryLevel) {
  auto curve = synthetic_curve(kFourLevels, 4 * KiB, 1024 * MiB, 4);
  const LevelLabels l = labels_of(curve, kReported);
  EXPECT_EQ(names(l), (std::vector<std::string>{"L1", "L2", "L3", "DRAM"}));
  EXPECT_EQ(l.levels[0].agreement, "agrees");
  EXPECT_EQ(l.levels[1].agreement, "agrees");
  EXPECT_EQ(l.levels[2].agreement, "agrees");
  EXPECT_EQ(l.levels[2].reported_bytes, 32 * MiB);
  EXPECT_GT(l.levels[2].inferred_bytes, 32 * MiB);
  EXPECT_LT(l.levels[2].inferred_bytes, 64 * MiB);
  EXPECT_EQ(l.levels[3].inferred_bytes, 0.0);
  EXPECT_TRUE(l.notes.empty()) << l.notes.front();
}

TEST(Levels, WithoutReportedSizesTheKneesNameTheLevels) {
  auto curve = synthetic_curve(kFourLevels, 4 * KiB, 1024 * MiB, 4);
  const LevelLabels l = labels_of(curve, {});
  EXPECT_EQ(names(l), (std::vector<std::string>{"L1", "L2", "L3", "DRAM"}));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(l.levels[i].agreement, "unchecked");
  EXPECT_NEAR(std::log2(l.levels[0].inferred_bytes / (48 * KiB)), 0.5, 0.51);
  EXPECT_NEAR(std::log2(l.levels[1].inferred_bytes / (2 * MiB)), 0.5, 0.51);

  // A machine with two cache levels and nothing reported: the flat end after the last knee is DRAM.
  const std::vector<Level> two = {{32 * KiB, 300 * GB}, {1 * MiB, 100 * GB}, {0, 15 * GB}};
  auto curve2 = synthetic_curve(two, 4 * KiB, 256 * MiB, 2);
  EXPECT_EQ(names(labels_of(curve2, {})), (std::vector<std::string>{"L1", "L2", "DRAM"}));
}

TEST(Levels, VmReportsTheHostsL3AndTheCurveWins) {
  // Reported L3 260 MiB (the host's), but the curve reaches DRAM level after 32 MiB.
  auto curve = synthetic_curve(kFourLevels, 4 * KiB, 1024 * MiB, 2);
  const LevelLabels l = labels_of(curve, {{"L1", 48 * KiB}, {"L2", 2 * MiB}, {"L3", 260 * MiB}});
  ASSERT_EQ(names(l), (std::vector<std::string>{"L1", "L2", "L3", "DRAM"}));
  EXPECT_EQ(l.levels[2].agreement, "disagrees");
  EXPECT_EQ(l.levels[2].reported_bytes, 260 * MiB);
  EXPECT_LT(l.levels[2].inferred_bytes, 64 * MiB);
  EXPECT_GE(l.levels[3].min_bytes, 32 * MiB);
  ASSERT_EQ(l.notes.size(), 1u);
  EXPECT_NE(l.notes[0].find("260 MiB"), std::string::npos) << l.notes[0];
}

TEST(Levels, SpuriousKneeDoesNotShiftLargerLevels) {
  // An extra step inside L2 (at 256 KiB, x1.4): with three levels reported, the two steps closest in
  // bandwidth are one level, and the larger levels keep their names.
  const std::vector<Level> five = {{48 * KiB, 400 * GB}, {256 * KiB, 200 * GB}, {2 * MiB, 140 * GB},
                                   {32 * MiB, 60 * GB},  {0, 20 * GB}};
  auto curve = synthetic_curve(five, 4 * KiB, 1024 * MiB, 4);
  PlateauOptions room;  // the segmentation may find five levels when allowed them; the labels still name four
  room.max_levels = 5;
  const auto p = find_plateaus(curve, room);
  ASSERT_EQ(p.size(), 5u);
  const LevelLabels l = label_levels(curve, p, kReported);
  EXPECT_EQ(names(l), (std::vector<std::string>{"L1", "L2", "L3", "DRAM"}));
  EXPECT_EQ(l.levels[1].min_bytes, p[1].min_bytes);
  EXPECT_EQ(l.levels[1].max_bytes, p[2].max_bytes);
  EXPECT_EQ(l.levels[1].agreement, "agrees");
}

TEST(Levels, SweepThatStopsInACacheHasNoDram) {
  auto curve = synthetic_curve(kFourLevels, 4 * KiB, 16 * MiB, 4);
  const LevelLabels l = labels_of(curve, kReported);
  EXPECT_EQ(names(l), (std::vector<std::string>{"L1", "L2", "L3"}));
  EXPECT_FALSE(l.notes.empty());
  EXPECT_EQ(level_from_reported(40 * KiB, {{"L1", 48 * KiB}, {"L2", 2 * MiB}}), "L1");
  EXPECT_EQ(level_from_reported(1 * MiB, {{"L1", 48 * KiB}, {"L2", 2 * MiB}}), "L2");
  EXPECT_EQ(level_from_reported(3 * MiB, {{"L1", 48 * KiB}, {"L2", 2 * MiB}}), "");
  EXPECT_EQ(level_from_reported(5 * MiB, {{"L1", 48 * KiB}, {"L2", 2 * MiB}}), "DRAM");
}

// A results document with the bandwidth entries a sweep would write: per point 3 repetitions (the
// curve's value x 0.98, 1.0, 1.01) and median/max aggregates.
// write_allocate > 0: the entries also carry bytes_per_second_write_allocate = that factor x STREAM's.
json results_doc(const std::vector<std::tuple<std::string, int, std::vector<CurvePoint>>>& curves,
                 const json& caches, double write_allocate = 0.0) {
  json doc = {{"context", {{"schema_version", 1}, {"machine", {{"caches", caches}}},
                           {"binding", {{"policy", "compact"}}}}},
              {"benchmarks", json::array()}};
  for (const auto& [kernel, threads, curve] : curves) {
    for (const CurvePoint& c : curve) {
      const std::string name = "bandwidth/" + kernel + "/threads:" + std::to_string(threads) + "/bytes:" +
                               std::to_string(static_cast<long long>(c.bytes));
      json labels = {{"suite", "bandwidth"}, {"kernel", kernel}, {"precision", "fp64"}, {"threads", threads}};
      for (double f : {0.98, 1.0, 1.01}) {
        doc["benchmarks"].push_back({{"name", name}, {"run_name", name}, {"run_type", "iteration"},
                                     {"labels", labels}, {"bytes_per_second", c.value * f},
                                     {"working_set_bytes", c.bytes}});
        if (write_allocate > 0) doc["benchmarks"].back()["bytes_per_second_write_allocate"] = c.value * f * write_allocate;
      }
      for (auto [agg, f] : {std::pair{"median", 1.0}, std::pair{"max", 1.01}}) {
        doc["benchmarks"].push_back({{"name", name + "_" + agg}, {"run_name", name}, {"run_type", "aggregate"},
                                     {"aggregate_name", agg}, {"labels", labels},
                                     {"bytes_per_second", c.value * f}, {"working_set_bytes", c.bytes}});
        if (write_allocate > 0) doc["benchmarks"].back()["bytes_per_second_write_allocate"] = c.value * f * write_allocate;
      }
    }
  }
  return doc;
}

const json kVmCaches = json::array({
    {{"level", 1}, {"type", "data"}, {"size_bytes", 49152}, {"instances", 2}, {"cores_per_instance", 1}},
    {{"level", 1}, {"type", "instruction"}, {"size_bytes", 32768}, {"instances", 2}, {"cores_per_instance", 1}},
    {{"level", 2}, {"type", "unified"}, {"size_bytes", 2097152}, {"instances", 2}, {"cores_per_instance", 1}},
    {{"level", 3}, {"type", "unified"}, {"size_bytes", 272629760}, {"instances", 1}, {"cores_per_instance", 2}},
});

const json* find_ceiling(const json& out, const std::string& level, const std::string& kernel, int threads) {
  for (const json& c : out["memory_ceilings"]) {
    if (c["level"] == level && c["kernel"] == kernel && c["threads"] == threads) return &c;
  }
  return nullptr;
}

TEST(MemoryCeilings, DerivedFromAResultsDocument) {
  const auto read1 = synthetic_curve(kFourLevels, 4 * KiB, 512 * MiB, 2);
  // Two threads: per-core caches double, bandwidth almost doubles.
  const std::vector<Level> two = {{96 * KiB, 790 * GB}, {4 * MiB, 290 * GB}, {48 * MiB, 100 * GB}, {0, 24 * GB}};
  const auto read2 = synthetic_curve(two, 4 * KiB, 512 * MiB, 2);
  // A sparsely measured kernel: one size in the middle of each level.
  std::vector<CurvePoint> copy1 = {{16 * KiB, 300 * GB}, {512 * KiB, 120 * GB}, {8 * MiB, 50 * GB},
                                   {256 * MiB, 12 * GB}};
  const json doc = results_doc({{"read", 1, read1}, {"copy", 1, copy1}, {"read", 2, read2}}, kVmCaches);
  const json out = testing::derived_memory(doc);

  for (const char* level : {"L1", "L2", "L3", "DRAM"}) {
    ASSERT_NE(find_ceiling(out, level, "read", 1), nullptr) << level;
    ASSERT_NE(find_ceiling(out, level, "read", 2), nullptr) << level;
    ASSERT_NE(find_ceiling(out, level, "copy", 1), nullptr) << level;
  }
  const json& l1 = *find_ceiling(out, "L1", "read", 1);
  EXPECT_DOUBLE_EQ(l1["value"].get<double>(), 400 * GB * 1.01);  // the max aggregate
  EXPECT_DOUBLE_EQ(l1["median"].get<double>(), 400 * GB);
  EXPECT_EQ(l1["unit"], "B/s");
  EXPECT_EQ(l1["min_bytes"], 4096);
  EXPECT_LE(l1["max_bytes"].get<double>(), 48 * KiB * 1.2);
  EXPECT_EQ(l1["source"], "curve");
  EXPECT_DOUBLE_EQ((*find_ceiling(out, "DRAM", "read", 1))["value"].get<double>(), 20 * GB * 1.01);
  EXPECT_DOUBLE_EQ((*find_ceiling(out, "L3", "copy", 1))["value"].get<double>(), 50 * GB * 1.01);
  EXPECT_EQ((*find_ceiling(out, "L3", "copy", 1))["min_bytes"], 8 * MiB);
  EXPECT_DOUBLE_EQ((*find_ceiling(out, "DRAM", "read", 2))["value"].get<double>(), 24 * GB * 1.01);

  // Ordered by threads, then level, then kernel.
  EXPECT_EQ(out["memory_ceilings"][0]["kernel"], "copy");
  EXPECT_EQ(out["memory_ceilings"][0]["level"], "L1");
  EXPECT_EQ(out["memory_ceilings"].back()["threads"], 2);
  EXPECT_EQ(out["memory_ceilings"].back()["level"], "DRAM");

  // memory_levels: reported vs inferred; at 2 threads the per-core L2 counts twice.
  int l3_disagreements = 0;
  for (const json& l : out["memory_levels"]) {
    EXPECT_EQ(l["reference_kernel"], "read");
    if (l["level"] == "L2" && l["threads"] == 2) {
      EXPECT_EQ(l["reported_bytes"], 4 * 1048576);
    }
    if (l["level"] == "L2") {
      EXPECT_EQ(l["agreement"], "agrees");
    }
    if (l["level"] == "L3") {
      // 260 MiB shared by 2 cores is 130 MiB per core, more than any CPU has (a VM's host cache): no prior.
      EXPECT_TRUE(l["reported_bytes"].is_null()) << l.dump();
      EXPECT_EQ(l["agreement"], "unchecked");
      EXPECT_LT(l["inferred_bytes"].get<double>(), 128 * MiB);
      ++l3_disagreements;
    }
  }
  EXPECT_EQ(l3_disagreements, 2);
  EXPECT_TRUE(any_note_has(out["notes"], "L3 reported as 260 MiB per instance shared by 2 cores"));
  // Its entries carry no write-allocate counter: no note about a byte count the file does not have.
  bool caveat = false;
  for (const json& n : out["notes"]) caveat = caveat || n.get<std::string>().find("write-allocate") != std::string::npos;
  EXPECT_FALSE(caveat);
}

TEST(MemoryCeilings, BothByteCountsPerCeiling) {
  // copy with write-allocate moves 3 words where STREAM counts 2: x1.5 in every entry.
  const auto read1 = synthetic_curve(kFourLevels, 4 * KiB, 512 * MiB, 2);
  const json doc = results_doc({{"read", 1, read1}}, kVmCaches, 1.5);
  const json out = testing::derived_memory(doc);
  const json* dram = find_ceiling(out, "DRAM", "read", 1);
  ASSERT_NE(dram, nullptr);
  EXPECT_DOUBLE_EQ((*dram)["value_write_allocate"].get<double>(), 1.5 * (*dram)["value"].get<double>());
  EXPECT_DOUBLE_EQ((*dram)["median_write_allocate"].get<double>(), 1.5 * (*dram)["median"].get<double>());
  EXPECT_TRUE(any_note_has(out["notes"], "two byte counts"));
  // A file from before the counter (or a device's kernels): neither the fields nor the note about them.
  const json old = testing::derived_memory(results_doc({{"read", 1, read1}}, kVmCaches));
  EXPECT_FALSE((*find_ceiling(old, "DRAM", "read", 1)).contains("value_write_allocate"));
  EXPECT_FALSE(any_note_has(old["notes"], "two byte counts"));
}

TEST(MemoryCeilings, LevelsFromEveryKernelAndSaidWhenThreadCountsDiffer) {
  const auto read1 = synthetic_curve(kFourLevels, 4 * KiB, 512 * MiB, 2);
  const std::vector<Level> three = {{96 * KiB, 790 * GB}, {48 * MiB, 100 * GB}, {0, 24 * GB}};
  const auto read2 = synthetic_curve(three, 4 * KiB, 512 * MiB, 2);
  const json out = testing::derived_memory(
      results_doc({{"read", 1, read1}, {"triad", 1, read1}, {"read", 2, read2}}, kVmCaches));
  bool both = false;
  for (const json& l : out["memory_levels"]) {
    if (l["threads"] == 1) both = l["detected_from"] == json::array({"read", "triad"});
  }
  EXPECT_TRUE(both);
  EXPECT_TRUE(any_note_has(out["notes"], "2 threads show the levels L1, L3, DRAM but 1 thread show"))
      << out["notes"].dump(1);
  EXPECT_NE(find_ceiling(out, "DRAM", "read", 2), nullptr);
}

TEST(MemoryCeilings, StreamingStoreKernelsDoNotVoteOnLevels) {
  // The Zen 4 guest's full profile at 2 threads: read and triad step at every cache, the streaming-store
  // kernels are flat from 16 KiB to DRAM (their stores bypass the caches). Combined with them, the knees
  // would flatten; the results file's kernel table says which kernels stream, and those do not vote, though
  // they keep a ceiling per level.
  const std::vector<Level> cached = {{64 * KiB, 350 * GB}, {2 * MiB, 210 * GB}, {16 * MiB, 175 * GB}, {0, 33 * GB}};
  const auto read = synthetic_curve(cached, 4 * KiB, 1024 * MiB, 4);
  const auto copy_nt =
      synthetic_curve({{8 * KiB, 35 * GB}, {32 * MiB, 100 * GB}, {0, 45 * GB}}, 4 * KiB, 1024 * MiB, 4);
  const auto write_nt = synthetic_curve({{64 * MiB, 52 * GB}, {0, 27 * GB}}, 4 * KiB, 1024 * MiB, 4);
  const json caches = json::array({
      {{"level", 1}, {"type", "data"}, {"size_bytes", 32768}, {"instances", 2}, {"cores_per_instance", 1}},
      {{"level", 2}, {"type", "unified"}, {"size_bytes", 1048576}, {"instances", 2}, {"cores_per_instance", 1}},
      {{"level", 3}, {"type", "unified"}, {"size_bytes", 33554432}, {"instances", 1}, {"cores_per_instance", 2}},
  });
  json doc = results_doc({{"read", 2, read}, {"triad", 2, read}, {"copy_nt", 2, copy_nt}, {"write_nt", 2, write_nt}},
                         caches);
  json table = json::array();
  for (const char* k : {"read", "triad", "copy_nt", "write_nt"}) {
    table.push_back({{"kernel", k}, {"non_temporal", std::string(k).ends_with("_nt")}});
  }
  doc["context"]["suites"]["bandwidth"]["kernels"] = table;
  const json out = testing::derived_memory(doc);
  std::vector<std::string> levels;
  for (const json& l : out["memory_levels"]) {
    levels.push_back(l["level"].get<std::string>());
    EXPECT_EQ(l["detected_from"], json::array({"read", "triad"}));
    if (l["level"] != "DRAM") {
      EXPECT_EQ(l["agreement"], "agrees") << l.dump();
    }
  }
  EXPECT_EQ(levels, (std::vector<std::string>{"L1", "L2", "L3", "DRAM"}));
  EXPECT_NE(find_ceiling(out, "L1", "copy_nt", 2), nullptr);
  EXPECT_TRUE(any_note_has(out["notes"], "2 threads: copy_nt, write_nt (streaming stores")) << out["notes"].dump(1);
  // A file without the table (older runs): every swept kernel votes, as before.
  doc["context"].erase("suites");
  const json old = testing::derived_memory(doc);
  EXPECT_EQ(old["memory_levels"][0]["detected_from"].size(), 4u);
}

TEST(MemoryCeilings, ScatteredRepetitionsAreSaid) {
  json doc = results_doc({{"read", 1, synthetic_curve(kFourLevels, 4 * KiB, 512 * MiB, 2)}}, kVmCaches);
  int i = 0;
  for (json& e : doc["benchmarks"]) {
    if (e["run_type"] == "iteration") e["bytes_per_second"] = e["bytes_per_second"].get<double>() * (0.6 + 0.4 * (i++ % 3));
  }
  const json out = testing::derived_memory(doc);
  EXPECT_TRUE(any_note_has(out["notes"], "the machine was busy"));
  EXPECT_NE(find_ceiling(out, "DRAM", "read", 1), nullptr);  // and still a DRAM roof
}

TEST(MemoryCeilings, FewSizesFallBackToReportedLevels) {
  // `--sizes 16KiB,1MiB` at very different bandwidths: no plateau of two points.
  const json doc = results_doc({{"read", 1, {{16 * KiB, 400 * GB}, {1 * MiB, 150 * GB}}}}, kVmCaches);
  const json out = testing::derived_memory(doc);
  ASSERT_NE(find_ceiling(out, "L1", "read", 1), nullptr);
  ASSERT_NE(find_ceiling(out, "L2", "read", 1), nullptr);
  EXPECT_EQ((*find_ceiling(out, "L2", "read", 1))["source"], "reported");
  EXPECT_EQ((*find_ceiling(out, "L2", "read", 1))["min_bytes"], 1048576);
  // The table of levels names DRAM too, from twice the last plausible reported size (issue 46: a sweep whose memory
  // moved gave no plateaus, and its levels ended at L3 while its ceilings named DRAM).
  const auto dram = std::find_if(out["memory_levels"].begin(), out["memory_levels"].end(),
                                 [](const json& l) { return l["level"] == "DRAM" && l["threads"] == 1; });
  ASSERT_NE(dram, out["memory_levels"].end()) << out["memory_levels"].dump();
  EXPECT_EQ((*dram)["source"], "reported");
  EXPECT_EQ((*dram)["agreement"], "unchecked");
  EXPECT_TRUE((*dram)["max_bytes"].is_null());
  EXPECT_GT((*dram)["min_bytes"].get<double>(), (*find_ceiling(out, "L2", "read", 1))["max_bytes"].get<double>());
  EXPECT_TRUE(any_note_has(out["notes"], "gave no plateaus"));
  // The levels are typed rows (issue 61: DetectedLevelRecord), none left in the part's `extra`; a null the derivation
  // wrote (the curve did not say) is no member, still written, and the rows write back to the same text.
  {
    const ResultsDocument typed_doc = lenient(doc);
    const RooflineSection part = derive_memory_ceilings(target_document(typed_doc, kCpuTargetId), recorded_targets(typed_doc).front());
    ASSERT_TRUE(part.memory_levels && !part.extra.contains("memory_levels"));
    const DetectedLevelRecord& typed_dram = part.memory_levels->back();
    EXPECT_TRUE(typed_dram.level == "DRAM" && typed_dram.threads == 1 && typed_dram.source == "reported");
    EXPECT_TRUE(!typed_dram.max_bytes && fields::written(ROOFLINE_FIELD(typed_dram, max_bytes)));
    EXPECT_GT(typed_dram.min_bytes.value_or(0.0), 1048576.0);
    EXPECT_EQ(to_json(part)["memory_levels"].dump(), out["memory_levels"].dump());
  }

  // Nothing reported either: no ceilings, and a note that says why.
  const json bare = testing::derived_memory(results_doc({{"read", 1, {{16 * KiB, 4e11}, {1 * MiB, 1.5e11}}}},
                                                       json::array()));
  EXPECT_TRUE(bare["memory_ceilings"].empty());
  EXPECT_FALSE(bare["notes"].empty());
  // No bandwidth entries at all: empty arrays.
  const json none = testing::derived_memory(json{{"context", json::object()}, {"benchmarks", json::array()}});
  EXPECT_TRUE(none["memory_ceilings"].empty());
}

TEST(MemoryCeilings, ReportedLevelsScaleWithThreads) {
  const HostFacts machine = host_facts(typed_fragment({{"context", {{"machine", {{"caches", kVmCaches}}}}}}).context);
  const auto one = reported_levels(machine, 1, "compact");
  ASSERT_EQ(one.size(), 3u);
  EXPECT_EQ(one[0].bytes, 49152);
  EXPECT_EQ(one[2].bytes, 272629760);
  const auto two = reported_levels(machine, 2, "compact");
  EXPECT_EQ(two[0].bytes, 2 * 49152);
  EXPECT_EQ(two[1].bytes, 2 * 2097152);
  EXPECT_EQ(two[2].bytes, 272629760);
  EXPECT_TRUE(reported_levels(HostFacts{}, 2, "compact").empty());
}


// Issue 46: 2 threads on 4 KiB read 2 KiB each, bound by per-call overhead (a Zen 5 guest read 364-612 GB/s at 4-16 KiB
// from run to run, 32 and 64 KiB ~610 in every run): the first level's plateau figure counts its upper half only.
TEST(MemoryCeilings, TheFirstLevelsFigureLeavesOutItsOverheadBoundSizes) {
  EXPECT_DOUBLE_EQ(plateau_figure({{64, 605}, {4, 364}, {16, 600}, {8, 450}, {32, 610}}, true), 605);
  EXPECT_DOUBLE_EQ(plateau_figure({{64, 605}, {4, 364}, {16, 600}, {8, 450}, {32, 610}}, false), 600);
  EXPECT_DOUBLE_EQ(plateau_figure({{4, 364}, {8, 600}}, true), 482);  // two sizes: both
  EXPECT_DOUBLE_EQ(plateau_figure({}, true), 0.0);
  const std::vector<Level> two = {{64 * KiB, 610 * GB}, {2 * MiB, 230 * GB}, {16 * MiB, 90 * GB}, {0, 45 * GB}};
  auto read2 = synthetic_curve(two, 4 * KiB, 512 * MiB, 1);
  read2[0].value = 505 * GB;  // 4 KiB: one run's 2-thread curve on that guest (599-611 GB/s at 16-64 KiB)
  read2[1].value = 521 * GB;  // 8 KiB
  read2[2].value = 560 * GB;  // 16 KiB: the figure over every size would be this one
  const json doc = results_doc({{"read", 2, read2}}, kVmCaches);
  const json out = testing::derived_memory(doc);
  const json* l1 = find_ceiling(out, "L1", "read", 2);
  ASSERT_NE(l1, nullptr);
  EXPECT_EQ((*l1)["min_bytes"], 4096);  // the level's range and roof keep every size
  EXPECT_DOUBLE_EQ((*l1)["plateau_median"].get<double>(), 610 * GB);
  // The gate's figure over the base's sizes (compare_levels.cpp) follows the same rule; a later level keeps all.
  const ResultsDocument typed_doc = typed_fragment(doc);
  EXPECT_DOUBLE_EQ(plateau_median_over(typed_doc, 2, "read", 4 * KiB, 64 * KiB).first, 610 * GB);
  // A range without the smallest size does not start the curve: every size counts (521, 560, 610, 610).
  EXPECT_DOUBLE_EQ(plateau_median_over(typed_doc, 2, "read", 8 * KiB, 64 * KiB).first, 585 * GB);
  const json* dram = find_ceiling(out, "DRAM", "read", 2);
  ASSERT_NE(dram, nullptr);
  EXPECT_DOUBLE_EQ((*dram)["plateau_median"].get<double>(), 45 * GB);
}

}  // namespace
}  // namespace roofline
