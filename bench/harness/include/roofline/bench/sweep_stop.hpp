// Where the bandwidth sweep ends, from the curve measured so far (issue 32): main memory is reached when the
// read curve has fallen below the last cache plateau and then stays within the noise of its own repetitions
// for an octave. A pure function over the points (sizes and per-repetition bandwidths), so that it is tested on
// made-up curves and can later be swapped for the analysis' own segmentation.
//
// The rule, on the points sorted by size, the last one at S:
//  - the window is every point from S/2 (within 2%) to S: an octave; fewer than 2 points or no point at S/2:
//    not yet;
//  - flat: the window's medians lie within the noise of its repetitions: their spread (max - min) is at most
//    the widest repetition spread of a window point, and never less than kFlatTolerance of their mean (a quiet
//    machine's repetitions agree to <1%; a DRAM curve on huge pages still wobbles by ~2%);
//  - fallen: an earlier point's median is above every repetition of the window by more than kFlatTolerance
//    (the last cache plateau, or the slope down from it): a window still on a cache plateau is flat too, and
//    `min_end_bytes` (twice a plausible reported last-level cache, else 256 MiB) keeps it from passing for DRAM;
//  - S at least `min_end_bytes`.
// DRAM then starts at the first point of the run of points, ending at S, whose medians lie inside the window's
// band (between its lowest and highest repetition). Every target's sweep (the CPU's, a device's) uses it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace roofline {

struct SweepPoint {
  std::uint64_t bytes = 0;          // working set
  std::vector<double> bandwidths;   // B/s, one per repetition
};

struct DramVerdict {
  bool reached = false;
  std::uint64_t from_bytes = 0;       // where the DRAM band starts (when reached)
  std::uint64_t cache_end_bytes = 0;  // the largest size still above the band: the caches reach at least this far
  std::string why;               // a sentence either way, for notes and the context
};

inline constexpr double kFlatTolerance = 0.03;

// The least end of any target's bandwidth sweep on a host's memory (the CPU's, an OpenCL CPU device's) when no
// plausible cache size says more: far enough that a DRAM plateau is seen, and that a flat last-level cache does not
// pass for DRAM.
inline constexpr std::uint64_t kSweepMinEndBytes = 256ull << 20;

DramVerdict dram_reached(std::vector<SweepPoint> points, std::uint64_t min_end_bytes);

}  // namespace roofline
