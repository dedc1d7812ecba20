// Which target a typed record belongs to, and a target's memory as the file records it, read alike for every
// target (issue 47): the typed results model's answers, so that no reader outside the model says what a record
// without a target means or where the host CPU's facts live.
#pragma once

#include <string>
#include <vector>

#include "roofline/model/results_document.hpp"
#include "roofline/model/results_view.hpp"  // kCpuTargetId, entry_target

namespace roofline {

// The target a record belongs to: its `target` (a benchmark entry's labels.target), the host CPU's when it has
// none, as in every file from before targets. The one place the typed model says that default (results_view.hpp's
// entry_target says it over JSON); readers ask this, never `target.value_or(...)`.
template <class Record>
  requires requires(const Record& r) { r.target.value_or(""); }
std::string target_of(const Record& record) {
  return record.target.value_or(kCpuTargetId);
}
std::string target_of(const BenchmarkEntry& entry);
// The target of a section holding one target's entries (as llm's select_target leaves it): its first memory
// ceiling's, the host CPU's when it has none.
std::string target_of(const RooflineSection& section);

// Calls f(target) for every record of the section, in the order of its arrays: the typed ones (compute, memory,
// page-size ceilings, ridge points, placements, transfer ceilings, launch latency), then the ones the model keeps
// as JSON in `extra` (dequant tables, memory levels, crossovers, ...: entry_target's rule). Which targets a section
// holds, and in what order they first appear, is asked here (DocumentView, llm's targets_in).
template <class F>
void each_record_target(const RooflineSection& s, F&& f) {
  const auto visit = [&f](const auto& records) {
    if (!records) return;
    for (const auto& r : *records) f(target_of(r));
  };
  visit(s.compute_ceilings);
  visit(s.memory_ceilings);
  visit(s.page_size_ceilings);
  visit(s.ridge_points);
  visit(s.placements);
  visit(s.transfer_ceilings);
  visit(s.launch_latency);
  for (const auto& [key, arr] : s.extra.items()) {
    if (!arr.is_array()) continue;
    for (const nlohmann::json& e : arr) f(entry_target(e));
  }
}

// One target's memory as the file records it, read alike for every target: its level names, innermost first
// (empty: the file does not list them), and its memory with where that comes from, in words. The results view's
// rule (TargetView): the host CPU's memory is the host's (context.machine), even where context.targets lists
// it; a CPU that context.targets does not list has the host's levels (L1..DRAM); any other target's facts are its
// entry of context.targets (none: nothing recorded).
struct TargetMemoryFacts {
  std::vector<std::string> level_names;
  double total_bytes = 0.0;      // 0: not recorded
  double available_bytes = 0.0;  // 0: not recorded
  std::string source;
};
TargetMemoryFacts target_memory_facts(const ResultsContext& context, const std::string& target);

}  // namespace roofline
