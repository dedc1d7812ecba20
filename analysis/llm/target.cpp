// Picking one target's ceilings and memory from a results file: see target.hpp.
#include "roofline/llm/target.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "roofline/model/results_targets.hpp"  // target_of, target_memory_facts
#include "roofline/model/results_view.hpp"  // entry_target
#include "roofline/common/errors.hpp"

namespace roofline::llm {
using nlohmann::json;

namespace {

// The model does not type roofline.memory_levels yet: it stays in the section's `extra`.
constexpr const char* kLevelsKey = "memory_levels";

// Calls `f(target)` for every entry of the section's arrays, in the order the section's keys are listed here.
template <typename F>
void each_entry(const RooflineSection& s, F&& f) {
  const auto visit = [&f](const auto& records) {
    if (!records) return;
    for (const auto& r : *records) f(target_of(r));
  };
  visit(s.compute_ceilings);
  visit(s.memory_ceilings);
  visit(s.page_size_ceilings);
  if (const auto it = s.extra.find(kLevelsKey); it != s.extra.end() && it->is_array()) {
    for (const json& e : *it) f(entry_target(e));
  }
  visit(s.ridge_points);
  visit(s.placements);
  visit(s.transfer_ceilings);
  visit(s.launch_latency);
}

template <typename Record>
bool holds(const std::optional<std::vector<Record>>& records, const std::string& target) {
  return records && std::any_of(records->begin(), records->end(), [&](const Record& r) { return target_of(r) == target; });
}

template <typename Record>
void keep_only(std::optional<std::vector<Record>>& records, const std::string& target) {
  if (!records) return;
  std::erase_if(*records, [&](const Record& r) { return target_of(r) != target; });
}

}  // namespace

std::vector<std::string> targets_in(const ResultsDocument& results) {
  std::vector<std::string> names;
  if (!results.roofline) return names;
  each_entry(*results.roofline, [&names](const std::string& t) {
    if (std::find(names.begin(), names.end(), t) == names.end()) names.push_back(t);
  });
  return names;
}

ResultsDocument select_target(const ResultsDocument& results, const std::string& target, const std::string& file) {
  const bool any = results.roofline && (holds(results.roofline->compute_ceilings, target) ||
                                        holds(results.roofline->memory_ceilings, target));
  if (!any) {
    const std::vector<std::string> names = targets_in(results);
    throw InputError(fmt::format("--target '{}': {} has no ceilings of that target (it has: {})", target, file,
                                 names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
  }
  ResultsDocument out = results;
  RooflineSection& s = *out.roofline;
  keep_only(s.compute_ceilings, target);
  keep_only(s.memory_ceilings, target);
  keep_only(s.page_size_ceilings, target);
  if (const auto it = s.extra.find(kLevelsKey); it != s.extra.end() && it->is_array()) {
    json kept = json::array();
    for (const json& e : *it) {
      if (entry_target(e) == target) kept.push_back(e);
    }
    *it = std::move(kept);
  }
  keep_only(s.ridge_points, target);
  keep_only(s.placements, target);
  keep_only(s.transfer_ceilings, target);
  keep_only(s.launch_latency, target);
  return out;
}

TargetMemory target_memory(const ResultsDocument& results, const std::string& target) {
  // The results model's reading of a target's memory (target_memory_facts): the same for every target.
  const TargetMemoryFacts facts = target_memory_facts(results.context, target);
  return {facts.total_bytes, facts.available_bytes, facts.source};
}

}  // namespace roofline::llm
