// The rules of a results file's host and target facts (issue 21), over the file's JSON: the host's facts
// (context.machine as HostFacts), one target's facts (context.targets[] as TargetView, its fields checked), and the
// order every reader takes the targets in (ordered_targets: the host CPU first, synthesized from context.machine in
// files from before targets). The typed view of a file (DocumentView, document_view.hpp) and the schema's check
// (results_schema.cpp) are built on them; the JSON view of a whole file, ResultsView, was deleted when every
// derivation came to read the typed records (issue 61, step 3).
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/common/reported_levels.hpp"

namespace roofline {

// The id of the host CPU's target; what an entry or file without target fields means (results/README.md).
inline constexpr const char* kCpuTargetId = "cpu";

// One cache level as context.machine.caches reports it.
struct CacheFacts {
  std::optional<long long> level;  // 1, 2, 3
  std::string type;                // "data", "unified", "instruction"
  double size_bytes = 0.0;
  std::optional<long long> instances;
  std::optional<long long> cores_per_instance;
  std::string source;
};

// The facts of context.machine the analysis uses, typed. Absent fields are empty / nullopt / 0.
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

struct TargetLevelView {
  std::string name;           // "L1".."DRAM" on the CPU; the target's own names ("L2", "HBM") elsewhere
  double capacity_bytes = 0;  // 0: main memory (the last level) or not reported
  bool shared = true;
};

// One target's facts (context.targets[i]; the CPU's synthesized from context.machine when absent).
struct TargetView {
  std::string id, kind, name, vendor, api, driver;
  long long compute_units = 0;
  double clock_hz = 0.0;
  double memory_total_bytes = 0.0;
  double memory_available_bytes = 0.0;
  // Where the two memory figures come from, in words: the host's facts for the CPU (its memory is the host's,
  // as in every file before targets, even where context.targets lists it), "context.targets[<id>]" otherwise.
  std::string memory_from;
  std::vector<TargetLevelView> memory_levels;  // innermost first; the last is main memory
  std::string peak_model;                      // "x86_pipes", "units_clock" or "" (unknown)
  std::map<std::string, double> ops_per_unit_per_clock;  // "<precision>/<engine>" -> operations
  nlohmann::json details = nlohmann::json::object();
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
  // CPU (context.machine, as its memory, even where context.targets lists it: host_facts_to_cpu), empty for a device.
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

// parent[key] when it is an object, else an empty object.
const nlohmann::json& object_or_empty(const nlohmann::json& parent, const char* key);

// The target an entry belongs to: a roofline entry's `target`, a benchmark entry's labels.target, else "cpu".
std::string entry_target(const nlohmann::json& entry);

// "" for the CPU (its ids stay as they were), "<id>/" for any other target: key-figure ids, compare rows.
std::string target_prefix(const std::string& target);

// The host facts and the CPU's target facts alone, for readers that hold a context.machine object only.
HostFacts host_facts_from_machine(const nlohmann::json& machine);
TargetView cpu_target_from_host(const HostFacts& host);
// Gives the CPU's target the facts that are the host's whichever way the target was read (synthesized from
// context.machine or listed in context.targets): its memory and where it comes from, its microarchitecture, its
// matrix engine's state and its cache topology (`caches`). Every view calls it on its CPU target.
void host_facts_to_cpu(const HostFacts& host, TargetView& cpu);
// A file's targets in the order every reader takes them: the host CPU first (its listed facts, else the ones
// `host` gives, with the host's facts either way: host_facts_to_cpu, and the run's `binding`), then the others
// listed, in the file's order, then any target that has entries (`with_entries`) but no facts. The
// typed DocumentView (document_view.hpp) both take them from here.
std::vector<TargetView> ordered_targets(const HostFacts& host, const std::vector<TargetView>& listed,
                                        const std::vector<std::string>& with_entries, const std::string& binding);
// One entry of context.targets[] (`where` names it in errors: "context.targets[1]"). Throws InputError naming
// the first missing (target) or mistyped field.
TargetView target_view_from_json(const nlohmann::json& facts, const std::string& where);

}  // namespace roofline
