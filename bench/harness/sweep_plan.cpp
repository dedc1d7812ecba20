// The bandwidth sweep's sizes: see sweep_plan.hpp.
#include "roofline/harness/sweep_plan.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/common/units.hpp"

namespace roofline {

std::vector<std::uint64_t> geometric_sizes(std::uint64_t start, std::uint64_t end, int per_octave) {
  std::vector<std::uint64_t> out;
  if (start == 0 || per_octave <= 0) return out;
  for (int i = 0;; ++i) {
    const double exact = static_cast<double>(start) * std::pow(2.0, static_cast<double>(i) / per_octave);
    if (exact > static_cast<double>(end) * (1.0 + 1e-9)) break;
    const auto bytes = static_cast<std::uint64_t>(std::llround(exact / 64.0)) * 64;
    if (out.empty() || bytes > out.back()) out.push_back(bytes);
  }
  return out;
}

SweepPlan plan_sweep(Profile profile, const std::vector<std::uint64_t>& user_sizes, std::uint64_t cache_reach_bytes,
                     std::uint64_t memory_budget_bytes, int per_octave, std::uint64_t start_bytes) {
  SweepPlan plan;
  plan.cap_bytes = memory_budget_bytes;
  if (!user_sizes.empty()) {
    for (std::uint64_t s : user_sizes) {
      if (s == 0) throw InputError("--sizes: sizes must be positive");
      if (memory_budget_bytes > 0 && s > memory_budget_bytes) {
        throw InputError(fmt::format("--sizes: {} is larger than the {} this run may use", format_bytes(double(s)),
                                     format_bytes(double(memory_budget_bytes))));
      }
    }
    plan.sizes = user_sizes;
    std::sort(plan.sizes.begin(), plan.sizes.end());
    plan.sizes.erase(std::unique(plan.sizes.begin(), plan.sizes.end()), plan.sizes.end());
    plan.from_user = true;
    plan.start_bytes = plan.sizes.front();
    plan.planned_end_bytes = plan.sizes.back();
    return plan;
  }
  plan.per_octave = per_octave > 0 ? per_octave : profile_settings(profile).bandwidth.sizes_per_octave;
  plan.start_bytes = start_bytes;
  plan.planned_end_bytes = cache_reach_bytes > 0 ? kSweepEndCacheFactor * cache_reach_bytes : kSweepDefaultEndBytes;
  std::uint64_t end = plan.planned_end_bytes;
  if (memory_budget_bytes > 0 && end > memory_budget_bytes) {
    end = memory_budget_bytes;
    plan.capped = true;
  }
  // The grid point at or just past the planned end (8x the caches is a minimum), unless capped.
  plan.sizes = geometric_sizes(plan.start_bytes, plan.capped ? end : 2 * end, plan.per_octave);
  if (!plan.capped) {
    while (plan.sizes.size() > 1 && plan.sizes[plan.sizes.size() - 2] >= end) plan.sizes.pop_back();
  }
  return plan;
}

}  // namespace roofline
