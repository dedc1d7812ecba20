// Field rules of the roofline section, as one table (see results_schema.hpp). A rule names a field, what
// it must be, and whether every entry must have it; results/README.md documents the same fields.
#include "roofline/model/results_schema.hpp"
#include "roofline/model/roof_now.hpp"

#include <cmath>
#include <initializer_list>
#include <string_view>

#include <fmt/format.h>

#include "roofline/model/results_targets.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/common/vocabulary.hpp"

namespace roofline {
namespace {
using json = nlohmann::json;

enum class Kind { text, precision, level, engine, pages, positive_integer, count, number, boolean, object, fraction, non_negative, roof, target_roof };

struct Rule {
  const char* field;
  Kind kind;
  bool required;
};

struct ArrayRules {
  const char* array;
  std::initializer_list<Rule> rules;
};

const ArrayRules kRules[] = {
    {"compute_ceilings",
     {{"target", Kind::text, false}, {"precision", Kind::precision, true}, {"threads", Kind::positive_integer, false}, {"value", Kind::non_negative, true},
      {"isa", Kind::text, false}, {"engine", Kind::engine, false}, {"unit", Kind::text, false},
      {"theoretical", Kind::non_negative, false}, {"clock_hz", Kind::non_negative, false}}},
    {"memory_ceilings",
     {{"target", Kind::text, false}, {"level", Kind::text, true}, {"kernel", Kind::text, true}, {"threads", Kind::positive_integer, false},
      {"value", Kind::non_negative, true}, {"min_bytes", Kind::non_negative, false}, {"max_bytes", Kind::non_negative, false},
      {"plateau_median", Kind::non_negative, false}, {"pages", Kind::pages, false},
      {"huge_page_fraction", Kind::fraction, false}, {"warning", Kind::text, false}}},
    // Optional (files from before page sizes lack it); its rows are memory_ceilings' on another page size.
    {"page_size_ceilings",
     {{"target", Kind::text, false}, {"level", Kind::text, true}, {"kernel", Kind::text, true}, {"threads", Kind::positive_integer, false},
      {"value", Kind::non_negative, true}, {"pages", Kind::pages, true}, {"min_bytes", Kind::non_negative, false},
      {"max_bytes", Kind::non_negative, false}, {"plateau_median", Kind::non_negative, false},
      {"huge_page_fraction", Kind::fraction, false}}},
    {"ridge_points",
     {{"target", Kind::text, false}, {"precision", Kind::precision, true}, {"level", Kind::text, true}, {"threads", Kind::positive_integer, false},
      {"ai", Kind::non_negative, true}, {"engine", Kind::engine, false}, {"pages", Kind::pages, false}}},
    {"placements",
     {{"target", Kind::text, false}, {"backend", Kind::text, true}, {"precision", Kind::precision, true}, {"batch", Kind::positive_integer, true},
      {"threads", Kind::positive_integer, false}, {"value", Kind::non_negative, true}, {"ai", Kind::non_negative, false},
      {"attainable", Kind::non_negative, false}, {"efficiency", Kind::non_negative, false},
      {"m", Kind::positive_integer, false}, {"k", Kind::positive_integer, false},
      {"latency_seconds", Kind::non_negative, false}, {"resident_level", Kind::text, false}, {"roof", Kind::target_roof, false}}},
    // Targets other than the CPU (issue 21): host-to-device transfers and kernel launches, roofs of their own.
    {"transfer_ceilings",
     {{"target", Kind::text, true}, {"direction", Kind::text, true}, {"memory", Kind::text, true},
      {"value", Kind::non_negative, true}, {"unit", Kind::text, false}}},
    {"launch_latency", {{"target", Kind::text, true}, {"seconds", Kind::non_negative, true}}},
};

// What the CPU's entries must have besides (entries without `target` are the CPU's): a thread count, and a
// level of its vocabulary (another target names its own levels).
const ArrayRules kCpuRules[] = {
    {"compute_ceilings", {{"threads", Kind::positive_integer, true}}},
    {"memory_ceilings", {{"level", Kind::level, true}, {"threads", Kind::positive_integer, true}}},
    {"page_size_ceilings", {{"level", Kind::level, true}, {"threads", Kind::positive_integer, true}}},
    {"ridge_points", {{"level", Kind::level, true}, {"threads", Kind::positive_integer, true}}},
    {"placements", {{"threads", Kind::positive_integer, true}, {"resident_level", Kind::level, false}, {"roof", Kind::roof, false}}},
};

// Empty when `v` satisfies `kind`, else what is wrong with it.
std::string problem(const json& v, Kind kind) {
  switch (kind) {
    case Kind::text: return v.is_string() ? "" : "is not a string";
    case Kind::precision:
      if (!v.is_string()) return "is not a string";
      return parse_precision(v.get<std::string>()) ? "" : fmt::format("'{}' is not a precision", v.get<std::string>());
    case Kind::level:
      if (!v.is_string()) return "is not a string";
      return parse_level(v.get<std::string>()) ? "" : fmt::format("'{}' is not a memory level", v.get<std::string>());
    case Kind::engine:
      if (!v.is_string()) return "is not a string";
      return parse_engine(v.get<std::string>()) ? "" : fmt::format("'{}' is not an engine (vector, matrix)", v.get<std::string>());
    case Kind::pages:
      if (!v.is_string()) return "is not a string";
      return parse_page_size(v.get<std::string>()) ? "" : fmt::format("'{}' is not a page size (2M, 4K)", v.get<std::string>());
    case Kind::fraction:
      if (!v.is_number()) return "is not a number";
      return v.get<double>() >= 0.0 && v.get<double>() <= 1.0 ? "" : "is not between 0 and 1";
    case Kind::positive_integer:
      return v.is_number_integer() && v.get<long long>() >= 1 ? "" : "is not a positive integer";
    case Kind::count: return v.is_number_integer() && v.get<long long>() >= 0 ? "" : "is not a non-negative integer";
    case Kind::number: return v.is_number() ? "" : "is not a number";
    case Kind::boolean: return v.is_boolean() ? "" : "is not true or false";
    case Kind::object: return v.is_object() ? "" : "is not an object";
    case Kind::non_negative:
      if (!v.is_number()) return "is not a number";
      return std::isfinite(v.get<double>()) && v.get<double>() >= 0.0 ? "" : "is negative or not finite";
    case Kind::roof:
    case Kind::target_roof: {  // a target's roof names one of its own levels; the CPU's, one of L1..DRAM
      if (!v.is_object()) return "is not an object";
      const Kind level = kind == Kind::roof ? Kind::level : Kind::text;
      for (const auto& [field, sub] :
           {std::pair{"engine", Kind::engine}, std::pair{"level", level}, std::pair{"pages", Kind::pages}}) {
        if (!v.contains(field)) continue;
        if (std::string p = problem(v[field], sub); !p.empty()) return fmt::format(".{} {}", field, p);
      }
      return "";
    }
  }
  return "";
}

// The first rule `e` breaks, as "<where>.<field> <what is wrong>", or "" when it keeps them all.
std::string broken_rule(const json& e, std::initializer_list<Rule> rules, const std::string& where) {
  for (const Rule& r : rules) {
    if (!e.contains(r.field) || e[r.field].is_null()) {
      if (r.required) return fmt::format("{}.{} is missing", where, r.field);
      continue;
    }
    const std::string p = problem(e[r.field], r.kind);
    if (!p.empty()) return fmt::format("{}.{}{}{}", where, r.field, p.front() == '.' ? "" : " ", p);
  }
  return "";
}

// What the analysis reads of a benchmark entry (Google Benchmark's fields, our labels and counters). Other
// fields may be added, as scalars: an array or object where a counter belongs would reach no reader.
constexpr std::initializer_list<Rule> kBenchmarkRules = {
    {"name", Kind::text, false}, {"run_name", Kind::text, false}, {"run_type", Kind::text, false},
    {"aggregate_name", Kind::text, false}, {"aggregate_unit", Kind::text, false}, {"time_unit", Kind::text, false},
    {"label", Kind::text, false}, {"error_message", Kind::text, false}, {"error_occurred", Kind::boolean, false},
    {"labels", Kind::object, false}, {"real_time", Kind::number, false}, {"cpu_time", Kind::number, false},
    {"iterations", Kind::number, false}, {"threads", Kind::number, false}, {"repetitions", Kind::number, false},
    {"bytes_per_second", Kind::number, false}, {"flop_per_second", Kind::number, false},
    {"op_per_second", Kind::number, false}, {"working_set_bytes", Kind::number, false},
    {"arithmetic_intensity", Kind::number, false}};
// Labels the analysis reads by name: words, and the integers of the kernels' metadata rows.
constexpr std::initializer_list<Rule> kLabelRules = {
    {"suite", Kind::text, false}, {"kernel", Kind::text, false}, {"precision", Kind::text, false},
    {"isa", Kind::text, false}, {"engine", Kind::text, false}, {"backend", Kind::text, false},
    {"implementation", Kind::text, false}, {"instruction", Kind::text, false}, {"variant", Kind::text, false},
    {"unit", Kind::text, false}, {"pages", Kind::text, false}, {"threads", Kind::count, false},
    {"target", Kind::text, false}, {"direction", Kind::text, false}, {"memory", Kind::text, false},
    {"batch", Kind::count, false}, {"m", Kind::count, false}, {"n", Kind::count, false}, {"k", Kind::count, false},
    {"chains", Kind::count, false}, {"ops_per_instruction", Kind::count, false}, {"core_kind", Kind::text, false},
    {"ops_per_cycle_per_core", Kind::count, false}, {"instructions_per_iteration", Kind::count, false}};
// The machine facts the analysis reads (context.machine; bench/facts/machine.cpp writes them).
constexpr std::initializer_list<Rule> kMachineRules = {
    {"cpu_model", Kind::text, false}, {"cpu_vendor", Kind::text, false}, {"microarchitecture", Kind::text, false},
    {"hostname", Kind::text, false}, {"compiler", Kind::text, false}, {"compiler_flags", Kind::text, false},
    {"build_type", Kind::text, false}, {"topology_source", Kind::text, false}, {"memory_source", Kind::text, false},
    {"transparent_huge_pages", Kind::text, false}, {"transparent_huge_pages_defrag", Kind::text, false},
    {"transparent_huge_pages_source", Kind::text, false}, {"cores", Kind::count, false}, {"pus", Kind::count, false},
    {"packages", Kind::count, false}, {"numa_nodes", Kind::count, false}, {"cpu_family", Kind::count, false},
    {"cpu_model_number", Kind::count, false}, {"cpu_stepping", Kind::count, false},
    {"measured_clock_hz", Kind::non_negative, false}, {"memory_total_bytes", Kind::non_negative, false},
    {"memory_available_bytes", Kind::non_negative, false}, {"hypervisor", Kind::boolean, false},
    {"emulated", Kind::boolean, false}, {"emulation", Kind::text, false},
    {"isa", Kind::object, false}, {"amx", Kind::object, false}};
// context.machine.core_kinds[] (a hybrid CPU's: bench/facts/core_kinds.cpp).
constexpr std::initializer_list<Rule> kCoreKindRules = {
    {"name", Kind::text, true}, {"core_type", Kind::text, false}, {"microarchitecture", Kind::text, false},
    {"source", Kind::text, false}, {"frequency_max_mhz", Kind::count, false}, {"frequency_base_mhz", Kind::count, false},
    {"linux_capacity", Kind::count, false}};
constexpr std::initializer_list<Rule> kCacheRules = {
    {"type", Kind::text, false}, {"source", Kind::text, false}, {"level", Kind::count, false},
    {"size_bytes", Kind::count, false}, {"instances", Kind::count, false}, {"cores_per_instance", Kind::count, false}};

// Checks of a context.targets[] entry's fields: each throws InputError naming the field.
struct FieldCheck {
  const json& o;
  const std::string& where;
  void word(const char* key, bool required = false) const {
    if (!o.contains(key) || o[key].is_null()) {
      if (required) throw InputError(fmt::format("{}.{} is missing", where, key));
      return;
    }
    if (!o[key].is_string()) throw InputError(fmt::format("{}.{} is not a string", where, key));
  }
  void amount(const char* key) const {
    if (!o.contains(key) || o[key].is_null()) return;
    if (!o[key].is_number()) throw InputError(fmt::format("{}.{} is not a number", where, key));
    if (o[key].get<double>() < 0.0) throw InputError(fmt::format("{}.{} is negative", where, key));
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

// One entry of context.targets[] (issue 21: every field of TargetFacts, roofline/harness/target.hpp, as its writer
// writes it): throws InputError naming the first missing (target) or mistyped field.
void check_target(const json& facts, const std::string& where) {
  if (!facts.is_object()) throw InputError(where + " is not an object");
  const FieldCheck r{facts, where};
  r.word("target", true);
  for (const char* key : {"kind", "name", "vendor", "api", "driver"}) r.word(key);
  for (const char* key : {"compute_units", "clock_hz", "memory_total_bytes", "memory_available_bytes"}) r.amount(key);
  const json& levels = r.part("memory_levels", true);
  for (std::size_t i = 0; !levels.is_null() && i < levels.size(); ++i) {
    const std::string at = fmt::format("{}.memory_levels[{}]", where, i);
    if (!levels[i].is_object()) throw InputError(at + " is not an object");
    const FieldCheck l{levels[i], at};
    l.word("name", true);
    l.amount("capacity_bytes");
    if (levels[i].contains("shared") && !levels[i]["shared"].is_boolean()) {
      throw InputError(at + ".shared is not true or false");
    }
  }
  r.word("peak_model");
  const json& ops = r.part("ops_per_unit_per_clock", false);
  if (!ops.is_null()) {
    const FieldCheck o{ops, where + ".ops_per_unit_per_clock"};
    for (const auto& [key, v] : ops.items()) o.amount(key.c_str());
  }
  (void)r.part("details", false);
  const json& notes = r.part("notes", true);
  for (std::size_t i = 0; !notes.is_null() && i < notes.size(); ++i) {
    if (!notes[i].is_string()) throw InputError(fmt::format("{}.notes[{}] is not a string", where, i));
  }
}

// context.targets[] (issue 21), each entry's first missing or mistyped field.
std::string broken_targets(const json& targets) {
  if (!targets.is_array()) return "context.targets is not an array";
  for (std::size_t i = 0; i < targets.size(); ++i) {
    try {
      check_target(targets[i], fmt::format("context.targets[{}]", i));
    } catch (const InputError& e) {
      return e.what();
    }
  }
  return "";
}

std::string broken_benchmark(const json& e, const std::string& where) {
  if (!e.is_object()) return where + " is not an object";
  if (std::string p = broken_rule(e, kBenchmarkRules, where); !p.empty()) return p;
  for (const auto& [key, v] : e.items()) {
    if (key == "roof_now") {  // the probes around a memory-bound point (roof_now.hpp): their own reader's rules
      try {
        (void)read_roof_now(e);
      } catch (const InputError& ex) {
        return fmt::format("{}.{}", where, ex.what());
      }
      continue;
    }
    if (v.is_array() || v.is_object()) {
      if (key != "labels") return fmt::format("{}.{} is not a number, word or flag", where, key);
    }
  }
  if (!e.contains("labels")) return "";
  const json& labels = e["labels"];
  if (std::string p = broken_rule(labels, kLabelRules, where + ".labels"); !p.empty()) return p;
  for (const auto& [key, v] : labels.items()) {
    if (v.is_array() || v.is_object()) return fmt::format("{}.labels.{} is not a number or word", where, key);
  }
  return "";
}

std::string broken_machine(const json& m) {
  if (!m.is_object()) return "context.machine is not an object";
  if (std::string p = broken_rule(m, kMachineRules, "context.machine"); !p.empty()) return p;
  if (m.contains("isa")) {
    for (const auto& [flag, v] : m["isa"].items()) {
      if (!v.is_boolean()) return fmt::format("context.machine.isa.{} is not true or false", flag);
    }
  }
  if (m.contains("core_kinds") && !m["core_kinds"].is_null()) {
    if (!m["core_kinds"].is_array()) return "context.machine.core_kinds is not an array";
    for (std::size_t i = 0; i < m["core_kinds"].size(); ++i) {
      const json& k = m["core_kinds"][i];
      const std::string where = fmt::format("context.machine.core_kinds[{}]", i);
      if (!k.is_object()) return where + " is not an object";
      if (std::string p = broken_rule(k, kCoreKindRules, where); !p.empty()) return p;
      if (!k.contains("pus") || !k["pus"].is_array() || k["pus"].empty()) return where + ".pus is not a list of PUs";
      for (const json& pu : k["pus"]) {
        if (!pu.is_number_integer() || pu.get<long long>() < 0) return where + ".pus holds something not a PU index";
      }
    }
  }
  if (!m.contains("caches") || m["caches"].is_null()) return "";
  if (!m["caches"].is_array()) return "context.machine.caches is not an array";
  for (std::size_t i = 0; i < m["caches"].size(); ++i) {
    const json& c = m["caches"][i];
    const std::string where = fmt::format("context.machine.caches[{}]", i);
    if (!c.is_object()) return where + " is not an object";
    if (std::string p = broken_rule(c, kCacheRules, where); !p.empty()) return p;
  }
  return "";
}

}  // namespace

void check_input_fields(const json& doc, const std::string& file) {
  const json& benchmarks = doc.at("benchmarks");
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    const std::string p = broken_benchmark(benchmarks[i], fmt::format("benchmarks[{}]", i));
    if (!p.empty()) throw InputError(fmt::format("{}: {}", file, p));
  }
  const json& ctx = doc.at("context");
  if (ctx.contains("machine")) {
    if (const std::string p = broken_machine(ctx["machine"]); !p.empty()) throw InputError(fmt::format("{}: {}", file, p));
  }
  if (ctx.contains("targets")) {
    if (const std::string p = broken_targets(ctx["targets"]); !p.empty()) throw InputError(fmt::format("{}: {}", file, p));
  }
}

void check_roofline_fields(const json& roofline, const std::string& file) {
  for (const ArrayRules& a : kRules) {
    if (!roofline.contains(a.array)) continue;  // presence of the arrays is checked by classify_results
    const json& entries = roofline[a.array];
    if (!entries.is_array()) throw InputError(fmt::format("{}: roofline.{} is not an array", file, a.array));
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const json& e = entries[i];
      const std::string where = fmt::format("roofline.{}[{}]", a.array, i);
      if (!e.is_object()) throw InputError(fmt::format("{}: {} is not an object", file, where));
      if (const std::string p = broken_rule(e, a.rules, where); !p.empty()) throw InputError(fmt::format("{}: {}", file, p));
      if (entry_target(e) != kCpuTargetId) continue;
      for (const ArrayRules& cpu : kCpuRules) {
        if (std::string_view(cpu.array) != a.array) continue;
        if (const std::string p = broken_rule(e, cpu.rules, where); !p.empty()) throw InputError(fmt::format("{}: {}", file, p));
      }
    }
  }
}

}  // namespace roofline
