// The typed view of a results file: see results_view.hpp. The only place in analysis/ that reads
// context.machine and context.targets by key.
#include "roofline/model/results_view.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"

namespace roofline {
using nlohmann::json;

namespace {

std::string text(const json& o, const char* key) {
  return o.contains(key) && o[key].is_string() ? o[key].get<std::string>() : std::string();
}

double number(const json& o, const char* key) {
  return o.contains(key) && o[key].is_number() ? o[key].get<double>() : 0.0;
}

std::optional<long long> integer(const json& o, const char* key) {
  if (!o.contains(key) || !o[key].is_number()) return std::nullopt;
  return o[key].is_number_integer() ? o[key].get<long long>() : static_cast<long long>(o[key].get<double>());
}

std::vector<std::string> words(const json& o, const char* key) {
  std::vector<std::string> out;
  if (!o.contains(key) || !o[key].is_array()) return out;
  for (const json& n : o[key]) {
    if (n.is_string()) out.push_back(n.get<std::string>());
  }
  return out;
}

CacheFacts cache_facts(const json& c) {
  CacheFacts f;
  f.level = integer(c, "level");
  f.type = text(c, "type");
  f.size_bytes = number(c, "size_bytes");
  f.instances = integer(c, "instances");
  f.cores_per_instance = integer(c, "cores_per_instance");
  f.source = text(c, "source");
  return f;
}

// Typed reads of a context.targets[] entry: each throws InputError naming the field.
struct FieldReader {
  const json& o;
  const std::string& where;
  [[nodiscard]] std::string word(const char* key, bool required = false) const {
    if (!o.contains(key) || o[key].is_null()) {
      if (required) throw InputError(fmt::format("{}.{} is missing", where, key));
      return "";
    }
    if (!o[key].is_string()) throw InputError(fmt::format("{}.{} is not a string", where, key));
    return o[key].get<std::string>();
  }
  [[nodiscard]] double amount(const char* key) const {
    if (!o.contains(key) || o[key].is_null()) return 0.0;
    if (!o[key].is_number()) throw InputError(fmt::format("{}.{} is not a number", where, key));
    if (o[key].get<double>() < 0.0) throw InputError(fmt::format("{}.{} is negative", where, key));
    return o[key].get<double>();
  }
  [[nodiscard]] const json& part(const char* key, bool array) const {
    static const json kNone;
    if (!o.contains(key) || o[key].is_null()) return kNone;
    if (array ? !o[key].is_array() : !o[key].is_object()) {
      throw InputError(fmt::format("{}.{} is not an {}", where, key, array ? "array" : "object"));
    }
    return o[key];
  }
};

std::vector<TargetLevelView> levels_from_json(const json& levels, const std::string& where) {
  std::vector<TargetLevelView> out;
  if (levels.is_null()) return out;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const std::string at = fmt::format("{}.memory_levels[{}]", where, i);
    if (!levels[i].is_object()) throw InputError(at + " is not an object");
    const FieldReader r{levels[i], at};
    TargetLevelView l{r.word("name", true), r.amount("capacity_bytes"), true};
    if (levels[i].contains("shared")) {
      if (!levels[i]["shared"].is_boolean()) throw InputError(at + ".shared is not true or false");
      l.shared = levels[i]["shared"].get<bool>();
    }
    out.push_back(std::move(l));
  }
  return out;
}

}  // namespace

const json& object_or_empty(const json& parent, const char* key) {
  static const json kEmpty = json::object();
  return parent.is_object() && parent.contains(key) && parent[key].is_object() ? parent[key] : kEmpty;
}

const std::string& TargetView::main_memory() const {
  static const std::string kNone;
  return memory_levels.empty() ? kNone : memory_levels.back().name;
}

std::string entry_target(const json& entry) {
  if (!entry.is_object()) return kCpuTargetId;
  if (entry.contains("target") && entry["target"].is_string()) return entry["target"].get<std::string>();
  const json& labels = object_or_empty(entry, "labels");
  if (labels.contains("target") && labels["target"].is_string()) return labels["target"].get<std::string>();
  return kCpuTargetId;
}

std::string target_prefix(const std::string& target) { return target == kCpuTargetId ? "" : target + "/"; }

