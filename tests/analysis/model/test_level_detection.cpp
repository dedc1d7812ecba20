// Property tests of the level detection (plateaus.hpp) on generated curves: known plateaus under a
// sawtooth, noise with its spread, a missing level, a VM whose reported L3 is the host's, an undecidable
// end (conservative DRAM), several kernels' curves combined, and the shapes of a Zen 4 guest's full
// profile (a 1.2x step between long plateaus, a long L3-to-DRAM transition, a noisy L1) under seeded
// random noise, over several seeds. Every case checks the invariants: the levels come out in order of size
// with decreasing bandwidth, and the last one is DRAM.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "roofline/model/plateaus.hpp"
#include "support/notes.hpp"
#include "synthetic_curves.hpp"

namespace roofline {
namespace {
using namespace roofline::testing;

const std::vector<ReportedLevel> kReported = {{"L1", 48 * KiB}, {"L2", 2 * MiB}, {"L3", 32 * MiB}};

// Invariants of any labelling that ends in DRAM: ascending ranges, strictly falling bandwidth, names in order.
void expect_ordered(const LevelLabels& l) {
  ASSERT_FALSE(l.levels.empty());
  EXPECT_EQ(l.levels.back().level, "DRAM");
  for (std::size_t i = 1; i < l.levels.size(); ++i) {
    EXPECT_GT(l.levels[i].min_bytes, l.levels[i - 1].max_bytes) << i;
    EXPECT_LT(l.levels[i].bandwidth, l.levels[i - 1].bandwidth) << i;
    EXPECT_LT(l.levels[i - 1].level, l.levels[i].level == "DRAM" ? std::string("L9") : l.levels[i].level) << i;
  }
}

const std::vector<std::string> kAllLevels = {"L1", "L2", "L3", "DRAM"};

// The labelling names exactly `names`, in order, and holds the invariants (expect_ordered). Fatal when the
// names differ; call it inside ASSERT_NO_FATAL_FAILURE where the test goes on to index the levels.
void expect_levels(const LevelLabels& l, const std::vector<std::string>& names) {
  ASSERT_EQ(level_names(l), names);
  expect_ordered(l);
}

LevelLabels labels_of(std::vector<CurvePoint> curve, const std::vector<ReportedLevel>& reported) {
  return detect_levels({std::move(curve)}, reported).labels;
}

TEST(LevelDetection, SawtoothInsideL1DoesNotSplitIt) {
  // The recorded failure: every other size inside L1 30-60% low (a tail loop at non-power-of-two sizes).
  auto curve = synthetic_curve(kFourLevels, 4 * KiB, 1024 * MiB, 2);
  for (std::size_t i = 1; i < curve.size(); i += 2) {
    if (curve[i].bytes < 40 * KiB) curve[i].value *= i % 4 == 1 ? 0.68 : 0.45;
  }
  const LevelLabels l = labels_of(curve, kReported);
  ASSERT_NO_FATAL_FAILURE(expect_levels(l, kAllLevels));
  EXPECT_EQ(l.levels[0].min_bytes, 4 * KiB);
  EXPECT_GE(l.levels[0].max_bytes, 32 * KiB);
  EXPECT_DOUBLE_EQ(l.levels[0].bandwidth, 400 * GB);
}

TEST(LevelDetection, NoisyRepetitionsWidenTheFlatnessTest) {
  // +-12% scatter between neighbouring sizes, and repetitions that say so (spread 8%).
  const std::vector<double> noise = {1.0, 1.12, 0.9, 1.08, 0.88, 1.1, 0.94, 1.05};
  auto curve = synthetic_curve(kFourLevels, 4 * KiB, 1024 * MiB, 4, noise);
  for (CurvePoint& p : curve) p.spread = 0.08;
  const LevelLabels l = labels_of(curve, kReported);
  expect_levels(l, kAllLevels);
}

TEST(LevelDetection, MissingLevelLeavesAGapInsteadOfShiftingNames) {
  // No L3 plateau (an L3 too small for these threads to see): L1, L2, then DRAM.
  const std::vector<Level> no_l3 = {{48 * KiB, 400 * GB}, {2 * MiB, 150 * GB}, {0, 20 * GB}};
  const LevelLabels a = labels_of(synthetic_curve(no_l3, 4 * KiB, 1024 * MiB, 2), kReported);
  expect_levels(a, {"L1", "L2", "DRAM"});
  EXPECT_TRUE(any_note_has(a.notes, "L3 (reported 32 MiB) has no plateau"));

  // No L2 plateau: the knees name the levels that exist (L1 at 48 KiB, L3 at 32 MiB).
  const std::vector<Level> no_l2 = {{48 * KiB, 400 * GB}, {32 * MiB, 60 * GB}, {0, 20 * GB}};
  const LevelLabels b = labels_of(synthetic_curve(no_l2, 4 * KiB, 1024 * MiB, 2), kReported);
  expect_levels(b, {"L1", "L3", "DRAM"});
}

TEST(LevelDetection, APlateauEndingJustPastTheL3IsNotDram) {
  // Issue 46's run 1 (2-vCPU Zen 5 guest, L3 32 MiB plausible): the 2-thread sweep cut at 45 MiB, its last plateau
  // 4-45 MiB at 203 GB/s. It is the L3 (or the host's), warned dram_not_reached, never DRAM.
  const std::vector<Level> cut = {{48 * KiB, 600 * GB}, {1 * MiB, 300 * GB}, {0, 203 * GB}};
  const LevelLabels l = labels_of(synthetic_curve(cut, 4 * KiB, 45 * MiB, 2), kReported);
  ASSERT_FALSE(l.levels.empty());
  for (const LevelLabel& level : l.levels) EXPECT_NE(level.level, "DRAM");
  EXPECT_EQ(l.levels.back().warning, kWarningDramNotReached);
  EXPECT_TRUE(any_note_has(l.notes, "dram_not_reached"));
  // The same machine swept to 8x the L3 (the plan's end): DRAM, starting beyond the L3.
  const std::vector<Level> full = {{48 * KiB, 600 * GB}, {1 * MiB, 300 * GB}, {40 * MiB, 150 * GB}, {0, 35 * GB}};
  const LevelLabels d = labels_of(synthetic_curve(full, 4 * KiB, 256 * MiB, 2), kReported);
  ASSERT_FALSE(d.levels.empty());
  EXPECT_EQ(d.levels.back().level, "DRAM");
  EXPECT_GT(d.levels.back().min_bytes, 32 * MiB);
  EXPECT_TRUE(d.levels.back().warning.empty());
}

TEST(LevelDetection, VmReportingTheHostsL3StillGetsDram) {
  // The recorded VM: L3 flat from 4 to 64 MiB, DRAM flat from 128 MiB on, but an L3 of 300 MiB reported.
  const std::vector<Level> vm = {{45 * KiB, 300 * GB}, {1.4 * MiB, 140 * GB}, {64 * MiB, 29 * GB}, {0, 17 * GB}};
  // 300 MiB for 2 vCPUs is no plausible L3 (reported_levels marks it so): no prior for where DRAM starts (issue 46:
  // a plausible one would keep DRAM beyond it).
  std::vector<ReportedLevel> reported = {{"L1", 48 * KiB}, {"L2", 2 * MiB}, {"L3", 300 * MiB}};
  reported.back().plausible = false;
  for (double end : {512 * MiB, 724 * MiB, 3 * 1024 * MiB}) {
    const LevelLabels l = labels_of(synthetic_curve(vm, 4 * KiB, end, 2), reported);
    SCOPED_TRACE(end);
    ASSERT_NO_FATAL_FAILURE(expect_levels(l, kAllLevels));
    EXPECT_EQ(l.levels[2].agreement, "unchecked");  // no plausible size to agree with
    EXPECT_LE(l.levels[3].min_bytes, 192 * MiB);
  }
}

TEST(LevelDetection, AStrayPlateauJoinsACacheLevelNeverDram) {
  // This session's VM: L1 48 KiB, L2 1 MiB, L3 32 MiB reported, but the curve has a fourth cache-like step
  // (64..128 MiB at 45 GB/s) before DRAM. The segmentation has room for the reported levels and DRAM only:
  // the stray step is no level of its own and takes neither L3's bandwidth nor DRAM's, and the DRAM roof stays
  // the large end's.
  const std::vector<Level> five = {{45 * KiB, 540 * GB}, {700 * KiB, 205 * GB}, {24 * MiB, 122 * GB},
                                   {128 * MiB, 45 * GB}, {0, 20 * GB}};
  const std::vector<ReportedLevel> reported = {{"L1", 48 * KiB}, {"L2", 1 * MiB}, {"L3", 32 * MiB}};
  const LevelLabels l = labels_of(synthetic_curve(five, 4 * KiB, 1024 * MiB, 2), reported);
  ASSERT_NO_FATAL_FAILURE(expect_levels(l, kAllLevels));
  EXPECT_DOUBLE_EQ(l.levels[2].bandwidth, 122 * GB);
  EXPECT_DOUBLE_EQ(l.levels[3].bandwidth, 20 * GB);
  EXPECT_GT(l.levels[3].min_bytes, 128 * MiB);
}

TEST(LevelDetection, UndecidableEndIsTakenAsDram) {
  // The sweep ends half an octave into the last plateau, past the reported L3 but within twice it: the
  // conservative reading keeps a DRAM roof, and says so.
  auto curve = synthetic_curve(kFourLevels, 4 * KiB, 96 * MiB, 2);
  const LevelLabels l = labels_of(curve, {{"L1", 48 * KiB}, {"L2", 2 * MiB}, {"L3", 40 * MiB}});
  ASSERT_EQ(level_names(l), kAllLevels);
  EXPECT_TRUE(any_note_has(l.notes, "conservative"));
  // Nothing reported and a flat end of one octave: DRAM too.
  const LevelLabels bare = labels_of(synthetic_curve(kFourLevels, 4 * KiB, 256 * MiB, 2), {});
  EXPECT_EQ(bare.levels.back().level, "DRAM");
}

TEST(LevelDetection, EveryKernelSweptAddsEvidence) {
  // read with a sawtooth over all of L1 and L2, triad clean but on other levels' bandwidths: together
  // the knees are where both change, and the combined curve stays on the read curve's scale.
  auto read = synthetic_curve(kFourLevels, 4 * KiB, 1024 * MiB, 2);
  for (std::size_t i = 1; i < read.size(); i += 2) {
    if (read[i].bytes < 1 * MiB) read[i].value *= 0.7;
  }
  const std::vector<Level> triad_levels = {{48 * KiB, 450 * GB}, {2 * MiB, 100 * GB}, {32 * MiB, 30 * GB},
                                           {0, 15 * GB}};
  auto triad = synthetic_curve(triad_levels, 4 * KiB, 1024 * MiB, 2);
  for (CurvePoint& p : triad) p.bytes *= 0.98;  // 3 arrays of whole steps: slightly different sizes
  const std::vector<CurvePoint> combined = combined_curve({read, triad});
  ASSERT_EQ(combined.size(), read.size());
  EXPECT_NEAR(combined[0].value, 400 * GB, 1e6);  // both at their best
  const LevelDetection d = detect_levels({read, triad}, kReported);
  expect_levels(d.labels, kAllLevels);
}

const std::vector<std::uint32_t> kSeeds = {1, 2, 3, 5, 8, 13, 21, 34};

// The Zen 4 guest's 1-thread read curve at 4 sizes per octave: L1 32 KiB, L2 1 MiB and L3 (whose plateau
// ends at 10 MiB, well before the reported 32 MiB) only 1.2x apart, DRAM ~28 GB/s; reported as hwloc says.
const std::vector<Level> kZen4 = {{32 * KiB, 210 * GB}, {1 * MiB, 115 * GB}, {10 * MiB, 115 * GB / 1.2},
                                  {0, 28 * GB}};
const std::vector<ReportedLevel> kZen4Reported = {{"L1", 32 * KiB}, {"L2", 1 * MiB}, {"L3", 32 * MiB}};

TEST(LevelDetection, TwentyPercentStepBetweenLongPlateausIsALevel) {
  // Two plateaus 1.2x apart, four octaves each, +-5% noise, 4 sizes per octave: two levels, whatever the seed.
  const std::vector<Level> two = {{1 * MiB, 115 * GB}, {0, 115 * GB / 1.2}};
  for (std::uint32_t seed : kSeeds) {
    SCOPED_TRACE(seed);
    auto curve = synthetic_curve(two, 64 * KiB, 32 * MiB, 4);
    add_noise(curve, 0.05, seed);
    const std::vector<Plateau> p = find_plateaus(curve);
    ASSERT_EQ(p.size(), 2u);
    EXPECT_NEAR(p[0].level / (115 * GB), 1.0, 0.05);
    EXPECT_NEAR(p[1].level / (115 * GB / 1.2), 1.0, 0.05);
    // The step is inside the one-octave transition (its first sizes are within the noise of the level above).
    EXPECT_LT(p[0].max_bytes, 2 * MiB);
    EXPECT_GT(p[1].min_bytes, 1 * MiB);
  }
}

TEST(LevelDetection, OneNoisyPlateauIsNotCutIntoLevels) {
  // The converse: one level with +-5% noise over eight octaves stays one plateau.
  for (std::uint32_t seed : kSeeds) {
    SCOPED_TRACE(seed);
    auto curve = synthetic_curve({{0, 100 * GB}}, 64 * KiB, 16 * MiB, 4);
    add_noise(curve, 0.05, seed);
    EXPECT_EQ(find_plateaus(curve).size(), 1u);
  }
}

TEST(LevelDetection, LongTransitionBetweenL3AndDramIsNoLevel) {
  // L3 flat to 10 MiB, then falling for 2.2 octaves to DRAM at 46 MiB (the Zen 4 guest at 1 thread), +-3%
  // noise: the runs along the fall are no level, L3 keeps its plateau's bandwidth, and the reported 32 MiB
  // lies in the knee after it.
  for (std::uint32_t seed : kSeeds) {
    SCOPED_TRACE(seed);
    auto curve = synthetic_curve(kZen4, 4 * KiB, 1024 * MiB, 4, {}, {1.0, 1.0, 2.2});
    add_noise(curve, 0.03, seed);
    const LevelLabels l = labels_of(curve, kZen4Reported);
    ASSERT_NO_FATAL_FAILURE(expect_levels(l, kAllLevels));
    EXPECT_NEAR(l.levels[1].bandwidth / (115 * GB), 1.0, 0.04);
    EXPECT_NEAR(l.levels[2].bandwidth / (115 * GB / 1.2), 1.0, 0.04);
    // The knees: a level may hold the first size of a knee (one step of the sweep), no more.
    EXPECT_LE(l.levels[2].max_bytes, 15 * MiB);
    EXPECT_GE(l.levels[3].min_bytes, 33 * MiB);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(l.levels[i].agreement, "agrees") << l.levels[i].level;
  }
}

TEST(LevelDetection, NoisyL1StaysOneLevel) {
  // The Zen 4 guest at 2 threads: L1 (64 KiB for two cores) scattered from one size to the next, L2 and L3
  // 1.2x apart, everything else +-5%. The recorded L1 scatters with a robust sigma of 6% (neighbours up to
  // 13% apart, one size 18% low). With +-10% per size (sigma 5.8%, neighbours up to 20% apart) L1 is one
  // level from the first size, near its bandwidth; with +-13% per size the four levels are still there.
  const std::vector<Level> two = {{64 * KiB, 350 * GB}, {2 * MiB, 210 * GB}, {16 * MiB, 175 * GB}, {0, 33 * GB}};
  const std::vector<ReportedLevel> reported = {{"L1", 64 * KiB}, {"L2", 2 * MiB}, {"L3", 32 * MiB}};
  for (std::uint32_t seed : kSeeds) {
    SCOPED_TRACE(seed);
    for (double amplitude : {0.10, 0.13}) {
      SCOPED_TRACE(amplitude);
      auto curve = synthetic_curve(two, 4 * KiB, 1024 * MiB, 4);
      add_noise(curve, amplitude, seed, 0.0, 64 * KiB);
      add_noise(curve, 0.05, seed + 100, 64 * KiB * 1.01);
      const LevelLabels l = labels_of(curve, reported);
      ASSERT_NO_FATAL_FAILURE(expect_levels(l, kAllLevels));
      if (amplitude > 0.1) continue;
      EXPECT_EQ(l.levels[0].min_bytes, 4 * KiB);
      EXPECT_GE(l.levels[0].max_bytes, 38 * KiB);
      EXPECT_NEAR(l.levels[0].bandwidth / (350 * GB), 1.0, 0.1);
    }
  }
}

// Issue 46, scripts/aa-check on a Zen 5 guest (L2 1 MiB): the 1-thread L2 reads 17-35% faster at 512 KiB than
// over the rest of its plateau, and 20% slower at 1 MiB. Two runs of one build (read and triad medians, GB/s, of
// pair 2 of the fourth check in results/reference/vm-amd-zen5-l3-32m-2vcpu_aa-check-canary-checkpoints.txt) put
// the L2's end at 1 MiB and at 256 KiB: two sweep steps apart, as the bump cost more inside the level than as a
// transition. A size above its level late in the level is a bump of it, so both runs end L2 within one step.
TEST(LevelDetection, ABumpAtTheEndOfALevelDoesNotMoveItsEnd) {
  const std::vector<double> sizes_kib = {4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144};
  const auto curve = [&](const std::vector<double>& gbs) {
    std::vector<CurvePoint> c;
    for (std::size_t i = 0; i < sizes_kib.size(); ++i) c.push_back({sizes_kib[i] * KiB, gbs[i] * GB, 0.02, 5});
    return c;
  };
  const std::vector<ReportedLevel> zen5 = {{"L1", 48 * KiB}, {"L2", 1 * MiB}, {"L3", 32 * MiB}};
  const auto l2_end = [&](const std::vector<double>& read, const std::vector<double>& triad) {
    const LevelLabels l = detect_levels({curve(read), curve(triad)}, zen5).labels;
    for (const LevelLabel& level : l.levels) {
      if (level.level == "L2") return level.max_bytes;
    }
    return 0.0;
  };
  const double a = l2_end({376, 398, 397, 398, 140, 148, 155, 175, 130, 86, 88, 81, 62, 36, 33, 25, 22},
                          {356, 367, 364, 353, 146, 154, 159, 175, 120, 86, 85, 88, 60, 38, 34, 26, 21});
  const double b = l2_end({331, 346, 366, 340, 118, 118, 116, 155, 94, 76, 67, 59, 54, 35, 26, 26, 30},
                          {295, 321, 327, 302, 134, 133, 134, 169, 103, 79, 74, 57, 39, 24, 21, 24, 27});
  ASSERT_GT(a, 0.0);
  ASSERT_GT(b, 0.0);
  EXPECT_GE(b, 512 * KiB);  // the bump stays in the level
  EXPECT_LE(std::abs(std::log2(a / b)), 1.0) << a << " vs " << b;
}

}  // namespace
}  // namespace roofline
