// Plateaus and knees of a bandwidth-vs-working-set curve, and which memory level each plateau is.
// Pure functions over plain numbers, so tests can feed synthetic curves; derive_memory_ceilings applies
// them to a results file, and the bandwidth suite uses them to stop a quick sweep once it is flat.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace roofline {

struct CurvePoint {
  double bytes = 0.0;  // working set, all arrays together
  double value = 0.0;  // bandwidth, B/s (the median of the repetitions, for robustness against noise)
};

struct Plateau {
  std::size_t first = 0;  // indices into the (sorted) curve, inclusive
  std::size_t last = 0;
  std::size_t points = 0;  // points inside it (outliers between first and last are not counted)
  double min_bytes = 0.0;
  double max_bytes = 0.0;
  double level = 0.0;  // median value of its points
};

struct PlateauOptions {
  // A point belongs to the current plateau while within this fraction of the plateau's median. Cache
  // levels differ by far more (x1.5 to x10); run-to-run noise of medians on a shared VM stays below it.
  double tolerance = 0.15;
  // Fewer points than this between two knees are a transition, not a plateau.
  std::size_t min_points = 2;
  // Nor is a run of points spanning less than this many octaves: at 4 sizes per octave (full) the slope
  // between two levels (e.g. L2 -> L3 over ~1 octave) holds 2-point runs within tolerance that are not levels.
  double min_octaves = 0.5;
};

// Sorts `curve` by size and splits it into plateaus (ascending size). Points that fit no plateau are
// transitions. Adjacent plateaus within tolerance are merged; a plateau lower than the next one (small
// sizes where per-call overhead dominates) is dropped, since caches only ever get slower with size.
std::vector<Plateau> find_plateaus(std::vector<CurvePoint>& curve, const PlateauOptions& options = {});

// log2(max_bytes / min_bytes).
double plateau_octaves(const Plateau& p);

// Whether the curve ends on a plateau that follows at least one knee and has stayed flat for `octaves`
// octaves: the quick sweep's early-stop test.
bool flat_after_last_knee(const std::vector<CurvePoint>& sorted_curve, const std::vector<Plateau>& plateaus,
                          double octaves);

// A cache level as the machine facts report it, as capacity seen by the threads of one run (per-core
// caches count once per thread). bytes == 0: not reported.
struct ReportedLevel {
  std::string name;  // "L1", "L2", "L3"
  double bytes = 0.0;
};

struct LevelLabel {
  std::string level;         // "L1", "L2", "L3", "DRAM"
  std::size_t plateau = 0;   // index into the plateaus
  double min_bytes = 0.0;    // the plateau's range
  double max_bytes = 0.0;
  double inferred_bytes = 0.0;  // where the curve leaves this plateau (middle of the knee); 0 for the last one
  double reported_bytes = 0.0;  // the reported capacity of this level, 0 when unknown (DRAM: 0)
  // "agrees": a reported size lies in this plateau's knee; "disagrees": reported somewhere else;
  // "unchecked": no knee after the plateau to check it against (or nothing reported).
  std::string agreement;
  std::string source;  // "curve": range and label from the curve's knees; "reported": label from sizes only
};

struct LevelLabels {
  std::vector<LevelLabel> levels;  // ascending size; a level may appear twice (two plateaus)
  std::vector<std::string> notes;
};

// Names the plateaus L1/L2/L3/DRAM. Knees count levels from the smallest size; a knee that matches a
// reported size (within a factor of 2 of the knee's range) fixes the level before it, so a spurious knee
// does not shift the labels of larger levels. The last plateau is DRAM when there are more plateaus than
// reported cache levels, or when it lies beyond twice the last reported level, or, with nothing reported,
// when it follows a knee and stays flat for two octaves. Reported sizes that the curve contradicts are
// shown beside the inferred ones, and the curve wins.
LevelLabels label_levels(const std::vector<CurvePoint>& sorted_curve, const std::vector<Plateau>& plateaus,
                         const std::vector<ReportedLevel>& reported);

// Fallback when the curve has no plateau to go by (e.g. a --sizes list of scattered points): the level of
// a working set from the reported sizes only ("" when nothing is reported).
std::string level_from_reported(double bytes, const std::vector<ReportedLevel>& reported);

}  // namespace roofline
