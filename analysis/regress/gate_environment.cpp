// A run's environment as the gate reads it (compare_gate.hpp: check_environment): steal, other processes, the
// DRAM canary's drift over its start, checkpoints and end, the core canary, the clock.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/regress/compare_gate.hpp"
#include "roofline/model/key_figures.hpp"

namespace roofline {
namespace {

std::string percent(double fraction) { return fmt::format("{:.1f}%", fraction * 100.0); }

// The largest |point / start - 1| of a canary's points (canary_points: start first), 0 without a start.
double largest_move_from_start(const std::vector<std::pair<std::string, double>>& points) {
  double largest = 0.0;
  if (points.empty() || points.front().first != "start") return largest;
  for (const auto& [at, value] : points) largest = std::max(largest, std::fabs(value / points.front().second - 1.0));
  return largest;
}

}  // namespace

bool has_libc_canaries(const ResultsDocument& results) {
  return canary_level(results, "libc_canary") > 0.0 && canary_level(results, "libc_core_canary") > 0.0;
}

EnvironmentCheck check_environment(const ResultsDocument& results, double canary_limit, const GateOptions& options,
                                   CanarySource source) {
  EnvironmentCheck e;
  if (!results.context.environment) return e;
  const RunEnvironment& env = *results.context.environment;
  if (!env.steal_fraction && !env.other_busy_fraction && !env.canary && !env.core_canary && !env.start && !env.end &&
      !env.clock_drift && !env.method && env.extra.empty()) {
    return e;  // an empty environment: not recorded
  }
  e.recorded = true;
  e.steal = env.steal_fraction.value_or(0.0);
  e.other_busy = env.other_busy_fraction.value_or(0.0);
  auto drift = [](double a, double b) { return a > 0.0 && b > 0.0 ? std::fabs(b / a - 1.0) : 0.0; };
  e.libc = source == CanarySource::libc;
  const char* dram_name = e.libc ? "libc_canary" : "canary";
  const char* core_name = e.libc ? "libc_core_canary" : "core_canary";
  const CanaryRecord no_canary{};
  const std::optional<CanaryRecord>& dram_record = e.libc ? env.libc_canary : env.canary;
  const CanaryRecord& canary = dram_record ? *dram_record : no_canary;
  e.canary_drift = drift(canary.start.value_or(0.0), canary.end.value_or(0.0));
  e.canary_points = canary_points(results, dram_name);
  e.canary_drift = std::max(e.canary_drift, largest_move_from_start(e.canary_points));
  const auto clock = [](const std::optional<EnvironmentSnapshot>& s) { return s ? s->clock_hz.value_or(0.0) : 0.0; };
  e.clock_drift = drift(clock(env.start), clock(env.end));
  e.canary = canary_level(results, dram_name);
  const std::optional<CanaryRecord>& core_record = e.libc ? env.libc_core_canary : env.core_canary;
  const CanaryRecord& core = core_record ? *core_record : no_canary;
  const double core_start = core.start.value_or(0.0), core_end = core.end.value_or(0.0);
  // Our read kernel's level: the mean of its two ends, as before; the libc one's: of all its points, as the DRAM one's.
  e.core_canary = e.libc ? canary_level(results, core_name)
                         : core_start > 0.0 && core_end > 0.0 ? 0.5 * (core_start + core_end) : 0.0;
  e.core_canary_drift = drift(core_start, core_end);
  e.core_canary_points = canary_points(results, core_name);
  e.core_canary_drift = std::max(e.core_canary_drift, largest_move_from_start(e.core_canary_points));
  e.core_disturbed = e.core_canary_drift > options.max_core_canary_drift;
  const bool steal_high = e.steal > options.max_steal;
  const bool busy_high = e.other_busy > options.max_busy;
  const bool canary_moved = e.canary_drift > canary_limit;
  e.cpu_disturbed = steal_high || busy_high;
  e.memory_disturbed = canary_moved;
  e.disturbed = e.cpu_disturbed || e.memory_disturbed || e.core_disturbed;
  const char* kind = e.libc ? "libc " : "";
  e.why = fmt::format("steal {}{}, other processes {}{}, {}canary drift {}{}, {}clock drift {}", percent(e.steal),
                      steal_high ? fmt::format(" > {}", percent(options.max_steal)) : "", percent(e.other_busy),
                      busy_high ? fmt::format(" > {}", percent(options.max_busy)) : "", kind, percent(e.canary_drift),
                      canary_moved ? fmt::format(" > {}", percent(canary_limit)) : "",
                      e.core_canary > 0.0 ? fmt::format("{}core canary drift {}{}, ", kind, percent(e.core_canary_drift),
                                                        e.core_disturbed ? fmt::format(" > {}", percent(options.max_core_canary_drift)) : "")
                                          : "",
                      percent(e.clock_drift));
  return e;
}

}  // namespace roofline
