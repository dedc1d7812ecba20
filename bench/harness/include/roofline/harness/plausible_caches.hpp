// Whether the machine facts' cache sizes are believable (issue 32: a KVM guest's hwloc reported an L3 of 508 MiB
// per core). What sizes a run from the caches (the bandwidth sweep's end, the GEMM shapes, the environment
// guard's canary) believes only the plausible ones; the curve decides the rest.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "roofline/facts/machine.hpp"
#include "roofline/facts/pinning.hpp"
#include "roofline/common/reported_levels.hpp"

namespace roofline {

// Whether the machine facts' cache sizes are believable (issue 32: a KVM guest's hwloc reported an L3 of 508 MiB
// per core): each level's share per core within the analysis's own limits (kLargestCacheSharePerCore of
// roofline/common/reported_levels.hpp: L1 256 KiB, L2 8 MiB, L3 64 MiB; one rule for the plan and the analysis), and
// all instances of a level together within an eighth of the memory. Empty when every level is plausible; else one sentence per level that is not.
std::vector<std::string> implausible_caches(const MachineFacts& machine);

// The largest plausible cache instance's size (0: none reported, or none plausible).
std::uint64_t largest_plausible_cache(const MachineFacts& machine);

// The cache levels whose reported size is plausible, as `threads` threads bound by `bind` see them (reported_levels
// of roofline/common/reported_levels.hpp, as the analysis takes them, less every level implausible_caches names): what a plan
// sizes its sweep and shapes from.
std::vector<ReportedLevel> plausible_levels(const MachineFacts& machine, int threads, BindPolicy bind);
// The largest plausible cache `threads` threads bound by `bind` use (0: none reported, or none plausible).
std::uint64_t plausible_cache_bytes(const MachineFacts& machine, int threads, BindPolicy bind);
// True when the machine reports a cache level above every plausible one whose size is not plausible: the last
// level's size is unknown (the sweep and the GEMM shapes then plan with unknown_last_cache_bytes, not the L2).
bool last_cache_unknown(const MachineFacts& machine);

// The last level's size where the machine reports one whose size is not plausible: the most any real CPU gives the
// cores `threads` threads use (kLargestRealL3BytesPerCore each).
std::uint64_t unknown_last_cache_bytes(int threads);

// What a working set must exceed to live in main memory, as `threads` threads bound by `bind` see the caches: the
// largest plausible cache, or unknown_last_cache_bytes where the last level's size is not plausible; 0: no cache
// reported. What every DRAM-resident size is planned from (the sweep's end, the GEMV weights, the dequant GEMVs'
// weights, the llm chain's copies): one rule.
std::uint64_t dram_threshold_bytes(const MachineFacts& machine, int threads, BindPolicy bind);

}  // namespace roofline
