// Picking one target's ceilings and memory from a results file: see target.hpp.
#include "roofline/llm/target.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "roofline/model/results_targets.hpp"
#include "roofline/common/errors.hpp"

namespace roofline::llm {
using nlohmann::json;

namespace {

template <typename Record>
bool holds(const std::optional<std::vector<Record>>& records, const std::string& target) {
  return records && std::any_of(records->begin(), records->end(), [&](const Record& r) { return target_of(r) == target; });
}

}  // namespace

std::vector<std::string> targets_in(const ResultsDocument& results) {
  std::vector<std::string> names;
  if (!results.roofline) return names;
  each_record_target(*results.roofline, [&names](const std::string& t) {
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
  // The target's part of the file, by the model's one rule (target_document: its entries and every record of its own).
  return target_document(results, target);
}

TargetMemory target_memory(const ResultsDocument& results, const std::string& target) {
  // The results model's reading of a target's memory (target_memory_facts): the same for every target.
  const TargetMemoryFacts facts = target_memory_facts(results.context, target);
  return {facts.total_bytes, facts.available_bytes, facts.source};
}

}  // namespace roofline::llm
