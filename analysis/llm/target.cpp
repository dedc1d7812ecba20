// Picking one target's ceilings and memory from a results file: see target.hpp.
#include "roofline/llm/target.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "roofline/analysis/results_view.hpp"
#include "roofline/common/errors.hpp"

namespace roofline::llm {
using nlohmann::json;

namespace {

constexpr const char* kSections[] = {"compute_ceilings", "memory_ceilings", "ridge_points", "placements"};

std::string target_of(const json& entry) {
  return entry.is_object() && entry.contains("target") && entry["target"].is_string() ? entry["target"].get<std::string>()
                                                                                       : kDefaultTarget;
}

}  // namespace

std::vector<std::string> targets_in(const json& results) {
  std::vector<std::string> names;
  const json& section = results.value("roofline", json::object());
  for (const char* key : kSections) {
    for (const json& e : section.value(key, json::array())) {
      const std::string t = target_of(e);
      if (std::find(names.begin(), names.end(), t) == names.end()) names.push_back(t);
    }
  }
  return names;
}

json select_target(const json& results, const std::string& target, const std::string& file) {
  json out = results;
  json& section = out["roofline"];
  bool any = false;
  for (const char* key : {"compute_ceilings", "memory_ceilings"}) {
    for (const json& e : section.value(key, json::array())) any = any || target_of(e) == target;
  }
  if (!any) {
    const std::vector<std::string> names = targets_in(results);
    throw InputError(fmt::format("--target '{}': {} has no ceilings of that target (it has: {})", target, file,
                                 names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
  }
  for (const char* key : kSections) {
    if (!section.contains(key) || !section[key].is_array()) continue;
    json kept = json::array();
    for (const json& e : section[key]) {
      if (target_of(e) == target) kept.push_back(e);
    }
    section[key] = kept;
  }
  return out;
}

TargetMemory target_memory(const json& results, const std::string& target) {
  const ResultsView view(results);
  TargetMemory m;
  const TargetView* facts = view.target(target);
  // The CPU's memory is the host's (context.machine), as in every file before targets.
  m.source = facts != nullptr && facts->is_cpu() ? "the run's machine facts (context.machine)"
                                                 : fmt::format("context.targets[{}]", target);
  if (facts == nullptr) return m;
  m.total_bytes = facts->is_cpu() ? view.host().memory_total_bytes : facts->memory_total_bytes;
  m.available_bytes = facts->is_cpu() ? view.host().memory_available_bytes : facts->memory_available_bytes;
  return m;
}

}  // namespace roofline::llm
