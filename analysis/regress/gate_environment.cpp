// A run's environment as the gate reads it (compare_gate.hpp: check_environment): steal, other processes, the
// DRAM canary's drift over its start, checkpoints and end, the core canary, the clock.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "json_fields.hpp"
#include "roofline/analysis/compare_gate.hpp"

namespace roofline {
using nlohmann::json;

namespace {
using regress_detail::number_at;
using regress_detail::object_at;

std::string percent(double fraction) { return fmt::format("{:.1f}%", fraction * 100.0); }

// The largest |point / start - 1| of a canary's points (canary_points: start first), 0 without a start.
double largest_move_from_start(const std::vector<std::pair<std::string, double>>& points) {
  double largest = 0.0;
  if (points.empty() || points.front().first != "start") return largest;
  for (const auto& [at, value] : points) largest = std::max(largest, std::fabs(value / points.front().second - 1.0));
  return largest;
}

}  // namespace

EnvironmentCheck check_environment(const ResultsDocument& results, double canary_limit, const GateOptions& options) {
  EnvironmentCheck e;
  // context.environment is not typed yet (results_document.hpp): read from the context's `extra`.
  const json& env = object_at(results.context.extra, "environment");
  if (env.empty()) return e;
  json holder = json::object();  // what key_figures.hpp's canary readers take: a file with this environment
  holder["context"]["environment"] = env;
  e.recorded = true;
  e.steal = number_at(env, "steal_fraction");
  e.other_busy = number_at(env, "other_busy_fraction");
  auto drift = [](double a, double b) { return a > 0.0 && b > 0.0 ? std::fabs(b / a - 1.0) : 0.0; };
  const json& canary = object_at(env, "canary");
  e.canary_drift = drift(number_at(canary, "start"), number_at(canary, "end"));
  e.canary_points = canary_points(holder);
  e.canary_drift = std::max(e.canary_drift, largest_move_from_start(e.canary_points));
  e.clock_drift = drift(number_at(object_at(env, "start"), "clock_hz"), number_at(object_at(env, "end"), "clock_hz"));
  e.canary = canary_level(holder);
  const json& core = object_at(env, "core_canary");
  const double core_start = number_at(core, "start"), core_end = number_at(core, "end");
  e.core_canary = core_start > 0.0 && core_end > 0.0 ? 0.5 * (core_start + core_end) : 0.0;
  e.core_canary_drift = drift(core_start, core_end);
  e.core_canary_points = canary_points(holder, "core_canary");
  e.core_canary_drift = std::max(e.core_canary_drift, largest_move_from_start(e.core_canary_points));
  e.core_disturbed = e.core_canary_drift > options.max_core_canary_drift;
  const bool steal_high = e.steal > options.max_steal;
  const bool busy_high = e.other_busy > options.max_busy;
  const bool canary_moved = e.canary_drift > canary_limit;
  e.cpu_disturbed = steal_high || busy_high;
  e.memory_disturbed = canary_moved;
  e.disturbed = e.cpu_disturbed || e.memory_disturbed || e.core_disturbed;
  e.why = fmt::format("steal {}{}, other processes {}{}, canary drift {}{}, {}clock drift {}", percent(e.steal),
                      steal_high ? fmt::format(" > {}", percent(options.max_steal)) : "", percent(e.other_busy),
                      busy_high ? fmt::format(" > {}", percent(options.max_busy)) : "", percent(e.canary_drift),
                      canary_moved ? fmt::format(" > {}", percent(canary_limit)) : "",
                      e.core_canary > 0.0 ? fmt::format("core canary drift {}{}, ", percent(e.core_canary_drift),
                                                        e.core_disturbed ? fmt::format(" > {}", percent(options.max_core_canary_drift)) : "")
                                          : "",
                      percent(e.clock_drift));
  return e;
}

}  // namespace roofline
