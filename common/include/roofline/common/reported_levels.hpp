// The cache levels a machine reports, as capacity seen by the threads of one run, each marked plausible or not
// (issue 47: moved from analysis/model's memory_ceilings.hpp and plateaus.hpp): the analysis takes them as priors for
// where the levels of a recorded curve end, a plan (roofline/harness/plausible_caches.hpp) sizes its sweep and shapes
// from them. One definition below both sides, over the plain cache facts both have.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace roofline {

// One reported cache, as the machine facts hold it (0: unknown).
struct ReportedCache {
  int level = 0;           // 1, 2, 3
  std::string type;        // "data", "unified", "instruction"
  double size_bytes = 0.0; // of one instance
  int instances = 0;
  int cores_per_instance = 0;
};

// A cache level as the machine facts report it, as capacity seen by the threads of one run (per-core
// caches count once per thread). bytes == 0: not reported.
struct ReportedLevel {
  ReportedLevel() = default;
  ReportedLevel(std::string level_name, double capacity_bytes) : name(std::move(level_name)), bytes(capacity_bytes) {}
  std::string name;  // "L1", "L2", "L3"
  double bytes = 0.0;
  // Whether the size is one a real CPU could have (implausible_cache): an implausible one (a VM that passes its
  // host's L3 to a 2-core guest as 508 MiB per core) still counts as a level that exists, but is no prior for where
  // it ends. `why` says what was implausible.
  bool plausible = true;
  std::string why;
};

// The one cache-plausibility rule below the plan and the analysis (issue 61 step 6): the largest per-core share of
// each level (L1, L2, L3) any CPU has had, with room. L1d 192 KiB (Apple; x86 48 KiB), L2 4 MiB, L3 32 MiB (AMD EPYC
// 9175F: 512 MiB over 16 cores, one per CCD). A guest that reports its host's whole L3 as its own (508 MiB per core on
// a Zen 5 VM, 150 MiB per core on an Emerald Rapids one) exceeds them.
inline constexpr double kLargestCacheSharePerCore[3] = {256.0 * 1024, 8.0 * 1024 * 1024, 64.0 * 1024 * 1024};
// The largest L3 share per core a real CPU has (the EPYC 9175F's 32 MiB): where a machine reports a last level whose
// size is not plausible, a plan assumes each core its threads use may cache this much (a 2-vCPU guest on two 32 MiB
// CCDs caches 64 MiB of a working set), never a fixed size.
inline constexpr double kLargestRealL3BytesPerCore = 32.0 * 1024 * 1024;

// Why a reported cache is implausible ("" when it is plausible): its per-core share (size per instance over the
// cores sharing it) beyond what any CPU has, or no larger than the level before it (`previous_bytes`, both as
// seen by the run's threads).
std::string implausible_cache(int level, double size, int cores_per_instance, double previous_bytes, double seen_bytes);

// The cache levels of `caches`, as capacity seen by `threads` threads bound with `policy` ("compact" or "spread"):
// per-instance size x instances those threads use, each marked plausible or not.
std::vector<ReportedLevel> reported_levels(const std::vector<ReportedCache>& caches, int threads,
                                           const std::string& policy);

}  // namespace roofline
