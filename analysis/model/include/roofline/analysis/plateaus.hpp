// Plateaus and knees of a bandwidth-vs-working-set curve, and which memory level each plateau is.
// Pure functions over plain numbers, so tests can feed synthetic curves; derive_memory_ceilings applies
// them to a results file, and the bandwidth suite uses them to stop a quick sweep once it is flat and to
// place its spot measurements. plateaus.cpp finds plateaus (segmentation of one curve, or of every swept
// kernel's curve combined); level_labels.cpp names them, with the reported cache sizes as priors.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace roofline {

struct CurvePoint {
  double bytes = 0.0;  // working set, all arrays together
  double value = 0.0;  // bandwidth, B/s (the median of the repetitions, for robustness against noise)
  double spread = 0.0;  // the repetitions' robust relative spread (1.4826 x MAD / median), 0 when unknown
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
  // Two neighbouring flat runs are one level when their medians are within this fraction (widened to 3x
  // the repetitions' spread when that is larger, up to max_tolerance). Cache levels differ by far more
  // (x1.5 to x10); run-to-run noise of medians on a shared VM mostly stays below it.
  double tolerance = 0.15;
  double max_tolerance = 0.3;
  // Cost of one more segment in the segmentation, in units of |log(bandwidth)| summed over the points: a
  // step of 15% over 3 points, or a single point off by 2x, pays for a segment; scattered noise does not.
  double segment_penalty = 0.3;
  // Fewer points than this between two knees are a transition, not a plateau.
  std::size_t min_points = 2;
  // Nor is a run of points spanning less than this many octaves: at 4 sizes per octave (full) the slope
  // between two levels (e.g. L2 -> L3 over ~1 octave) holds 2-point runs within tolerance that are not levels.
  double min_octaves = 0.5;
  // Two neighbouring flat runs that each span at least long_octaves (and min_long_points sizes) are two
  // levels when the second is lower by at least min_long_step and the step stands out of the runs' scatter
  // (4 standard errors), even within `tolerance`: on Zen 4 the L2-to-L3 step is only 1.2x, and with 4 sizes
  // per octave each side holds a dozen sizes that say so. Short runs still merge within tolerance.
  double long_octaves = 2.0;
  std::size_t min_long_points = 4;
  double min_long_step = 0.1;
  // A run between two plateaus that falls by at least transition_slope (natural log of bandwidth per
  // octave, ~10%) and by at least transition_share of the average fall from the plateau before it to the
  // plateau after it is part of the transition between them, not a level: a cache level is flat, and a
  // long transition (L3 to DRAM on a VM, over 2 octaves) holds runs within tolerance of their median.
  double transition_slope = 0.1;
  double transition_share = 0.25;
};

// Sorts `curve` by size and splits it into plateaus (ascending size): the optimal segmentation of
// log(bandwidth) into flat pieces (least absolute deviation from each piece's median plus a penalty per
// piece, so one outlier or a sawtooth does not cut a level in two). Pieces shorter than min_points or
// min_octaves are transitions, and so are pieces that fall along the slope between their neighbours
// (transition_slope). Neighbouring pieces within tolerance are merged, unless both are long and the step
// between them is clear (long_octaves); a plateau lower than the next one (small sizes where per-call
// overhead dominates) is dropped, since caches only get slower with size. Levels come out in order of
// decreasing bandwidth.
std::vector<Plateau> find_plateaus(std::vector<CurvePoint>& curve, const PlateauOptions& options = {});

// One curve from several kernels' curves at the same thread count (every kernel swept), on the first
// curve's sizes: at each size, the geometric mean of each kernel's bandwidth relative to its own best
// (kernels with a size within a quarter octave), scaled back to the first curve's best. Knees are where
// the working set outgrows a level, whatever the kernel, so the evidence adds up while one kernel's
// noise is damped. spread: the largest of the kernels' spreads there.
std::vector<CurvePoint> combined_curve(const std::vector<std::vector<CurvePoint>>& curves);

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
  std::size_t plateau = 0;   // index into the plateaus (the first, when two plateaus were merged into one level)
  double bandwidth = 0.0;    // the level's median on the curve it was labelled on
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

// Names the plateaus L1/L2/L3/DRAM, in order of size (and so of decreasing bandwidth):
//  - DRAM is the last plateau when it spans at least an octave at the large end of the sweep, or starts
//    beyond twice the largest reported cache, whatever the reported L3 says (a VM may report its host's).
//    When neither holds but there is more than one plateau, the largest sizes are still taken as DRAM
//    (the conservative reading: a roof is never dropped) and a note says the sweep could not decide. A
//    single plateau inside the reported caches is that cache.
//  - The other plateaus are caches. More than the reported levels (or 3): the closest neighbours in
//    bandwidth merge. Fewer: each is matched to the reported level nearest its knee (in order), so a
//    missing level leaves a gap instead of shifting the names. Reported sizes that the curve contradicts
//    are shown beside the inferred ones, and the curve wins.
LevelLabels label_levels(const std::vector<CurvePoint>& sorted_curve, const std::vector<Plateau>& plateaus,
                         const std::vector<ReportedLevel>& reported);

// Everything at once: the combined curve of `curves` (the reference kernel first), its plateaus and labels.
struct LevelDetection {
  std::vector<CurvePoint> curve;
  std::vector<Plateau> plateaus;
  LevelLabels labels;
};
LevelDetection detect_levels(const std::vector<std::vector<CurvePoint>>& curves,
                             const std::vector<ReportedLevel>& reported, const PlateauOptions& options = {});

// Fallback when the curve has no plateau to go by (e.g. a --sizes list of scattered points): the level of
// a working set from the reported sizes only ("" when nothing is reported).
std::string level_from_reported(double bytes, const std::vector<ReportedLevel>& reported);

}  // namespace roofline
