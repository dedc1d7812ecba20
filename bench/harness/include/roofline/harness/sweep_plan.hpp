// The bandwidth sweep's sizes for any target (the CPU's, an OpenCL device's): geometric from a start size, ending
// at 8x the largest plausible cache the sweep must leave (1 GiB when none is known), capped by the memory budget.
// A pure function, shared by every target's plan (issue 46), so each sweep reaches main memory by construction.
#pragma once

#include <cstdint>
#include <vector>

#include "roofline/harness/profile.hpp"

namespace roofline {

struct SweepPlan {
  std::vector<std::uint64_t> sizes;   // working-set bytes (all arrays together), ascending
  int per_octave = 0;                 // 0 for a --sizes list
  std::uint64_t start_bytes = 0;
  std::uint64_t planned_end_bytes = 0;  // 8x the reach of the caches (before the memory cap)
  std::uint64_t cap_bytes = 0;          // the memory budget
  bool capped = false;                  // the end was lowered to fit the budget
  bool from_user = false;               // sizes came from --sizes
};

inline constexpr std::uint64_t kSweepStartBytes = 4096;
// The sweep ends at kSweepEndCacheFactor x the largest plausible cache the threads use, so that DRAM holds at
// least two octaves of sizes even where a victim L3 or a host's cache shared with other guests holds more than its
// size (issue 46); when no plausible size is known, at kSweepDefaultEndBytes.
inline constexpr std::uint64_t kSweepEndCacheFactor = 8;
inline constexpr std::uint64_t kSweepDefaultEndBytes = 1ull << 30;
// Where the machine reports a last level whose size is not plausible, the sweep ends at kSweepEndCacheFactor x
// unknown_last_cache_bytes (roofline/harness/plausible_caches.hpp), not at kSweepDefaultEndBytes.

// Every target's bandwidth sweep runs its plan to the end (issue 46); where main memory starts is the analysis's one
// rule over the curve (issue 47: the harness's own verdict, which decided nothing, is gone). Written as the suite's
// context.suites.bandwidth.stop_rule.
inline constexpr const char* kNoStopRule =
    "none: the sweep runs its plan; where main memory starts is the analysis's rule over the whole curve "
    "(roofline.memory_levels; a last level the curve does not show as main memory is warned dram_not_reached)";

// Geometric sizes start * 2^(i/per_octave) up to `end` (inclusive when on the grid), rounded to 64 bytes.
std::vector<std::uint64_t> geometric_sizes(std::uint64_t start, std::uint64_t end, int per_octave);

// The sweep for one thread count. `cache_reach_bytes`: capacity of the largest plausible cache level these
// threads use (0 when unknown); `per_octave`: sizes per octave (0: the profile's). User sizes are checked against
// the budget (InputError when larger) and sorted.
// `start_bytes`: the sweep's first size (a device's: the smallest its kernels fill).
SweepPlan plan_sweep(Profile profile, const std::vector<std::uint64_t>& user_sizes,
                     std::uint64_t cache_reach_bytes, std::uint64_t memory_budget_bytes, int per_octave = 0,
                     std::uint64_t start_bytes = kSweepStartBytes);

}  // namespace roofline
