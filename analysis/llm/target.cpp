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

constexpr const char* kSections[] = {"compute_ceilings", "memory_ceilings", "page_size_ceilings", "memory_levels",
                                     "ridge_points",     "placements",      "transfer_ceilings",  "launch_latency"};

std::string target_of(const json& entry) { return entry_target(entry); }  // "cpu" when absent

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
  // Every target's memory as the results model gives it (the CPU's is the host's: TargetView::memory_from).
  if (facts == nullptr) {
    m.source = fmt::format("context.targets[{}]", target);
    return m;
  }
  m.source = facts->memory_from;
  m.total_bytes = facts->memory_total_bytes;
  m.available_bytes = facts->memory_available_bytes;
  return m;
}

}  // namespace roofline::llm
