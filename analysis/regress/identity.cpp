// Machine and configuration identity of a results file. See identity.hpp.
#include "roofline/regress/identity.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

namespace roofline {
using nlohmann::json;

namespace {

json field(const json& parent, const char* key) {
  return parent.is_object() && parent.contains(key) ? parent[key] : json();
}

// The text of a fact as written in the file: strings as they are, other numbers than integers as %g, anything
// else (integers, flags, lists, objects) as JSON; null: not recorded.
std::optional<std::string> text_of(const json& v) {
  if (v.is_null()) return std::nullopt;
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) return fmt::format("{:g}", v.get<double>());
  return v.dump();
}

// A typed member's fact, else what the file wrote there in another kind (the lenient reader keeps it in `extra`):
// an identity is over what the file says.
template <class T>
std::optional<std::string> fact_of(const std::optional<T>& member, const json& extra, const char* key) {
  return text_of(member ? json(*member) : field(extra, key));
}

// A number of context.machine: the member, else a number written in another kind (results_targets.hpp's HostFacts
// reads any number).
template <class T>
std::optional<double> machine_number(const std::optional<T>& member, const json& extra, const char* key) {
  if (member) return static_cast<double>(*member);
  const json v = field(extra, key);
  return v.is_number() ? std::optional<double>(v.get<double>()) : std::nullopt;
}

std::set<std::string> split_isa(const std::string& s) {
  std::set<std::string> out;
  for (std::size_t start = 0; start < s.size();) {
    const std::size_t end = std::min(s.find(',', start), s.size());
    if (end > start) out.insert(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string isa_difference(const std::string& a, const std::string& b) {
  const std::set<std::string> sa = split_isa(a), sb = split_isa(b);
  std::string out;
  for (const auto& f : sb) {
    if (!sa.contains(f)) out += " +" + f;
  }
  for (const auto& f : sa) {
    if (!sb.contains(f)) out += " -" + f;
  }
  return "isa:" + out;
}

// The ISA features present, sorted and comma-separated, so that adding a new flag name is no mismatch; nullopt
// without context.machine.isa.
std::optional<std::string> isa_present(const MachineRecord& m) {
  std::map<std::string, bool> isa;
  if (m.isa) {
    isa = *m.isa;
  } else if (const json v = field(m.extra, "isa"); v.is_object()) {
    for (const auto& [k, flag] : v.items()) {
      if (flag.is_boolean()) isa[k] = flag.get<bool>();  // a flag of another kind is not read (HostFacts)
    }
  } else {
    return std::nullopt;
  }
  std::vector<std::string> present;
  for (const auto& [k, v] : isa) {
    if (v) present.push_back(k);
  }
  return fmt::format("{}", fmt::join(present, ","));
}

}  // namespace

Facts machine_facts(const ResultsDocument& results) {
  Fact cpu_model{"cpu_model", {}}, cores{"cores", {}}, isa{"isa", {}}, memory{"memory_gib", {}};
  if (const std::optional<MachineRecord>& m = results.context.machine) {
    if (m->cpu_model && !m->cpu_model->empty()) cpu_model.value = *m->cpu_model;
    if (const auto n = machine_number(m->cores, m->extra, "cores")) cores.value = std::to_string(static_cast<long long>(*n));
    isa.value = isa_present(*m);
    const double bytes = machine_number(m->memory_total_bytes, m->extra, "memory_total_bytes").value_or(0.0);
    if (bytes > 0.0) memory.value = fmt::format("{:g}", std::round(bytes / double(1ull << 30)));
  }
  return {cpu_model, cores, isa, memory};
}

Facts configuration_facts(const ResultsDocument& results) {
  const ResultsContext& ctx = results.context;
  std::optional<std::string> smt;
  if (ctx.machine) {
    const auto pus = machine_number(ctx.machine->pus, ctx.machine->extra, "pus");
    const auto cores = machine_number(ctx.machine->cores, ctx.machine->extra, "cores");
    // Counts as HostFacts reads them (truncated), their ratio as a number: "1", "2".
    if (pus && cores && static_cast<long long>(*cores) > 0) {
      smt = fmt::format("{:g}", static_cast<double>(static_cast<long long>(*pus)) / static_cast<double>(static_cast<long long>(*cores)));
    }
  }
  // context.binding and context.plan are not typed yet: read from `extra`.
  Facts facts{{"max_isa", fact_of(ctx.max_isa, ctx.extra, "max_isa")},
              {"threads", fact_of(ctx.threads, ctx.extra, "threads")},
              {"profile", fact_of(ctx.profile, ctx.extra, "profile")},
              {"binding", text_of(field(field(ctx.extra, "binding"), "policy"))}};
  facts.push_back({"compiler", fact_of(ctx.compiler, ctx.extra, "compiler"), false});
  facts.push_back({"compiler_flags", fact_of(ctx.compiler_flags, ctx.extra, "compiler_flags"), false});
  facts.push_back({"build_type", fact_of(ctx.build_type, ctx.extra, "build_type"), false});
  facts.push_back({"random_interleaving", fact_of(ctx.random_interleaving, ctx.extra, "random_interleaving"), false});
  facts.push_back({"smt", smt, false});
  // The plan's hash (context.plan, issue 46): two runs whose plans differ measured different benchmarks; compare
  // says so and compares the figures both have by name. Files from before plans have none (null: not compared).
  facts.push_back({"plan", text_of(field(field(ctx.extra, "plan"), "hash")), false});
  return facts;
}

Facts plain_machine_facts(const ResultsDocument& results) {
  const ResultsContext& ctx = results.context;
  // Google Benchmark's context.caches is not typed: read from `extra`.
  return {{"num_cpus", fact_of(ctx.num_cpus, ctx.extra, "num_cpus")},
          {"caches", text_of(field(ctx.extra, "caches"))},
          {"library_build_type", fact_of(ctx.library_build_type, ctx.extra, "library_build_type")}};
}

std::string fact_text(const Fact& fact) { return fact.value.value_or(""); }

std::string identity_key(const Facts& facts) {
  std::string key;
  for (const Fact& f : facts) {
    if (f.selects_history) key += fmt::format("{}{}={}", key.empty() ? "" : ";", f.name, fact_text(f));
  }
  return key;
}

std::string machine_identity(const ResultsDocument& results) { return identity_key(machine_facts(results)); }
std::string configuration_identity(const ResultsDocument& results) { return identity_key(configuration_facts(results)); }

std::vector<std::string> fact_differences(const Facts& base, const Facts& next) {
  std::vector<std::string> out;
  for (const Fact& b : base) {
    const auto it = std::find_if(next.begin(), next.end(), [&](const Fact& n) { return n.name == b.name; });
    if (it == next.end() || !b.value || !it->value || it->value == b.value) continue;
    out.push_back(b.name == "isa" ? isa_difference(*b.value, *it->value)
                                  : fmt::format("{}: {} -> {}", b.name, fact_text(b), fact_text(*it)));
  }
  return out;
}

}  // namespace roofline
