// A results file's targets, read from its typed records (issues 47, 61): the host's facts (context.machine as
// HostFacts), the targets measured (context.targets as RecordedTarget, the host CPU first, synthesized from the host's
// facts in files from before targets: recorded_targets), each target's part of the document (its entries and roofline
// records alone: target_document), which target a record belongs to (target_of), and a target's memory as the file
// records it. The one place the model says what a record without a target means or where the host CPU's facts live;
// the derivations, the report, regress and llm take the typed document and these, no view of it (issue 61 deleted
// ResultsView and DocumentView).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/common/reported_levels.hpp"
#include "roofline/common/target_id.hpp"
#include "roofline/model/results_document.hpp"

namespace roofline {

// kCpuTargetId, the host CPU's target and what an entry or file without target fields means, and target_prefix, "" for
// the CPU (its ids stay as they were) and "<id>/" for any other target (key-figure ids, compare rows): common's
// (target_id.hpp), the rule the run writes its names by.

// One cache level as context.machine.caches reports it.
struct CacheFacts {
  std::optional<long long> level;  // 1, 2, 3
  std::string type;                // "data", "unified", "instruction"
  double size_bytes = 0.0;
  std::optional<long long> instances;
  std::optional<long long> cores_per_instance;
  std::string source;
};

// The facts of context.machine the analysis uses (host_facts). Absent fields are empty / nullopt / 0; a field the
// file wrote in another kind reads as a reader of its JSON read it (record_fields.hpp).
struct HostFacts {
  bool present = false;  // the file has context.machine
  std::string hostname, cpu_vendor, cpu_model, microarchitecture, topology_source, memory_source;
  std::optional<long long> cpu_family, cpu_model_number, cpu_stepping, packages, cores, pus, numa_nodes;
  std::optional<bool> hypervisor;
  bool emulated = false;   // a user-mode emulator ran the run (context.machine.emulated): no figure is a ceiling
  std::string emulation;   // what showed it
  double memory_total_bytes = 0.0;
  double memory_available_bytes = 0.0;
  double measured_clock_hz = 0.0;
  std::vector<CacheFacts> caches;
  bool isa_present = false;
  std::map<std::string, bool> isa;  // the ISA flags as recorded (isa.amx_tile, ...)
  std::string amx_status, amx_source;  // context.machine.amx; empty in files from before it
  bool thp_present = false;          // transparent_huge_pages recorded (maybe empty: then thp_source says why)
  std::string thp, thp_defrag, thp_source;
  std::vector<std::string> notes;
};

// One of a target's memory levels (context.targets[].memory_levels[]).
struct TargetLevel {
  std::string name;           // "L1".."DRAM" on the CPU; the target's own names ("L2", "HBM") elsewhere
  double capacity_bytes = 0;  // 0: main memory (the last level) or not reported
  bool shared = true;
};

// One target's facts as the file records them (context.targets[i]; the CPU's synthesized from context.machine when
// absent), with the host's facts given to the host CPU whichever way it was recorded.
struct RecordedTarget {
  std::string id, kind, name, vendor, api, driver;
  long long compute_units = 0;
  double clock_hz = 0.0;
  double memory_total_bytes = 0.0;
  double memory_available_bytes = 0.0;
  // Where the two memory figures come from, in words: the host's facts for the CPU (its memory is the host's,
  // as in every file before targets, even where context.targets lists it), "context.targets[<id>]" otherwise.
  std::string memory_from;
  std::vector<TargetLevel> memory_levels;  // innermost first; the last is main memory
  std::string peak_model;                  // "x86_pipes", "units_clock" or "" (unknown)
  std::map<std::string, double> ops_per_unit_per_clock;  // "<precision>/<engine>" -> operations
  nlohmann::json details = nlohmann::json::object();     // the API's own facts: shown, never interpreted
  std::vector<std::string> notes;
  bool synthesized = false;  // made from context.machine (a file without context.targets)
  // The per-instance cache topology, where the facts give one (the host CPU's: context.machine.caches, so that a
  // level's capacity is what the run's threads see of it: memory_ceilings.hpp), and how the run bound its threads
  // (context.binding.policy, "compact" when absent). Empty for a target whose facts size whole levels only.
  std::vector<ReportedCache> caches;
  std::string binding = "compact";
  [[nodiscard]] bool is_cpu() const { return id == kCpuTargetId; }
  [[nodiscard]] const std::string& main_memory() const;  // the last level's name ("" when none)
  // What the CPU's peak model ("x86_pipes") and its matrix-engine summary read (issue 47): the host's facts for the
  // CPU (context.machine, as its memory, even where context.targets lists it), empty for a device.
  std::string microarchitecture;  // the known-pipes table's key ("sapphire_rapids"); "" when unknown
  // The matrix engine's state (context.machine.amx: "usable", "permission refused", ...) and where that came from;
  // "" in files from before it.
  std::string matrix_engine_status, matrix_engine_source;
  bool matrix_engine_advertised = false;  // the ISA advertises the matrix engine (isa.amx_tile)
  // The transparent-huge-page policy its memory is allocated under (the CPU's: context.machine's
  // transparent_huge_pages, _defrag, _source), which the page-size notes name; absent for a device.
  bool thp_present = false;
  std::string thp, thp_defrag, thp_source;
};

// context.machine as the analysis reads it.
HostFacts host_facts(const ResultsContext& context);

// A file's targets in the order every reader takes them: the host CPU first (its listed facts, else the ones
// context.machine gives, with the host's facts either way, and the run's binding), then the others listed in
// context.targets, in the file's order, then any target that has entries but no facts (its levels and peaks unknown).
std::vector<RecordedTarget> recorded_targets(const ResultsDocument& doc);
// The target of that id among `targets`, or nullptr.
const RecordedTarget* find_target(const std::vector<RecordedTarget>& targets, const std::string& id);
// Whether the document has benchmark entries of that target.
bool has_entries(const ResultsDocument& doc, const std::string& target);
// One target's part of the document: its benchmark entries and roofline records alone; the document itself when it
// holds nothing of another target (every file before targets), so the CPU's part of such a file is exactly the file.
ResultsDocument target_document(const ResultsDocument& doc, const std::string& target);

// The target an entry of a table the model still keeps as JSON in the section's `extra` belongs to (dequant tables,
// memory levels, crossovers, ...): its `target`, a benchmark entry's labels.target, else the host CPU's.
std::string entry_target(const nlohmann::json& entry);

// The target a record belongs to: its `target` (a benchmark entry's labels.target), the host CPU's when it has
// none, as in every file from before targets. The one place the typed model says that default (entry_target says it
// for the tables still kept as JSON); readers ask this, never `target.value_or(...)`.
template <class Record>
  requires requires(const Record& r) { r.target.value_or(""); }
std::string target_of(const Record& record) {
  return record.target.value_or(kCpuTargetId);
}
std::string target_of(const BenchmarkEntry& entry);
// The target of a section holding one target's entries (as llm's select_target leaves it): its first memory
// ceiling's, the host CPU's when it has none.
std::string target_of(const RooflineSection& section);

// Calls f(target) for every record of the section, in the order of its arrays: the typed ones (for_each_table:
// compute, memory, page-size ceilings, ridge points, placements, transfer ceilings, launch latency, dequant
// ceilings, memory levels), then the ones the model keeps
// as JSON in `extra` (dequant tables, crossovers, ...: entry_target's rule). Which targets a section
// holds, and in what order they first appear, is asked here (target_document, llm's targets_in).
template <class F>
void each_record_target(const RooflineSection& s, F&& f) {
  const auto visit = [&f](const auto& records) {
    if (!records) return;
    for (const auto& r : *records) f(target_of(r));
  };
  for_each_table([&](auto table) { visit(s.*table); });
  for (const auto& [key, arr] : s.extra.items()) {
    if (!arr.is_array()) continue;
    for (const nlohmann::json& e : arr) f(entry_target(e));
  }
}

// One target's memory as the file records it, read alike for every target: its level names, innermost first
// (empty: the file does not list them), and its memory with where that comes from, in words. recorded_targets'
// rule: the host CPU's memory is the host's (context.machine), even where context.targets lists
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