HostFacts host_facts_from_machine(const json& m) {
  HostFacts h;
  h.present = m.is_object();
  if (!h.present) return h;
  h.hostname = text(m, "hostname");
  h.cpu_vendor = text(m, "cpu_vendor");
  h.cpu_model = text(m, "cpu_model");
  h.microarchitecture = text(m, "microarchitecture");
  h.topology_source = text(m, "topology_source");
  h.memory_source = text(m, "memory_source");
  h.cpu_family = integer(m, "cpu_family");
  h.cpu_model_number = integer(m, "cpu_model_number");
  h.cpu_stepping = integer(m, "cpu_stepping");
  h.packages = integer(m, "packages");
  h.cores = integer(m, "cores");
  h.pus = integer(m, "pus");
  h.numa_nodes = integer(m, "numa_nodes");
  if (m.contains("hypervisor") && m["hypervisor"].is_boolean()) h.hypervisor = m["hypervisor"].get<bool>();
  h.emulated = m.contains("emulated") && m["emulated"].is_boolean() && m["emulated"].get<bool>();
  h.emulation = text(m, "emulation");
  h.memory_total_bytes = number(m, "memory_total_bytes");
  h.memory_available_bytes = number(m, "memory_available_bytes");
  h.measured_clock_hz = number(m, "measured_clock_hz");
  if (m.contains("caches") && m["caches"].is_array()) {
    for (const json& c : m["caches"]) {
      if (c.is_object()) h.caches.push_back(cache_facts(c));
    }
  }
  h.isa_present = m.contains("isa") && m["isa"].is_object();
  for (const auto& [flag, v] : object_or_empty(m, "isa").items()) {
    if (v.is_boolean()) h.isa[flag] = v.get<bool>();
  }
  h.amx_status = text(object_or_empty(m, "amx"), "status");
  h.amx_source = text(object_or_empty(m, "amx"), "source");
  h.thp_present = m.contains("transparent_huge_pages");
  h.thp = text(m, "transparent_huge_pages");
  h.thp_defrag = m.contains("transparent_huge_pages_defrag") ? text(m, "transparent_huge_pages_defrag") : "unknown";
  h.thp_source = text(m, "transparent_huge_pages_source");
  h.notes = words(m, "notes");
  return h;
}

TargetView cpu_target_from_host(const HostFacts& host) {
  TargetView t;
  t.id = kCpuTargetId;
  t.kind = "cpu";
  t.name = host.cpu_model;
  t.vendor = host.cpu_vendor;
  t.api = "native";
  t.compute_units = host.cores.value_or(0);
  t.clock_hz = host.measured_clock_hz;
  host_facts_to_cpu(host, t);
  for (const char* level : {"L1", "L2", "L3"}) {
    double bytes = 0.0;
    for (const CacheFacts& c : host.caches) {
      if (fmt::format("L{}", c.level.value_or(0)) != level || c.type == "instruction") continue;
      bytes = std::max(bytes, c.size_bytes * static_cast<double>(c.instances.value_or(1)));
    }
    t.memory_levels.push_back({level, bytes, std::string(level) == "L3"});
  }
  t.memory_levels.push_back({"DRAM", 0.0, true});
  t.peak_model = "x86_pipes";
  t.notes = host.notes;
  t.synthesized = true;
  return t;
}

void host_facts_to_cpu(const HostFacts& host, TargetView& cpu) {
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

std::vector<TargetView> ordered_targets(const HostFacts& host, const std::vector<TargetView>& listed,
                                        const std::vector<std::string>& with_entries, const std::string& binding) {
  std::vector<TargetView> out;
  // The CPU first: its listed facts, else the ones context.machine gives; its host facts either way.
  const auto cpu = std::find_if(listed.begin(), listed.end(), [](const TargetView& t) { return t.is_cpu(); });
  out.push_back(cpu != listed.end() ? *cpu : cpu_target_from_host(host));
  host_facts_to_cpu(host, out.front());
  out.front().binding = binding;
  for (const TargetView& t : listed) {
    if (!t.is_cpu()) out.push_back(t);
  }
  for (const std::string& id : with_entries) {
    if (std::any_of(out.begin(), out.end(), [&](const TargetView& t) { return t.id == id; })) continue;
    TargetView unknown;  // entries without facts: their levels and peaks are unknown, said so
    unknown.id = id;
    out.push_back(std::move(unknown));
  }
  for (std::size_t i = 1; i < out.size(); ++i) out[i].memory_from = fmt::format("context.targets[{}]", out[i].id);
  return out;
}

TargetView target_view_from_json(const json& facts, const std::string& where) {
  if (!facts.is_object()) throw InputError(where + " is not an object");
  const FieldReader r{facts, where};
  TargetView t;
  t.id = r.word("target", true);
  t.kind = r.word("kind");
  t.name = r.word("name");
  t.vendor = r.word("vendor");
  t.api = r.word("api");
  t.driver = r.word("driver");
  t.compute_units = static_cast<long long>(r.amount("compute_units"));
  t.clock_hz = r.amount("clock_hz");
  t.memory_total_bytes = r.amount("memory_total_bytes");
  t.memory_available_bytes = r.amount("memory_available_bytes");
  t.memory_levels = levels_from_json(r.part("memory_levels", true), where);
  t.peak_model = r.word("peak_model");
  const json& ops = r.part("ops_per_unit_per_clock", false);
  if (!ops.is_null()) {
    const FieldReader o{ops, where + ".ops_per_unit_per_clock"};
    for (const auto& [key, v] : ops.items()) t.ops_per_unit_per_clock[key] = o.amount(key.c_str());
  }
  if (const json& d = r.part("details", false); !d.is_null()) t.details = d;
  const json& notes = r.part("notes", true);
  if (!notes.is_null()) {
    for (std::size_t i = 0; i < notes.size(); ++i) {
      if (!notes[i].is_string()) throw InputError(fmt::format("{}.notes[{}] is not a string", where, i));
      t.notes.push_back(notes[i].get<std::string>());
    }
  }
  return t;
}

}  // namespace roofline
