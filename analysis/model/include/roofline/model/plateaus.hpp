// Plateaus and knees of a bandwidth-vs-working-set curve, and which memory level each plateau is.
// Pure functions over plain numbers, so tests can feed synthetic curves; derive_memory_ceilings applies
// them to a results file, and the bandwidth suite uses them to stop a quick sweep once it is flat and to
// place its spot measurements. plateaus.cpp finds plateaus (segmentation of one curve, or of every swept
// kernel's curve combined); level_labels.cpp names them, with the reported cache sizes as priors.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "roofline/common/reported_levels.hpp"  // ReportedLevel

namespace roofline {

struct CurvePoint {
  double bytes = 0.0;  // working set, all arrays together
  double value = 0.0;  // bandwidth, B/s (the median of the repetitions, for robustness against noise)
  double spread = 0.0;  // the repetitions' robust relative spread (1.4826 x MAD / median), 0 when unknown
  double repetitions = 1.0;  // how many repetitions the median is of (its noise shrinks with their root)
};

struct Plateau {
  std::size_t first = 0;  // indices into the (sorted) curve, inclusive
  std::size_t last = 0;
  std::size_t points = 0;  // points inside it (outliers between first and last are counted: they are its sizes)
  double min_bytes = 0.0;
  double max_bytes = 0.0;
  double level = 0.0;  // the median bandwidth of its sizes
};

// The one objective every target's levels are found with (results/README.md, "Memory levels"). The curve is
// log(bandwidth) against log(size); each point is either in a level (a flat piece) or in a transition between
// two levels. The segmentation minimises, over the whole curve at once (dynamic programming),
//   sum over levels of [level_penalty + sum over its points of min(z^2, outlier_cap)] + transition_cost x transitions
// where z is a point's distance from its level's fit in units of its own noise: the noise of a median of
// `repetitions` repetitions of relative spread s, 1.25 s / sqrt(repetitions), with noise_floor added in quadrature
// (a cache level is not perfectly flat: sawtooth, prefetcher and page-walk effects of a few percent).
// A point far from every level costs the same wherever it goes, so one outlier never cuts a level in two
// (that would pay level_penalty again); a step between levels pays for itself as soon as its points together
// cost more than level_penalty (a 1.14x step over a dozen sizes at 8% noise does, one noisy size does not).
struct PlateauOptions {
  double noise_floor = 0.08;
  double outlier_cap = 9.0;      // 3 sigma
  double transition_cost = 8.0;  // just under the cap: a point between two levels is a transition
  // A size above its level in the level's later half costs at most this (below transition_cost): a bump of the
  // level, not a transition out of it, which lies below (plateaus.cpp, fit_level).
  double bump_cap = 4.0;
  double level_penalty = 10.0;
  // A level holds at least min_points sizes spanning min_octaves (two sizes of the quick profile's half-octave
  // sweep): a shorter piece is a transition.
  std::size_t min_points = 2;
  double min_octaves = 0.49;
  // Nor is a piece whose sizes fall along a line by more than this (log bandwidth, 0.25 = 22%) from its first size
  // to its last: a cache level is flat (a VM's L3 falls by 15% across it), the slope from L3 to DRAM is not.
  double max_level_fall = 0.25;
  // Nor are sizes more than this many octaves apart with no size between them (a --sizes list, not a sweep).
  double max_gap_octaves = 2.0;
  // At most this many levels: the target's own (a CPU's reported cache levels + DRAM; a device's listed levels).
  // The curve may also start with a rising stretch (per-call overhead at tiny sizes), which is not a level.
  std::size_t max_levels = 4;
};

// Sorts `curve` by size and returns its levels, ascending size, in order of decreasing bandwidth: the optimal
// segmentation above, with the last size always inside the last level (the sweep ends in main memory or in the
// level it stopped in). Bandwidth only falls with size: a leading level below its successor (per-call overhead)
// is dropped and the rest segmented again, and two neighbouring levels the wrong way round are one level with
// a bump (the L2 of a Zen 5 reads 17% faster at 512 KiB than at 128 KiB).
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

// A level's plateau figure (`plateau_median`, the key figure the CI gate judges): the median over the level's
// sizes of each size's median, given as (bytes, median) pairs in any order. The level that starts the curve
// (`starts_curve`: its smallest size is the sweep's smallest) counts, when it has three sizes or more, only those
// at or above the geometric middle of its range: its small sizes are bound by per-call overhead, not by the level
// (2 threads on 4 KiB read 2 KiB each; on a Zen 5 guest they read 364-612 GB/s from run to run, 32 and 64 KiB
// ~610 in every run), so a plateau figure over them moved 10% between two runs of one build (issue 46). 0 when
// `sizes` is empty.
double plateau_figure(std::vector<std::pair<double, double>> sizes, bool starts_curve);

// ReportedLevel (a cache level as the machine facts report it): roofline/common/reported_levels.hpp.

// Named warnings on a level (issue 46): notes start with the name, memory_ceilings rows carry it as `warning`, and
// the gate does not trust a key figure of a warned level. dram_not_reached: the sweep ended on a cache plateau (the
// last level, named a cache, may hold DRAM's sizes too); superlinear: a T-thread level faster than T times the same
// level at 1 thread beyond both figures' noise (not one level at both thread counts).
inline constexpr const char* kWarningDramNotReached = "dram_not_reached";
inline constexpr const char* kWarningSuperlinear = "superlinear";

struct LevelLabel {
  std::string level;         // "L1", "L2", "L3", "DRAM" (the target's names: LevelNames)
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
  std::string warning = {};  // a named warning (above), "" when none
};

// The names a target's levels take (issue 47: every target's levels are found and named by one rule): its cache
// levels innermost first (a cache plateau takes the name of the level it is matched to; at most this many cache
// levels), and its main memory. The defaults are a CPU's; a device's come from its facts (results_targets.hpp).
struct LevelNames {
  std::vector<std::string> caches = {"L1", "L2", "L3"};
  std::string main = "DRAM";
  // Why there are at most caches.size() cache levels, in the note that merges the closest plateaus.
  std::string why_at_most = "a machine has at most three cache levels";
};

struct LevelLabels {
  std::vector<LevelLabel> levels;  // ascending size; a level may appear twice (two plateaus)
  std::vector<std::string> notes;
};

// Names the plateaus L1/L2/L3/DRAM (`names`: the target's cache levels and main memory), in order of size (and so
// of decreasing bandwidth); a reported level is a prior for the cache level of its name:
//  - DRAM is the last plateau when it starts beyond every plausible reported cache and spans at least an octave
//    at the large end of the sweep, or starts beyond twice the largest plausible cache (a VM may report its
//    host's L3; an implausible size is no prior). When neither holds but there is more than one plateau and the
//    last starts beyond the caches, it is still taken as DRAM and a note says the sweep could not decide. A
//    last plateau that starts inside a plausible cache is that cache, warned dram_not_reached (issue 46).
//  - The other plateaus are caches. More than the reported levels (or 3): the closest neighbours in
//    bandwidth merge. Fewer: each is matched to the reported level nearest its knee (in order), so a
//    missing level leaves a gap instead of shifting the names. Reported sizes that the curve contradicts
//    are shown beside the inferred ones, and the curve wins.
LevelLabels label_levels(const std::vector<CurvePoint>& sorted_curve, const std::vector<Plateau>& plateaus,
                         const std::vector<ReportedLevel>& reported, const LevelNames& names = {});

// Everything at once: the combined curve of `curves` (the reference kernel first), its plateaus and labels.
struct LevelDetection {
  std::vector<CurvePoint> curve;
  std::vector<Plateau> plateaus;
  LevelLabels labels;
};
LevelDetection detect_levels(const std::vector<std::vector<CurvePoint>>& curves,
                             const std::vector<ReportedLevel>& reported, const PlateauOptions& options = {},
                             const LevelNames& names = {});

// Fallback when the curve has no plateau to go by (e.g. a --sizes list of scattered points): the level of
// a working set from the reported sizes only ("" when nothing is reported).
std::string level_from_reported(double bytes, const std::vector<ReportedLevel>& reported,
                                const std::string& main_memory = "DRAM");

}  // namespace roofline
