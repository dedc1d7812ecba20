// The key figures of a target other than the host CPU (issue 21), from its roofline entries: see
// add_target_key_figures in target_roofline.hpp.
#include "roofline/analysis/target_roofline.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace roofline {
using nlohmann::json;

namespace {

const json& array_of(const json& roofline, const char* key) {
  static const json kNone = json::array();
  return roofline.is_object() && roofline.contains(key) && roofline[key].is_array() ? roofline[key] : kNone;
}

// The shared flag of a level (KeyFigure::shared_memory): the target's facts say; unknown levels count as shared.
bool level_shared(const TargetView& t, const std::string& level) {
  for (const TargetLevelView& l : t.memory_levels) {
    if (l.name == level) return l.shared;
  }
  return true;
}

void add_target_gemm_figures(const json& roofline, const TargetView& t, const std::string& prefix, std::vector<KeyFigure>& out) {
  std::map<std::pair<std::string, long long>, const json*> best;  // (precision, batch) -> best placement
  for (const json& p : array_of(roofline, "placements")) {
    const auto key = std::make_pair(p.value("precision", std::string()), p.value("batch", 0LL));
    if (best[key] == nullptr || p.value("value", 0.0) > best[key]->value("value", 0.0)) best[key] = &p;
  }
  std::map<std::string, long long> largest;
  for (const auto& [key, p] : best) largest[key.first] = std::max(largest[key.first], key.second);
  for (const auto& [precision, max_batch] : largest) {
    std::vector<long long> batches;
    if (best.count({precision, 1})) batches.push_back(1);
    if (max_batch > 1) batches.push_back(max_batch);
    for (const long long batch : batches) {
      const json& p = *best.at({precision, batch});
      out.push_back({fmt::format("{}gemm/{}/{}", prefix, precision, batch == 1 ? "batch:1" : "batch:max"), "gemm",
                     fmt::format("{} {} {} batch {} ({})", t.id, batch == 1 ? "GEMV" : "GEMM", precision, batch,
                                 p.value("backend", std::string("?"))),
                     0, p.value("value", 0.0), p.value("unit", std::string("FLOP/s")), true, "best backend",
                     level_shared(t, p.value("resident_level", std::string()))});
    }
  }
}

}  // namespace

void add_target_key_figures(const json& roofline, const TargetView& t, std::vector<KeyFigure>& out) {
  const std::string prefix = target_prefix(t.id);
  for (const json& c : array_of(roofline, "memory_ceilings")) {
    const std::string kernel = c.value("kernel", std::string()), level = c.value("level", std::string());
    if (kernel != "read" && kernel != "triad") continue;
    out.push_back({fmt::format("{}memory/{}/{}", prefix, level, kernel), "memory", fmt::format("{} {} {}", t.id, level, kernel),
                   0, c.value("plateau_median", c.value("value", 0.0)), "B/s", true, "plateau median", level_shared(t, level)});
  }
  for (const json& c : array_of(roofline, "compute_ceilings")) {
    const std::string precision = c.value("precision", std::string()), engine = c.value("engine", std::string("vector"));
    out.push_back({fmt::format("{}compute/{}/{}", prefix, precision, engine), "compute",
                   fmt::format("{} {} {} peak", t.id, precision, engine), 0, c.value("value", 0.0),
                   c.value("unit", std::string("FLOP/s")), true, "best kernel"});
  }
  add_target_gemm_figures(roofline, t, prefix, out);
  for (const json& c : array_of(roofline, "transfer_ceilings")) {
    const std::string direction = c.value("direction", std::string()), memory = c.value("memory", std::string());
    out.push_back({fmt::format("{}transfer/{}/{}", prefix, direction, memory), "transfer",
                   fmt::format("{} transfer {} ({})", t.id, direction, memory), 0, c.value("value", 0.0), "B/s", true,
                   "best repetition", true});
  }
  for (const json& c : array_of(roofline, "launch_latency")) {
    out.push_back({fmt::format("{}latency/launch", prefix), "latency", fmt::format("{} kernel launch", t.id), 0,
                   c.value("median", c.value("seconds", 0.0)), "s", false, "median launch"});
  }
}

}  // namespace roofline
