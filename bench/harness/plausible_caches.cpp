// Plausible cache sizes: see plausible_caches.hpp.
#include "roofline/harness/plausible_caches.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "roofline/common/units.hpp"

namespace roofline {

std::vector<std::string> implausible_caches(const MachineFacts& machine) {
  std::vector<std::string> out;
  for (const CacheInfo& c : machine.caches) {
    if (c.level < 1 || c.level > 3 || c.type == "instruction" || c.size_bytes == 0) continue;
    const int sharing = std::max(1, c.cores_per_instance);
    const double per_core = static_cast<double>(c.size_bytes) / sharing;
    const double total = static_cast<double>(c.size_bytes) * std::max(1, c.instances);
    const double limit = kLargestCacheSharePerCore[c.level - 1];
    if (per_core > limit) {
      out.push_back(fmt::format("{} reports an L{} of {} per instance shared by {} core{} ({} per core, more than any "
                                "real L{}'s {}): not plausible, ignored", c.source.empty() ? "the machine" : c.source,
                                c.level, format_bytes(double(c.size_bytes)), sharing, sharing == 1 ? "" : "s",
                                format_bytes(per_core), c.level, format_bytes(limit)));
    } else if (machine.memory_total_bytes > 0 && total > static_cast<double>(machine.memory_total_bytes) / 8.0) {
      out.push_back(fmt::format("{} reports {} L{} instances of {} ({} in all, more than an eighth of the {} of "
                                "memory): not plausible, ignored", c.source.empty() ? "the machine" : c.source,
                                std::max(1, c.instances), c.level, format_bytes(double(c.size_bytes)),
                                format_bytes(total), format_bytes(double(machine.memory_total_bytes))));
    }
  }
  return out;
}

std::uint64_t largest_plausible_cache(const MachineFacts& machine) {
  std::uint64_t largest = 0;
  for (const CacheInfo& c : machine.caches) {
    MachineFacts one = machine;
    one.caches = {c};
    if (implausible_caches(one).empty()) largest = std::max(largest, c.size_bytes);
  }
  return largest;
}

std::vector<ReportedLevel> plausible_levels(const MachineFacts& machine, int threads, BindPolicy bind) {
  std::set<int> implausible;
  for (const CacheInfo& c : machine.caches) {
    MachineFacts one = machine;
    one.caches = {c};
    if (!implausible_caches(one).empty()) implausible.insert(c.level);
  }
  std::vector<ReportedCache> caches;
  for (const CacheInfo& c : machine.caches) {
    caches.push_back({c.level, c.type, static_cast<double>(c.size_bytes), c.instances, c.cores_per_instance});
  }
  std::vector<ReportedLevel> out;
  for (const ReportedLevel& l : reported_levels(caches, threads, std::string(to_string(bind)))) {
    const int number = l.name.size() == 2 && l.name[0] == 'L' ? l.name[1] - '0' : 0;
    if (l.plausible && l.bytes > 0.0 && implausible.count(number) == 0) out.push_back(l);
  }
  return out;
}

bool last_cache_unknown(const MachineFacts& machine) {
  int plausible = 0, implausible = 0;
  for (const CacheInfo& c : machine.caches) {
    if (c.type == "instruction" || c.size_bytes == 0) continue;
    MachineFacts one = machine;
    one.caches = {c};
    int& level = implausible_caches(one).empty() ? plausible : implausible;
    level = std::max(level, c.level);
  }
  return implausible > plausible;
}

std::uint64_t unknown_last_cache_bytes(int threads) {
  return static_cast<std::uint64_t>(std::max(threads, 1)) * static_cast<std::uint64_t>(kLargestRealL3BytesPerCore);
}

std::uint64_t dram_threshold_bytes(const MachineFacts& machine, int threads, BindPolicy bind) {
  if (last_cache_unknown(machine)) return unknown_last_cache_bytes(threads);
  return plausible_cache_bytes(machine, threads, bind);
}

std::uint64_t plausible_cache_bytes(const MachineFacts& machine, int threads, BindPolicy bind) {
  double largest = 0.0;
  for (const ReportedLevel& l : plausible_levels(machine, threads, bind)) largest = std::max(largest, l.bytes);
  return static_cast<std::uint64_t>(largest);
}

}  // namespace roofline
