// Machine and configuration identity of a results file. See identity.hpp.
#include "roofline/analysis/identity.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "json_fields.hpp"
#include "roofline/analysis/results_view.hpp"

namespace roofline {
using nlohmann::json;

namespace {
using regress_detail::object_at;

json field(const json& parent, const char* key) {
  return parent.is_object() && parent.contains(key) ? parent[key] : json();
}

std::set<std::string> split_isa(const json& v) {
  std::set<std::string> out;
  const std::string s = v.is_string() ? v.get<std::string>() : "";
  for (std::size_t start = 0; start < s.size();) {
    const std::size_t end = std::min(s.find(',', start), s.size());
    if (end > start) out.insert(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string isa_difference(const json& a, const json& b) {
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

}  // namespace

Facts machine_facts(const json& results) {
  const ResultsView view(results);
  const HostFacts& machine = view.host();
  json isa;
  if (machine.isa_present) {
    std::vector<std::string> present;  // the features present, so that adding a new flag name is no mismatch
    for (const auto& [k, v] : machine.isa) {
      if (v) present.push_back(k);
    }
    std::sort(present.begin(), present.end());
    isa = fmt::format("{}", fmt::join(present, ","));
  }
  json memory;
  if (machine.memory_total_bytes > 0.0) memory = std::round(machine.memory_total_bytes / double(1ull << 30));
  const json cpu_model = machine.cpu_model.empty() ? json() : json(machine.cpu_model);
  const json cores = machine.cores ? json(*machine.cores) : json();
  return {{"cpu_model", cpu_model}, {"cores", cores}, {"isa", isa}, {"memory_gib", memory}};
}

Facts configuration_facts(const json& results) {
  const json& ctx = object_at(results, "context");
  const ResultsView view(results);
  const HostFacts& machine = view.host();
  json smt;
  if (machine.pus && machine.cores && *machine.cores > 0) smt = static_cast<double>(*machine.pus) / static_cast<double>(*machine.cores);
  Facts facts{{"max_isa", field(ctx, "max_isa")},
              {"threads", field(ctx, "threads")},
              {"profile", field(ctx, "profile")},
              {"binding", field(object_at(ctx, "binding"), "policy")}};
  for (const char* key : {"compiler", "compiler_flags", "build_type", "random_interleaving"}) {
    facts.push_back({key, field(ctx, key), false});
  }
  facts.push_back({"smt", smt, false});
  // The plan's hash (context.plan, issue 46): two runs whose plans differ measured different benchmarks; compare
  // says so and compares the figures both have by name. Files from before plans have none (null: not compared).
  facts.push_back({"plan", field(object_at(ctx, "plan"), "hash"), false});
  return facts;
}

Facts plain_machine_facts(const json& results) {
  const json& ctx = object_at(results, "context");
  return {{"num_cpus", field(ctx, "num_cpus")}, {"caches", field(ctx, "caches")}, {"library_build_type", field(ctx, "library_build_type")}};
}

std::string fact_text(const Fact& fact) {
  if (fact.value.is_null()) return "";
  if (fact.value.is_string()) return fact.value.get<std::string>();
  if (fact.value.is_number_float()) return fmt::format("{:g}", fact.value.get<double>());
  return fact.value.dump();
}

std::string identity_key(const Facts& facts) {
  std::string key;
  for (const Fact& f : facts) {
    if (f.selects_history) key += fmt::format("{}{}={}", key.empty() ? "" : ";", f.name, fact_text(f));
  }
  return key;
}

std::string machine_identity(const json& results) { return identity_key(machine_facts(results)); }
std::string configuration_identity(const json& results) { return identity_key(configuration_facts(results)); }

std::vector<std::string> fact_differences(const Facts& base, const Facts& next) {
  std::vector<std::string> out;
  for (const Fact& b : base) {
    const auto it = std::find_if(next.begin(), next.end(), [&](const Fact& n) { return n.name == b.name; });
    if (it == next.end() || b.value.is_null() || it->value.is_null() || it->value == b.value) continue;
    out.push_back(b.name == "isa" ? isa_difference(b.value, it->value)
                                  : fmt::format("{}: {} -> {}", b.name, fact_text(b), fact_text(*it)));
  }
  return out;
}

}  // namespace roofline
