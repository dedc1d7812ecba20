// The report's table of the machine's facts (the host CPU: context.machine read as HostFacts), each with its source.
#include "roofline/report/report_tables.hpp"

#include <map>
#include <optional>

#include <fmt/format.h>

#include "roofline/model/results_targets.hpp"
#include "roofline/report/report_facts.hpp"
#include "roofline/common/units.hpp"
#include "table_cells.hpp"
#include "typed_fields.hpp"

namespace roofline {
using nlohmann::json;
using namespace report_detail;

namespace {

void add_fact(ReportTable& t, const std::string& fact, const std::string& value, const std::string& source) {
  if (!value.empty()) t.rows.push_back({fact, value, source});
}

std::string true_flags(const std::map<std::string, bool>& isa) {
  std::string out;
  for (const auto& [flag, on] : isa) {
    if (on) out += (out.empty() ? "" : " ") + flag;
  }
  return out;
}

// context.threads: the thread counts measured, as the run config lists them.
std::string thread_counts(const ResultsContext& ctx) {
  if (!ctx.threads) return ctx.extra.contains("threads") ? format_by_key("threads", ctx.extra["threads"], ctx.extra) : "";
  std::string out;
  for (const long long n : *ctx.threads) out += fmt::format("{}{}", out.empty() ? "" : ", ", n);
  return out;
}

// The run's configuration and build (context), each with its source.
void run_facts(ReportTable& t, const ResultsContext& ctx) {
  if (written(ROOFLINE_FIELD(ctx, threads))) add_fact(t, "threads measured", thread_counts(ctx), "run config");
  const json& binding = object_at(ctx.extra, "binding");  // context.binding: JSON until the model types it
  if (!binding.empty()) {
    add_fact(t, "binding", fmt::format("{}{}", str(binding, "policy", "?"), binding.value("pinned", false) ? ", pinned" : ", not pinned"),
             "run config");
  }
  add_fact(t, "ISA cap", cell(ROOFLINE_FIELD(ctx, max_isa)), "--max-isa");
  add_fact(t, "profile", cell(ROOFLINE_FIELD(ctx, profile)), "run config");
  const std::string compiler = cell(ROOFLINE_FIELD(ctx, compiler)), flags = cell(ROOFLINE_FIELD(ctx, compiler_flags));
  add_fact(t, "compiler", compiler.empty() ? flags : compiler + (flags.empty() ? "" : " " + flags), "build");
  add_fact(t, "revision", fmt::format("{}{}", cell(ROOFLINE_FIELD(ctx, roofline_version)),
                                      written(ROOFLINE_FIELD(ctx, git_revision)) ? " (" + cell(ROOFLINE_FIELD(ctx, git_revision)) + ")" : ""),
           "build");
  add_fact(t, "date", cell(ROOFLINE_FIELD(ctx, date)), "context");
}


std::string count_text(const std::optional<long long>& v, const std::string& fallback) {
  return v ? fmt::format("{}", *v) : fallback;
}

void cache_facts(ReportTable& t, const HostFacts& m) {
  for (const CacheFacts& c : m.caches) {
    std::string value = format_bytes(c.size_bytes);
    if (c.instances.value_or(0) > 0) value += fmt::format(" x {}", *c.instances);
    if (c.cores_per_instance.value_or(0) > 0) value += fmt::format(" ({} core(s) each)", *c.cores_per_instance);
    add_fact(t, fmt::format("L{} {} cache", count_text(c.level, "?"), c.type), value, c.source.empty() ? "n/a" : c.source);
  }
}

}  // namespace

ReportTable machine_table(const ResultsDocument& results) {
  ReportTable t{"table-machine", "Machine", {"fact", "value", "source"}, {false, false, false}, {}, ""};
  const ResultsContext& ctx = results.context;
  const HostFacts m = host_facts(ctx);
  const std::string topo = m.topology_source.empty() ? "n/a" : m.topology_source;
  add_fact(t, "host", cell(ROOFLINE_FIELD(ctx, host_name), m.hostname), "context");
  add_fact(t, "CPU", m.cpu_model, "cpuid brand string");
  if (m.cpu_family) {
    add_fact(t, "vendor / family / model / stepping",
             fmt::format("{} / {} / {} / {}", m.cpu_vendor.empty() ? "?" : m.cpu_vendor, count_text(m.cpu_family, "?"),
                         count_text(m.cpu_model_number, "?"), count_text(m.cpu_stepping, "?")), "cpuid");
  }
  add_fact(t, "microarchitecture", m.microarchitecture, "cpuid family/model table");
  add_fact(t, "hypervisor", m.hypervisor ? (*m.hypervisor ? "yes" : "no") : "", "cpuid");
  if (m.emulated) add_fact(t, "emulated", "yes: " + m.emulation, "the kernel's architecture");
  if (m.cores) {
    add_fact(t, "packages / cores / PUs",
             fmt::format("{} / {} / {}", count_text(m.packages, "?"), count_text(m.cores, "?"), count_text(m.pus, "?")), topo);
  }
  add_fact(t, "NUMA nodes", count_text(m.numa_nodes, ""), topo);
  if (m.memory_total_bytes > 0) {
    add_fact(t, "memory", fmt::format("{} total, {} available", format_bytes(m.memory_total_bytes),
                                      format_bytes(m.memory_available_bytes)), m.memory_source.empty() ? "n/a" : m.memory_source);
  }
  cache_facts(t, m);
  // A hybrid CPU's core kinds (issue 62): what the per-kind table's rows were measured on.
  if (ctx.machine && ctx.machine->core_kinds) {
    for (const CoreKindRecord& k : *ctx.machine->core_kinds) {
      std::string pus;
      for (const long long pu : k.pus.value_or(std::vector<long long>{})) pus += fmt::format("{}{}", pus.empty() ? "" : ",", pu);
      std::string value = fmt::format("PUs {}, efficiency {}", pus, count_text(k.efficiency, "?"));
      if (k.core_type) value += ", " + *k.core_type;
      if (k.microarchitecture) value += ", " + *k.microarchitecture;
      if (k.frequency_max_mhz) value += fmt::format(", up to {} MHz", *k.frequency_max_mhz);
      if (k.frequency_base_mhz) value += fmt::format(", base {} MHz", *k.frequency_base_mhz);
      if (k.linux_capacity) value += fmt::format(", capacity {}", *k.linux_capacity);
      add_fact(t, "core kind " + k.name.value_or("?"), value, k.source.value_or("n/a"));
    }
  }
  add_fact(t, "ISA features", true_flags(m.isa), "cpuid");
  const double clock = measured_clock_hz(results);
  if (clock > 0) add_fact(t, "clock (measured)", format_si(clock, "Hz"), "clock benchmark");
  run_facts(t, ctx);
  if (t.rows.empty()) t.note = "No machine facts in this file.";
  return t;
}

}  // namespace roofline
