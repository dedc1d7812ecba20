// A results file's targets from its typed records: see results_targets.hpp. The host CPU's defaults (a record
// without a target, a CPU without facts of its own) are said here only. A field the lenient reader kept in a
// record's `extra` (written in another kind) reads as a reader of the file's JSON read it (record_fields.hpp).
#include "roofline/model/results_targets.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "roofline/common/cpu_target.hpp"
#include "roofline/common/vocabulary.hpp"
#include "roofline/model/record_fields.hpp"

namespace roofline {
using nlohmann::json;
using fields::amount;
using fields::records_of;
using fields::whole;
using fields::words;
using fields::written;

namespace {

// A memory figure: the typed member, or a number the typed model keeps in `extra` because it is not written as
// an integer (16.0 * 2^30 reads as 17179869184.0): the results view takes any number, so this does too.
double bytes_of(const std::optional<long long>& member, const nlohmann::json& extra, const char* key) {
  if (member) return static_cast<double>(*member);
  const auto it = extra.find(key);
  return it != extra.end() && it->is_number() ? it->get<double>() : 0.0;
}

CacheFacts cache_facts(const CacheRecord& c) {
  CacheFacts f;
  f.level = whole(c.level, c, "level");
  f.type = c.type.value_or("");
  f.size_bytes = amount(ROOFLINE_FIELD(c, size_bytes));
  f.instances = whole(c.instances, c, "instances");
  f.cores_per_instance = whole(c.cores_per_instance, c, "cores_per_instance");
  f.source = c.source.value_or("");
  return f;
}

void isa_flags(const MachineRecord& m, HostFacts& h) {
  h.isa_present = m.isa.has_value() || (m.extra.contains("isa") && m.extra["isa"].is_object());
  if (m.isa) {
    h.isa = *m.isa;
    return;
  }
  if (!h.isa_present) return;
  for (const auto& [flag, v] : m.extra["isa"].items()) {
    if (v.is_boolean()) h.isa[flag] = v.get<bool>();
  }
}

// One entry of context.targets, which the schema check already validated (results_schema.cpp).
RecordedTarget recorded_target(const TargetRecord& r) {
  RecordedTarget t;
  t.id = r.target.value_or("");
  t.kind = r.kind.value_or("");
  t.name = r.name.value_or("");
  t.vendor = r.vendor.value_or("");
  t.api = r.api.value_or("");
  t.driver = r.driver.value_or("");
  t.compute_units = static_cast<long long>(amount(ROOFLINE_FIELD(r, compute_units)));
  t.clock_hz = amount(ROOFLINE_FIELD(r, clock_hz));
  t.memory_total_bytes = amount(ROOFLINE_FIELD(r, memory_total_bytes));
  t.memory_available_bytes = amount(ROOFLINE_FIELD(r, memory_available_bytes));
  for (const MemoryLevelRecord& l : records_of(r.memory_levels)) {
    t.memory_levels.push_back({l.name.value_or(""), amount(ROOFLINE_FIELD(l, capacity_bytes)), l.shared.value_or(true)});
  }
  t.peak_model = r.peak_model.value_or("");
  if (r.ops_per_unit_per_clock) t.ops_per_unit_per_clock = *r.ops_per_unit_per_clock;
  if (r.details && !r.details->is_null()) t.details = *r.details;
  t.notes = words(r.notes, r, "notes");
  return t;
}

// Gives the CPU's target the facts that are the host's whichever way the target was read (synthesized from
// context.machine or listed in context.targets): its memory and where it comes from, its microarchitecture, its
// matrix engine's state and its cache topology (`caches`).
void host_facts_to_cpu(const HostFacts& host, RecordedTarget& cpu) {
  cpu.memory_total_bytes = host.memory_total_bytes;
  cpu.memory_available_bytes = host.memory_available_bytes;
  cpu.memory_from = "the run's machine facts (context.machine)";
  cpu.microarchitecture = host.microarchitecture;
  cpu.matrix_engine_status = host.amx_status;
  cpu.matrix_engine_source = host.amx_source;
  const auto amx_tile = host.isa.find("amx_tile");
  cpu.matrix_engine_advertised = amx_tile != host.isa.end() && amx_tile->second;
  cpu.thp_present = host.thp_present;
  cpu.thp = host.thp;
  cpu.thp_defrag = host.thp_defrag;
  cpu.thp_source = host.thp_source;
  cpu.caches.clear();
  for (const CacheFacts& c : host.caches) {
    cpu.caches.push_back({static_cast<int>(c.level.value_or(0)), c.type, c.size_bytes,
                          static_cast<int>(c.instances.value_or(0)), static_cast<int>(c.cores_per_instance.value_or(0)),
                          c.source});
  }
}

// The CPU's target of a file without context.targets, from context.machine.
RecordedTarget cpu_target_from_host(const HostFacts& host) {
  RecordedTarget t;
  host_facts_to_cpu(host, t);
  // The one rule of the CPU's target facts (common's host_cpu_target), the run's for context.targets[] too.
  const CpuTargetFacts cpu = host_cpu_target({host.cpu_model, host.cpu_vendor, host.cores.value_or(0),
                                              host.memory_total_bytes, host.memory_available_bytes, t.caches});
  t.id = cpu.id;
  t.kind = cpu.kind;
  t.name = cpu.name;
  t.vendor = cpu.vendor;
  t.api = cpu.api;
  t.compute_units = cpu.compute_units;
  t.clock_hz = host.measured_clock_hz;
  for (const CpuMemoryLevel& l : cpu.memory_levels) t.memory_levels.push_back({l.name, l.capacity_bytes, l.shared});
  t.peak_model = cpu.peak_model;
  t.notes = host.notes;
  t.synthesized = true;
  return t;
}

// The targets a document's entries name, each once, in the order of their ids.
std::set<std::string> entry_targets(const ResultsDocument& doc) {
  std::set<std::string> out;
  for (const BenchmarkEntry& e : doc.benchmarks) out.insert(target_of(e));
  return out;
}

// Keeps the records of `target`.
template <class R>
void keep_target(std::optional<std::vector<R>>& records, const std::string& target) {
  if (records) std::erase_if(*records, [&](const R& r) { return target_of(r) != target; });
}

ResultsDocument restricted(const ResultsDocument& doc, const std::string& target) {
  ResultsDocument d = doc;
  std::erase_if(d.benchmarks, [&](const BenchmarkEntry& e) { return target_of(e) != target; });
  if (!d.roofline) return d;
  RooflineSection& s = *d.roofline;
  for_each_table([&](auto table) { keep_target(s.*table, target); });
  for (auto& [key, arr] : s.extra.items()) {
    if (!arr.is_array()) continue;
    json kept = json::array();
    for (const json& e : arr) {
      if (!e.is_object() || entry_target(e) == target) kept.push_back(e);
    }
    arr = std::move(kept);
  }
  return d;
}

}  // namespace

const std::string& RecordedTarget::main_memory() const {
  static const std::string kNone;
  return memory_levels.empty() ? kNone : memory_levels.back().name;
}

std::string entry_target(const json& entry) {
  if (!entry.is_object()) return kCpuTargetId;
  if (entry.contains("target") && entry["target"].is_string()) return entry["target"].get<std::string>();
  const json& labels = fields::object_or_empty(entry, "labels");
  if (labels.contains("target") && labels["target"].is_string()) return labels["target"].get<std::string>();
  return kCpuTargetId;
}

HostFacts host_facts(const ResultsContext& context) {
  HostFacts h;
  h.present = context.machine.has_value();
  if (!h.present) return h;
  const MachineRecord& m = *context.machine;
  h.hostname = m.hostname.value_or("");
  h.cpu_vendor = m.cpu_vendor.value_or("");
  h.cpu_model = m.cpu_model.value_or("");
  h.microarchitecture = m.microarchitecture.value_or("");
  h.topology_source = m.topology_source.value_or("");
  h.memory_source = m.memory_source.value_or("");
  h.cpu_family = whole(m.cpu_family, m, "cpu_family");
  h.cpu_model_number = whole(m.cpu_model_number, m, "cpu_model_number");
  h.cpu_stepping = whole(m.cpu_stepping, m, "cpu_stepping");
  h.packages = whole(m.packages, m, "packages");
  h.cores = whole(m.cores, m, "cores");
  h.pus = whole(m.pus, m, "pus");
  h.numa_nodes = whole(m.numa_nodes, m, "numa_nodes");
  h.hypervisor = m.hypervisor;
  h.emulated = m.emulated.value_or(false);
  h.emulation = m.emulation.value_or("");
  h.memory_total_bytes = amount(ROOFLINE_FIELD(m, memory_total_bytes));
  h.memory_available_bytes = amount(ROOFLINE_FIELD(m, memory_available_bytes));
  // Files of older builds: the clock among the machine facts (no member: the model reads it from `extra`).
  const auto clock = m.extra.find("measured_clock_hz");
  h.measured_clock_hz = clock != m.extra.end() && clock->is_number() ? clock->get<double>() : 0.0;
  for (const CacheRecord& c : records_of(m.caches)) h.caches.push_back(cache_facts(c));
  isa_flags(m, h);
  if (m.amx) {
    h.amx_status = m.amx->status.value_or("");
    h.amx_source = m.amx->source.value_or("");
  }
  h.thp_present = written(ROOFLINE_FIELD(m, transparent_huge_pages));
  h.thp = m.transparent_huge_pages.value_or("");
  h.thp_defrag = written(ROOFLINE_FIELD(m, transparent_huge_pages_defrag)) ? m.transparent_huge_pages_defrag.value_or("")
                                                                          : "unknown";
  h.thp_source = m.transparent_huge_pages_source.value_or("");
  h.notes = words(m.notes, m, "notes");
  return h;
}

std::vector<RecordedTarget> recorded_targets(const ResultsDocument& doc) {
  const HostFacts host = host_facts(doc.context);
  std::vector<RecordedTarget> listed;
  for (const TargetRecord& r : records_of(doc.context.targets)) listed.push_back(recorded_target(r));
  std::vector<RecordedTarget> out;
  // The CPU first: its listed facts, else the ones context.machine gives; its host facts either way.
  const auto cpu = std::find_if(listed.begin(), listed.end(), [](const RecordedTarget& t) { return t.is_cpu(); });
  out.push_back(cpu != listed.end() ? *cpu : cpu_target_from_host(host));
  host_facts_to_cpu(host, out.front());
  // The run's binding is not typed yet (the model keeps it in `extra`).
  const json& binding = fields::object_or_empty(doc.context.extra, "binding");
  out.front().binding = binding.contains("policy") && binding["policy"].is_string()
                            ? binding["policy"].get<std::string>() : std::string("compact");
  for (const RecordedTarget& t : listed) {
    if (!t.is_cpu()) out.push_back(t);
  }
  for (const std::string& id : entry_targets(doc)) {
    if (find_target(out, id) != nullptr) continue;
    RecordedTarget unknown;  // entries without facts: their levels and peaks are unknown, said so
    unknown.id = id;
    out.push_back(std::move(unknown));
  }
  for (std::size_t i = 1; i < out.size(); ++i) out[i].memory_from = fmt::format("context.targets[{}]", out[i].id);
  return out;
}

const RecordedTarget* find_target(const std::vector<RecordedTarget>& targets, const std::string& id) {
  const auto it = std::find_if(targets.begin(), targets.end(), [&](const RecordedTarget& t) { return t.id == id; });
  return it == targets.end() ? nullptr : &*it;
}

bool has_entries(const ResultsDocument& doc, const std::string& target) {
  return std::any_of(doc.benchmarks.begin(), doc.benchmarks.end(),
                     [&](const BenchmarkEntry& e) { return target_of(e) == target; });
}

ResultsDocument target_document(const ResultsDocument& doc, const std::string& target) {
  // Every target the file holds something of: its listed targets, those its entries name, and any a roofline record
  // names without facts or entries (so that its part is its own records, never the whole file).
  const std::set<std::string> with_entries = entry_targets(doc);
  bool several = with_entries.size() > 1 || (!with_entries.empty() && with_entries.count(kCpuTargetId) == 0);
  std::set<std::string> held = with_entries;
  held.insert(kCpuTargetId);
  for (const TargetRecord& r : records_of(doc.context.targets)) held.insert(r.target.value_or(""));
  if (doc.roofline) {
    each_record_target(*doc.roofline, [&several, &held](const std::string& t) {
      several = several || t != kCpuTargetId;
      held.insert(t);
    });
  }
  return several && held.count(target) > 0 ? restricted(doc, target) : doc;
}

std::string target_of(const BenchmarkEntry& entry) {
  // An entry's own `target` (no field of the catalogue: kept in `extra` by the lenient reader) before its labels',
  // as entry_target reads a table kept as JSON.
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
