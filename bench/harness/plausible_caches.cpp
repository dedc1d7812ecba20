// Plausible cache sizes: see plausible_caches.hpp. Every answer is the one verdict's (cache_verdict in common).
#include "roofline/harness/plausible_caches.hpp"

namespace roofline {

std::vector<ReportedCache> reported_caches(const MachineFacts& machine) {
  std::vector<ReportedCache> out;
  for (const CacheInfo& c : machine.caches) {
    out.push_back({c.level, c.type, static_cast<double>(c.size_bytes), c.instances, c.cores_per_instance, c.source});
  }
  return out;
}

CacheVerdict cache_verdict(const MachineFacts& machine, int threads, BindPolicy bind) {
  return cache_verdict(reported_caches(machine), threads, std::string(to_string(bind)),
                       static_cast<double>(machine.memory_total_bytes));
}

std::vector<std::string> implausible_caches(const MachineFacts& machine) {
  return cache_verdict(machine, 1, BindPolicy::compact).implausible_caches;
}

std::uint64_t largest_plausible_cache(const MachineFacts& machine) {
  return static_cast<std::uint64_t>(cache_verdict(machine, 1, BindPolicy::compact).largest_plausible_instance_bytes);
}

std::vector<ReportedLevel> plausible_levels(const MachineFacts& machine, int threads, BindPolicy bind) {
  return cache_verdict(machine, threads, bind).plausible_levels();
}

bool last_cache_unknown(const MachineFacts& machine) {
  return cache_verdict(machine, 1, BindPolicy::compact).last_level_unknown;
}

std::uint64_t dram_threshold_bytes(const MachineFacts& machine, int threads, BindPolicy bind) {
  return static_cast<std::uint64_t>(cache_verdict(machine, threads, bind).dram_threshold_bytes);
}

std::uint64_t plausible_cache_bytes(const MachineFacts& machine, int threads, BindPolicy bind) {
  return static_cast<std::uint64_t>(cache_verdict(machine, threads, bind).largest_plausible_bytes);
}

}  // namespace roofline
