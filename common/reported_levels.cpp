// The cache levels a machine reports and the one verdict on them: see reported_levels.hpp.
#include "roofline/common/reported_levels.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "roofline/common/units.hpp"
#include "roofline/common/vocabulary.hpp"

namespace roofline {

namespace {

enum class CacheRule { plausible, share, memory };

// Whether one reported cache's size is one a real CPU could have. Instruction caches, unreported sizes and levels
// beyond L3 are not judged (plausible).
CacheRule judge(const ReportedCache& c, double memory_total_bytes) {
  if (c.level < 1 || c.level > 3 || c.type == "instruction" || c.size_bytes <= 0.0) return CacheRule::plausible;
  if (c.size_bytes / std::max(1, c.cores_per_instance) > kLargestCacheSharePerCore[c.level - 1]) return CacheRule::share;
  const double total = c.size_bytes * std::max(1, c.instances);
  if (memory_total_bytes > 0.0 && total > memory_total_bytes / 8.0) return CacheRule::memory;
  return CacheRule::plausible;
}

// The plan's sentence for an implausible cache (its notes and context.plan name who reported it).
std::string cache_sentence(const ReportedCache& c, CacheRule rule, double memory_total_bytes) {
  const std::string who = c.source.empty() ? "the machine" : c.source;
  const int sharing = std::max(1, c.cores_per_instance);
  if (rule == CacheRule::share) {
    const double limit = kLargestCacheSharePerCore[c.level - 1];
    return fmt::format("{} reports an L{} of {} per instance shared by {} core{} ({} per core, more than any real "
                       "L{}'s {}): not plausible, ignored", who, c.level, format_bytes(c.size_bytes), sharing,
                       sharing == 1 ? "" : "s", format_bytes(c.size_bytes / sharing), c.level, format_bytes(limit));
  }
  return fmt::format("{} reports {} L{} instances of {} ({} in all, more than an eighth of the {} of memory): not "
                     "plausible, ignored", who, std::max(1, c.instances), c.level, format_bytes(c.size_bytes),
                     format_bytes(c.size_bytes * std::max(1, c.instances)), format_bytes(memory_total_bytes));
}

// The analysis's sentence for a level whose cache is implausible (its memory_ceilings notes).
std::string level_sentence(const ReportedCache& c, CacheRule rule, double memory_total_bytes) {
  const int sharing = std::max(1, c.cores_per_instance);
  if (rule == CacheRule::share) {
    return fmt::format("L{} reported as {} per instance shared by {} core{} ({} per core, more than any CPU has, e.g. "
                       "a VM passing on its host's cache): the size is no prior for the levels, the curve alone "
                       "places L{}.", c.level, format_bytes(c.size_bytes), sharing, sharing > 1 ? "s" : "",
                       format_bytes(c.size_bytes / sharing), c.level);
  }
  return fmt::format("L{} reported as {} instances of {} ({} in all, more than an eighth of the {} of memory): the "
                     "size is no prior for the levels, the curve alone places L{}.", c.level, std::max(1, c.instances),
                     format_bytes(c.size_bytes), format_bytes(c.size_bytes * std::max(1, c.instances)),
                     format_bytes(memory_total_bytes), c.level);
}

// Level `level` as `threads` threads bound by `policy` see it (bytes 0: not reported), judged.
ReportedLevel judged_level(const std::vector<ReportedCache>& caches, int level, int threads, const std::string& policy,
                           double memory_total_bytes, double previous_bytes) {
  ReportedLevel r;
  const ReportedCache* first = nullptr;
  for (const ReportedCache& c : caches) {
    if (c.level != level || c.type == "instruction" || c.size_bytes <= 0.0) continue;
    if (first == nullptr) first = &c;
    const CacheRule rule = judge(c, memory_total_bytes);
    if (rule != CacheRule::plausible && r.plausible) {
      r.plausible = false;
      r.why = level_sentence(c, rule, memory_total_bytes);
    }
  }
  if (first == nullptr) return r;
  int per_instance = first->cores_per_instance;
  if (per_instance <= 0) per_instance = level <= 2 ? 1 : 1 << 20;  // unknown: L1/L2 per core, L3 shared
  int used = policy == "spread" ? threads : (threads + per_instance - 1) / per_instance;
  if (first->instances > 0) used = std::min(used, first->instances);
  r.name = fmt::format("L{}", level);
  r.bytes = first->size_bytes * std::max(used, 1);
  if (r.plausible && previous_bytes > 0.0 && r.bytes <= previous_bytes) {
    r.plausible = false;
    r.why = fmt::format("L{} reported as {} for these threads, no larger than the level before it ({}): the size is "
                        "no prior for the levels.", level, format_bytes(r.bytes), format_bytes(previous_bytes));
  }
  return r;
}

}  // namespace

std::uint64_t unknown_last_cache_bytes(int threads) {
  return static_cast<std::uint64_t>(std::max(threads, 1)) * static_cast<std::uint64_t>(kLargestRealL3BytesPerCore);
}

std::vector<ReportedLevel> CacheVerdict::plausible_levels() const {
  std::vector<ReportedLevel> out;
  for (const ReportedLevel& l : levels) {
    if (l.plausible) out.push_back(l);
  }
  return out;
}

CacheVerdict cache_verdict(const std::vector<ReportedCache>& caches, int threads, const std::string& policy,
                           double memory_total_bytes) {
  CacheVerdict v;
  for (int level = 1; level <= 3; ++level) {
    ReportedLevel r = judged_level(caches, level, threads, policy, memory_total_bytes,
                                   v.levels.empty() ? 0.0 : v.levels.back().bytes);
    if (r.bytes <= 0.0) continue;
    if (r.plausible) v.largest_plausible_bytes = std::max(v.largest_plausible_bytes, r.bytes);
    v.levels.push_back(std::move(r));
  }
  int deepest_plausible = 0, deepest_implausible = 0;
  for (const ReportedCache& c : caches) {
    const CacheRule rule = judge(c, memory_total_bytes);
    if (rule == CacheRule::plausible) {
      v.largest_plausible_instance_bytes = std::max(v.largest_plausible_instance_bytes, c.size_bytes);
    } else {
      v.implausible_caches.push_back(cache_sentence(c, rule, memory_total_bytes));
    }
    if (c.type == "instruction" || c.size_bytes <= 0.0) continue;
    int& deepest = rule == CacheRule::plausible ? deepest_plausible : deepest_implausible;
    deepest = std::max(deepest, c.level);
  }
  v.last_level_unknown = deepest_implausible > deepest_plausible;
  v.dram_threshold_bytes = v.last_level_unknown ? static_cast<double>(unknown_last_cache_bytes(threads))
                                                : v.largest_plausible_bytes;
  return v;
}

std::vector<CpuMemoryLevel> cpu_memory_levels(const std::vector<ReportedCache>& caches) {
  std::vector<CpuMemoryLevel> out;
  for (const Level level : cache_levels()) {
    const int number = static_cast<int>(level) + 1;
    double bytes = 0.0;
    for (const ReportedCache& c : caches) {
      if (c.level != number || c.type == "instruction") continue;
      bytes = std::max(bytes, c.size_bytes * static_cast<double>(std::max(1, c.instances)));
    }
    out.push_back({std::string(to_string(level)), bytes, level == Level::L3});
  }
  out.push_back({std::string(to_string(Level::DRAM)), 0.0, true});
  return out;
}

}  // namespace roofline
