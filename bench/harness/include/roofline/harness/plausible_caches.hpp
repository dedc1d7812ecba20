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

// The most cache per core of each level (L1, L2, L3) any real CPU has, with room: the largest are a few times
// smaller (Zen 4 X3D: 96 MiB of L3 for 6 cores, 16 MiB per core).
inline constexpr std::uint64_t kPlausibleCacheBytesPerCore[3] = {1ull << 20, 16ull << 20, 64ull << 20};

// Whether the machine facts' cache sizes are believable (issue 32: a KVM guest's hwloc reported an L3 of 508 MiB
// per core): each level's share per core within kPlausibleCacheBytesPerCore (L1 1 MiB, L2 16 MiB, L3 64 MiB: the
// largest real ones are a few times smaller), and all instances of a level together within an eighth of the
// memory. Empty when every level is plausible; else one sentence per level that is not.
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
// level's size is unknown (the sweep and the GEMM shapes then plan with kUnknownLastCacheBytes, not the L2).
bool last_cache_unknown(const MachineFacts& machine);

}  // namespace roofline
