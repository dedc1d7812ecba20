// Which target a typed record belongs to, and a target's memory facts, read alike for every target: see
// results_targets.hpp. The host CPU's defaults (a record without a target, a CPU without facts of its own) are
// said here and in results_view.cpp only.
#include "roofline/model/results_targets.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "roofline/common/vocabulary.hpp"

namespace roofline {
namespace {

// A memory figure: the typed member, or a number the typed model keeps in `extra` because it is not written as
// an integer (16.0 * 2^30 reads as 17179869184.0): the results view takes any number, so this does too.
double bytes_of(const std::optional<long long>& member, const nlohmann::json& extra, const char* key) {
  if (member) return static_cast<double>(*member);
  const auto it = extra.find(key);
  return it != extra.end() && it->is_number() ? it->get<double>() : 0.0;
}

}  // namespace

std::string target_of(const BenchmarkEntry& entry) {
  // An entry's own `target` (no field of the catalogue: kept in `extra` by the lenient reader) before its labels',
  // as results_view.cpp's entry_target reads the JSON.
  if (const auto it = entry.extra.find("target"); it != entry.extra.end() && it->is_string()) return it->get<std::string>();
  return entry.labels ? target_of(*entry.labels) : std::string(kCpuTargetId);
}

std::string target_of(const RooflineSection& section) {
  const bool any = section.memory_ceilings && !section.memory_ceilings->empty();
  return any ? target_of(section.memory_ceilings->front()) : std::string(kCpuTargetId);
}

TargetMemoryFacts target_memory_facts(const ResultsContext& context, const std::string& target) {
  TargetMemoryFacts m;
  const bool host = target == kCpuTargetId;
  const TargetRecord* listed = nullptr;
  if (context.targets) {
    const auto it = std::find_if(context.targets->begin(), context.targets->end(),
                                 [&](const TargetRecord& t) { return t.target == target; });
    if (it != context.targets->end()) listed = &*it;
  }
  if (listed != nullptr) {
    if (listed->memory_levels) {
      for (const MemoryLevelRecord& l : *listed->memory_levels) m.level_names.push_back(l.name.value_or(""));
    }
  } else if (host) {
    for (const Level l : all_levels()) m.level_names.emplace_back(to_string(l));
  }
  if (host) {
    m.source = "the run's machine facts (context.machine)";
    if (context.machine) {
      m.total_bytes = bytes_of(context.machine->memory_total_bytes, context.machine->extra, "memory_total_bytes");
      m.available_bytes =
          bytes_of(context.machine->memory_available_bytes, context.machine->extra, "memory_available_bytes");
    }
  } else {
    m.source = fmt::format("context.targets[{}]", target);
    if (listed != nullptr) {
      m.total_bytes = bytes_of(listed->memory_total_bytes, listed->extra, "memory_total_bytes");
      m.available_bytes = bytes_of(listed->memory_available_bytes, listed->extra, "memory_available_bytes");
    }
  }
  return m;
}

}  // namespace roofline
