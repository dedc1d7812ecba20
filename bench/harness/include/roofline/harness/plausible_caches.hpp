// Whether the machine facts' cache sizes are believable (issue 32: a KVM guest's hwloc reported an L3 of 508 MiB
// per core), from the one verdict below the plan and the analysis (roofline/common/reported_levels.hpp). What sizes
// a run from the caches (the bandwidth sweep's end, the GEMM shapes, the DRAM GEMVs, the llm chain, the environment
// guard's canary) believes only the plausible ones; the curve decides the rest.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "roofline/facts/machine.hpp"
#include "roofline/facts/pinning.hpp"
#include "roofline/common/reported_levels.hpp"

namespace roofline {

// The machine facts' caches as the one verdict takes them (roofline/common/reported_levels.hpp).
std::vector<ReportedCache> reported_caches(const MachineFacts& machine);

// The one verdict on the machine's caches (cache_verdict of roofline/common/reported_levels.hpp, issue 61 step 6) for
// `threads` threads bound by `bind`, with the machine's memory: what the analysis believes of the same facts. Every
// function below reads it.
CacheVerdict cache_verdict(const MachineFacts& machine, int threads, BindPolicy bind);

// Whether the machine facts' cache sizes are believable (issue 32: a KVM guest's hwloc reported an L3 of 508 MiB
// per core): one sentence per cache that is not (the verdict's implausible_caches), empty when every one is.
std::vector<std::string> implausible_caches(const MachineFacts& machine);

// The largest plausible cache instance's size (0: none reported, or none plausible).
std::uint64_t largest_plausible_cache(const MachineFacts& machine);

// The cache levels whose reported size is plausible, as `threads` threads bound by `bind` see them: what a plan
// sizes its sweep and shapes from.
std::vector<ReportedLevel> plausible_levels(const MachineFacts& machine, int threads, BindPolicy bind);
// The largest plausible cache `threads` threads bound by `bind` use (0: none reported, or none plausible).
std::uint64_t plausible_cache_bytes(const MachineFacts& machine, int threads, BindPolicy bind);
// True when the machine reports a cache level above every plausible one whose size is not plausible: the last
// level's size is unknown (the sweep and the GEMM shapes then plan with unknown_last_cache_bytes, not the L2).
bool last_cache_unknown(const MachineFacts& machine);

// What a working set must exceed to live in main memory, as `threads` threads bound by `bind` see the caches: the
// largest plausible cache, or unknown_last_cache_bytes where the last level's size is not plausible; 0: no cache
// reported. What every DRAM-resident size is planned from (the sweep's end, the GEMV weights, the dequant GEMVs'
// weights, the llm chain's copies): one rule.
std::uint64_t dram_threshold_bytes(const MachineFacts& machine, int threads, BindPolicy bind);

}  // namespace roofline
