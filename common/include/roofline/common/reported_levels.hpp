// The cache levels a machine reports, as capacity seen by the threads of one run, each marked plausible or not
// (issue 47: moved from analysis/model's memory_ceilings.hpp and plateaus.hpp), and the one verdict on them (issue 61
// step 6: cache_verdict): the analysis takes its levels as priors for where the levels of a recorded curve end, a plan
// (roofline/harness/plausible_caches.hpp) sizes its sweep, shapes, DRAM GEMVs and llm chain from it. One definition
// below both sides, over the plain cache facts both have, so that the plan and the analysis cannot disagree on a
// machine (tests/bench/drivers/test_cache_verdict.cpp holds them to it on every recorded machine).
#pragma once

#include <cstdint>
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
  std::string source;      // who reported it: "hwloc", "cpuid", "sysconf" ("" : the machine)
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

// The most a real CPU caches for `threads` threads where the machine reports a last level whose size is not
// plausible: kLargestRealL3BytesPerCore for each core they use.
std::uint64_t unknown_last_cache_bytes(int threads);

// The verdict on a machine's reported caches for `threads` threads bound with `policy` ("compact" or "spread"): one
// pure function of the caches (level, size, instances, cores per instance) and the memory (0: unknown), what the plan
// and the analysis both believe. A cache is implausible when its share per core (size per instance over the cores
// sharing it; unknown sharing: the whole instance) exceeds kLargestCacheSharePerCore, or when all its instances
// together exceed an eighth of the memory; a level is implausible when one of its caches is, or when these threads
// see no more of it than of the level before it.
struct CacheVerdict {
  // L1..L3 as reported (the first data or unified cache of each level), as capacity these threads see, each marked
  // plausible or not (`why`): an implausible level still exists, but is no prior for where it ends.
  std::vector<ReportedLevel> levels;
  // One sentence per reported cache whose size no CPU has, naming who reported it (the plan's notes).
  std::vector<std::string> implausible_caches;
  // A cache level deeper than every plausible one has a size no CPU has: the last level's size is unknown.
  bool last_level_unknown = false;
  // The largest plausible level as these threads see it (0: none reported, or none plausible).
  double largest_plausible_bytes = 0.0;
  // The largest plausible cache instance (0: none).
  double largest_plausible_instance_bytes = 0.0;
  // What a working set must exceed to live in main memory: largest_plausible_bytes, or unknown_last_cache_bytes
  // where the last level's size is unknown (0: no cache reported).
  double dram_threshold_bytes = 0.0;

  // The plausible levels only, in order.
  std::vector<ReportedLevel> plausible_levels() const;
};

CacheVerdict cache_verdict(const std::vector<ReportedCache>& caches, int threads, const std::string& policy,
                           double memory_total_bytes);

// One of a CPU's memory levels as its target facts name it: the level, its capacity over the whole CPU (0: main memory,
// or a cache the facts do not report), whether its cores share it.
struct CpuMemoryLevel {
  std::string name;
  double capacity_bytes = 0.0;
  bool shared = true;
};
// The CPU's memory levels from its reported caches (issue 61): L1, L2 and L3, each the largest data or unified cache of
// that level times its instances (0 where none is reported: the level is there, its size unknown), then DRAM; L3 and
// DRAM shared, L1 and L2 private. The one rule of the CPU target's facts a run writes (bench's cpu_target_facts) and of
// the CPU the analysis synthesizes for a file from before context.targets (recorded_targets).
std::vector<CpuMemoryLevel> cpu_memory_levels(const std::vector<ReportedCache>& caches);

}  // namespace roofline
