// The cache levels a machine reports: see reported_levels.hpp.
#include "roofline/common/reported_levels.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "roofline/common/units.hpp"

namespace roofline {

std::string implausible_cache(int level, double size, int cores_per_instance, double previous_bytes, double seen_bytes) {
  const double share = size / std::max(cores_per_instance, 1);
  if (level >= 1 && level <= 3 && share > kLargestCacheSharePerCore[level - 1]) {
    return fmt::format("L{} reported as {} per instance shared by {} core{} ({} per core, more than any CPU has, e.g. "
                       "a VM passing on its host's cache): the size is no prior for the levels, the curve alone "
                       "places L{}.", level, format_bytes(size), std::max(cores_per_instance, 1),
                       cores_per_instance > 1 ? "s" : "", format_bytes(share), level);
  }
  if (previous_bytes > 0.0 && seen_bytes <= previous_bytes) {
    return fmt::format("L{} reported as {} for these threads, no larger than the level before it ({}): the size is "
                       "no prior for the levels.", level, format_bytes(seen_bytes), format_bytes(previous_bytes));
  }
  return "";
}

std::vector<ReportedLevel> reported_levels(const std::vector<ReportedCache>& caches, int threads, const std::string& policy) {
  std::vector<ReportedLevel> out;
  for (int level = 1; level <= 3; ++level) {
    for (const ReportedCache& c : caches) {
      if (c.level != level || c.type == "instruction") continue;
      const double size = c.size_bytes;
      if (size <= 0.0) continue;
      int per_instance = c.cores_per_instance;
      if (per_instance <= 0) per_instance = level <= 2 ? 1 : 1 << 20;  // unknown: L1/L2 per core, L3 shared
      const int instances = c.instances;
      int used = policy == "spread" ? threads : (threads + per_instance - 1) / per_instance;
      if (instances > 0) used = std::min(used, instances);
      ReportedLevel r{fmt::format("L{}", level), size * std::max(used, 1)};
      const std::string why = implausible_cache(level, size, per_instance, out.empty() ? 0.0 : out.back().bytes,
                                                size * std::max(used, 1));
      if (!why.empty()) {
        r.plausible = false;
        r.why = why;
      }
      out.push_back(std::move(r));
      break;
    }
  }
  return out;
}

}  // namespace roofline
