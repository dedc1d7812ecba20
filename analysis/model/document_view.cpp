// The typed results view: see document_view.hpp. Each rule is results_view.cpp's, read from the typed records; a
// field the lenient reader kept in a record's `extra` (written in another kind) reads as the JSON view read it
// (record_fields.hpp).
#include "roofline/model/document_view.hpp"

#include <algorithm>
#include <set>

#include "roofline/model/record_fields.hpp"
#include "roofline/model/results_targets.hpp"

namespace roofline {
using nlohmann::json;
using fields::amount;
using fields::records_of;
using fields::whole;
using fields::words;
using fields::written;

namespace {

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

// One entry of context.targets, which the schema check already validated (target_view_from_json's rules).
TargetView target_view(const TargetRecord& r) {
  TargetView t;
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

// Keeps the records of `target` (and, in an untyped array, what is not an object, as the JSON view did).
template <class R>
void keep_target(std::optional<std::vector<R>>& records, const std::string& target) {
  if (records) std::erase_if(*records, [&](const R& r) { return target_of(r) != target; });
}

ResultsDocument restricted(const ResultsDocument& doc, const std::string& target) {
  ResultsDocument d = doc;
  std::erase_if(d.benchmarks, [&](const BenchmarkEntry& e) { return target_of(e) != target; });
  if (!d.roofline) return d;
  RooflineSection& s = *d.roofline;
  keep_target(s.compute_ceilings, target);
  keep_target(s.memory_ceilings, target);
  keep_target(s.page_size_ceilings, target);
  keep_target(s.ridge_points, target);
  keep_target(s.placements, target);
  keep_target(s.transfer_ceilings, target);
  keep_target(s.launch_latency, target);
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

DocumentView::DocumentView(const ResultsDocument& doc) : doc_(&doc), host_(host_facts(doc.context)) {
  std::vector<TargetView> listed;
  for (const TargetRecord& r : records_of(doc.context.targets)) listed.push_back(target_view(r));
  for (const BenchmarkEntry& e : doc.benchmarks) ++entry_counts_[target_of(e)];
  std::vector<std::string> with_entries;
  for (const auto& [id, count] : entry_counts_) with_entries.push_back(id);
  // The run's binding is not typed yet (the model keeps it in `extra`).
  const auto binding = doc.context.extra.find("binding");
  const std::string policy = binding != doc.context.extra.end() && binding->is_object() && binding->contains("policy") &&
                                     (*binding)["policy"].is_string()
                                 ? (*binding)["policy"].get<std::string>() : std::string("compact");
  targets_ = ordered_targets(host_, listed, with_entries, policy);
  // Every target the file holds something of: its listed targets, and any a roofline record names without facts
  // or entries (so that its part is its own records, never the whole file).
  std::set<std::string> held;
  for (const TargetView& t : targets_) held.insert(t.id);
  bool several = entry_counts_.size() > 1 || (!entry_counts_.empty() && entry_counts_.count(kCpuTargetId) == 0);
  if (doc.roofline) {
    each_record_target(*doc.roofline, [&several, &held](const std::string& t) {
      several = several || t != kCpuTargetId;
      held.insert(t);
    });
  }
  if (!several) return;
  for (const std::string& id : held) restricted_[id] = restricted(doc, id);
}

const TargetView* DocumentView::target(const std::string& id) const {
  const auto it = std::find_if(targets_.begin(), targets_.end(), [&](const TargetView& t) { return t.id == id; });
  return it == targets_.end() ? nullptr : &*it;
}

const ResultsDocument& DocumentView::target_document(const std::string& target) const {
  const auto it = restricted_.find(target);
  return it == restricted_.end() ? *doc_ : it->second;
}

}  // namespace roofline
