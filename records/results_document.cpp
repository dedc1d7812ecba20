// The typed results model's one typed reader and one writer (results_document.hpp, roofline::records). Each typed object lists its
// members once, in a visitor made from the field lists (results_document_fields.hpp, generated from the catalogue
// results/fields.txt) plus its nested members;
// the reader and the writer are the same two generic walks over those visitors, so a member added is a member
// read and written. nlohmann's NLOHMANN_DEFINE_TYPE macros are not used: they write null for an absent
// std::optional and cannot keep the fields a member does not hold, which the round trip needs.
#include "roofline/records/results_document.hpp"

#include <cmath>
#include <set>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "roofline/records/results_fields.hpp"
#include "roofline/common/errors.hpp"

namespace roofline {
namespace {
using json = nlohmann::json;

template <class S>
inline constexpr bool is_record = false;
// Objects whose untyped fields are sections not typed yet (results_document.hpp), checked by the catalogue alone.
template <class S>
inline constexpr bool is_open = false;
template <>
inline constexpr bool is_open<ResultsContext> = true;
template <>
inline constexpr bool is_open<RooflineSection> = true;

#define ROOFLINE_VISIT_MEMBER(type, name) f(#name, s.name);
#define ROOFLINE_RECORD(Struct, LIST, ...)                                         \
  template <>                                                                      \
  inline constexpr bool is_record<Struct> = true;                                  \
  template <class S, class F>                                                      \
    requires std::is_same_v<std::remove_const_t<S>, Struct>                        \
  void visit_fields(S& s, F&& f) {                                                 \
    LIST(ROOFLINE_VISIT_MEMBER)                                                    \
    __VA_ARGS__                                                                    \
  }
#define ROOFLINE_NO_LIST(X)

ROOFLINE_RECORD(EntryLabels, ROOFLINE_LABELS_FIELDS)
ROOFLINE_RECORD(RoofProbeFields, ROOFLINE_PROBE_FIELDS, f("samples", s.samples);)
ROOFLINE_RECORD(EntryRoofNow, ROOFLINE_NO_LIST, f("before", s.before); f("after", s.after);)
ROOFLINE_RECORD(BenchmarkEntry, ROOFLINE_ENTRY_FIELDS, f("labels", s.labels); f("roof_now", s.roof_now);)
ROOFLINE_RECORD(CacheRecord, ROOFLINE_CACHE_FIELDS)
ROOFLINE_RECORD(CoreKindRecord, ROOFLINE_CORE_KIND_FIELDS, f("pus", s.pus);)
ROOFLINE_RECORD(AmxRecord, ROOFLINE_AMX_FIELDS, f("advertised", s.advertised);)
ROOFLINE_RECORD(MachineRecord, ROOFLINE_MACHINE_FIELDS, f("caches", s.caches); f("core_first_pu", s.core_first_pu);
                f("core_kinds", s.core_kinds);
                f("isa", s.isa); f("amx", s.amx); f("notes", s.notes);)
ROOFLINE_RECORD(MemoryLevelRecord, ROOFLINE_LEVEL_FIELDS)
ROOFLINE_RECORD(TargetRecord, ROOFLINE_TARGET_FIELDS, f("memory_levels", s.memory_levels);
                f("ops_per_unit_per_clock", s.ops_per_unit_per_clock); f("details", s.details); f("notes", s.notes);)
ROOFLINE_RECORD(CanaryCheckpointRecord, ROOFLINE_CHECKPOINT_FIELDS)
ROOFLINE_RECORD(CanaryRecord, ROOFLINE_CANARY_FIELDS, f("checkpoints", s.checkpoints);)
ROOFLINE_RECORD(ProcStatRecord, ROOFLINE_PROC_STAT_FIELDS)
ROOFLINE_RECORD(EnvironmentSnapshot, ROOFLINE_SNAPSHOT_FIELDS, f("governor", s.governor); f("turbo", s.turbo);
                f("load_avg", s.load_avg); f("proc_stat", s.proc_stat);)
ROOFLINE_RECORD(RunEnvironment, ROOFLINE_ENVIRONMENT_FIELDS, f("canary", s.canary); f("core_canary", s.core_canary);
                f("libc_canary", s.libc_canary); f("libc_core_canary", s.libc_core_canary); f("start", s.start); f("end", s.end);)
ROOFLINE_RECORD(ResultsContext, ROOFLINE_CONTEXT_FIELDS, f("threads", s.threads); f("notes", s.notes);
                f("machine", s.machine); f("targets", s.targets); f("environment", s.environment);)
ROOFLINE_RECORD(ComputeCeilingRecord, ROOFLINE_COMPUTE_FIELDS)
ROOFLINE_RECORD(MemoryCeilingRecord, ROOFLINE_MEMORY_FIELDS, f("pattern", s.pattern);)
ROOFLINE_RECORD(PageSizeCeilingRecord, ROOFLINE_PAGES_FIELDS)
ROOFLINE_RECORD(RidgePointRecord, ROOFLINE_RIDGE_FIELDS)
ROOFLINE_RECORD(PlacementRoof, ROOFLINE_ROOF_FIELDS)
ROOFLINE_RECORD(PlacementOffload, ROOFLINE_OFFLOAD_FIELDS)
ROOFLINE_RECORD(PlacementRoofNow, ROOFLINE_ROOFNOW_FIELDS)
ROOFLINE_RECORD(PlacementAlternative, ROOFLINE_ROOFS_FIELDS)
ROOFLINE_RECORD(PlacementRecord, ROOFLINE_PLACEMENT_FIELDS, f("roof", s.roof); f("offload", s.offload);
                f("roof_now", s.roof_now); f("roofs", s.roofs);)
ROOFLINE_RECORD(TransferCeilingRecord, ROOFLINE_TRANSFER_FIELDS)
ROOFLINE_RECORD(LaunchLatencyRecord, ROOFLINE_LAUNCH_FIELDS)
ROOFLINE_RECORD(DequantCeilingRecord, ROOFLINE_DEQUANT_CEILING_FIELDS)
ROOFLINE_RECORD(DetectedLevelRecord, ROOFLINE_DETECTED_LEVEL_FIELDS, f("detected_from", s.detected_from);)
ROOFLINE_RECORD(TheoreticalPeakRecord, ROOFLINE_THEORETICAL_PEAK_FIELDS)
ROOFLINE_RECORD(CrossoverRecord, ROOFLINE_CROSSOVER_FIELDS, f("batches", s.batches);)
ROOFLINE_RECORD(BestBackendRecord, ROOFLINE_BEST_BACKEND_FIELDS)
ROOFLINE_RECORD(RoofViolationRecord, ROOFLINE_ROOF_VIOLATION_FIELDS, f("roof", s.roof);)
ROOFLINE_RECORD(DequantRowRecord, ROOFLINE_DEQUANT_ROW_FIELDS)
ROOFLINE_RECORD(CoreKindCeilingRecord, ROOFLINE_CORE_KIND_CEILING_FIELDS)
ROOFLINE_RECORD(ComputeRowRecord, ROOFLINE_COMPUTE_ROW_FIELDS, f("known_pipes", s.known_pipes);)
ROOFLINE_RECORD(DequantMemoryRoof, ROOFLINE_DEQUANT_MEMORY_ROOF_FIELDS)
ROOFLINE_RECORD(DequantUnpackRoof, ROOFLINE_DEQUANT_UNPACK_ROOF_FIELDS)
ROOFLINE_RECORD(DequantPlacementRoofs, ROOFLINE_NO_LIST, f("memory", s.memory); f("dequant", s.dequant);)
ROOFLINE_RECORD(DequantPlacementRecord, ROOFLINE_DEQUANT_PLACEMENT_FIELDS, f("roof", s.roof);)
ROOFLINE_RECORD(MatrixRatioRecord, ROOFLINE_MATRIX_RATIO_FIELDS)
ROOFLINE_RECORD(MatrixEngineRecord, ROOFLINE_MATRIX_ENGINE_FIELDS, f("lines", s.lines); f("ratios", s.ratios);)
ROOFLINE_RECORD(RooflineSection, ROOFLINE_NO_LIST, f("schema_version", s.schema_version);
                f("compute_ceilings", s.compute_ceilings); f("memory_ceilings", s.memory_ceilings);
                f("page_size_ceilings", s.page_size_ceilings); f("ridge_points", s.ridge_points);
                f("placements", s.placements); f("transfer_ceilings", s.transfer_ceilings);
                f("launch_latency", s.launch_latency); f("dequant_ceilings", s.dequant_ceilings);
                f("memory_levels", s.memory_levels); f("theoretical_peaks", s.theoretical_peaks);
                f("crossovers", s.crossovers); f("best_backends", s.best_backends);
                f("roof_violations", s.roof_violations); f("dequant_table", s.dequant_table);
                f("core_kind_ceilings", s.core_kind_ceilings); f("compute_table", s.compute_table);
                f("dequant_placements", s.dequant_placements); f("conventions", s.conventions);
                f("matrix_engine", s.matrix_engine); f("notes", s.notes);)

#undef ROOFLINE_RECORD
#undef ROOFLINE_NO_LIST
#undef ROOFLINE_VISIT_MEMBER

// A value of another kind than its member: the lenient reader keeps it in the object's `extra` (the schema
// check before it refused what the analysis must not meet), the strict reader refuses it.
struct Mismatch {
  std::string path, what;
};

struct ReadContext {
  std::string file;
  bool strict = false;
};

std::string join(const std::string& where, const std::string& key) { return where.empty() ? key : where + "." + key; }

template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {};
template <class T>
struct is_map : std::false_type {};
template <class T>
struct is_map<std::map<std::string, T>> : std::true_type {};

template <class S>
void read_object(const json& j, S& s, const ReadContext& ctx, const std::string& where);

// `ints` and `rel`: the enclosing object's integer_numbers and the value's path inside that object.
template <class T>
void read_value(const json& v, T& out, const ReadContext& ctx, const std::string& where, std::set<std::string>& ints,
                const std::string& rel) {
  if constexpr (std::is_same_v<T, json>) {
    out = v;
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!v.is_string()) throw Mismatch{where, "is not a string"};
    out = v.get<std::string>();
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!v.is_boolean()) throw Mismatch{where, "is not true or false"};
    out = v.get<bool>();
  } else if constexpr (std::is_same_v<T, long long>) {
    if (!v.is_number_integer()) throw Mismatch{where, "is not an integer"};
    out = v.get<long long>();
  } else if constexpr (std::is_same_v<T, double>) {
    if (!v.is_number()) throw Mismatch{where, "is not a number"};
    out = v.get<double>();
    if (v.is_number_integer()) ints.insert(rel);
  } else if constexpr (is_vector<T>::value) {
    if (!v.is_array()) throw Mismatch{where, "is not an array"};
    out.clear();
    for (std::size_t i = 0; i < v.size(); ++i) {
      read_value(v[i], out.emplace_back(), ctx, fmt::format("{}[{}]", where, i), ints, fmt::format("{}[{}]", rel, i));
    }
  } else if constexpr (is_map<T>::value) {
    if (!v.is_object()) throw Mismatch{where, "is not an object"};
    out.clear();
    for (const auto& [key, x] : v.items()) read_value(x, out[key], ctx, join(where, key), ints, join(rel, key));
  } else {
    static_assert(is_record<T>, "a member of the results model of a kind the reader does not know");
    if (!v.is_object()) throw Mismatch{where, "is not an object"};
    read_object(v, out, ctx, where);
  }
}

template <class S>
void read_object(const json& j, S& s, const ReadContext& ctx, const std::string& where) {
  std::set<std::string> taken;
  s.integer_numbers.clear();
  visit_fields(s, [&](const char* key, auto& member) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return;  // absent, or null: kept in extra as it was
    typename std::remove_reference_t<decltype(member)>::value_type value{};
    std::set<std::string> ints;
    try {
      read_value(*it, value, ctx, join(where, key), ints, key);
    } catch (const Mismatch& m) {
      if (ctx.strict) throw InputError(fmt::format("{}: {} {}", ctx.file, m.path, m.what));
      return;
    }
    member = std::move(value);
    s.integer_numbers.insert(ints.begin(), ints.end());
    taken.insert(key);
  });
  s.extra = json::object();
  for (const auto& [key, v] : j.items()) {
    if (taken.count(key) != 0) continue;
    if (ctx.strict && !is_open<S> && !v.is_null()) {
      throw InputError(fmt::format("{}: {} is not a field of the results model", ctx.file, join(where, key)));
    }
    s.extra[key] = v;
  }
}

template <class S>
json write_object(const S& s);

template <class T>
json write_value(const T& v, const std::set<std::string>& ints, const std::string& rel) {
  if constexpr (is_vector<T>::value) {
    json out = json::array();
    for (std::size_t i = 0; i < v.size(); ++i) out.push_back(write_value(v[i], ints, fmt::format("{}[{}]", rel, i)));
    return out;
  } else if constexpr (is_map<T>::value) {
    json out = json::object();
    for (const auto& [key, x] : v) out[key] = write_value(x, ints, join(rel, key));
    return out;
  } else if constexpr (is_record<T>) {
    return write_object(v);
  } else if constexpr (std::is_same_v<T, double>) {
    // An integer in the file stays one, as long as the value is still a whole number.
    const bool whole = std::trunc(v) == v && std::fabs(v) < 9.0e18;
    if (whole && ints.count(rel) != 0) return json(static_cast<long long>(v));
    return json(v);
  } else {
    return json(v);
  }
}

template <class S>
json write_object(const S& s) {
  json j = s.extra.is_object() ? s.extra : json::object();
  visit_fields(s, [&](const char* key, const auto& member) {
    if (member) j[key] = write_value(*member, s.integer_numbers, key);
  });
  return j;
}

template <class T>
void list_typed(const std::string& path, std::vector<TypedField>& out) {
  if constexpr (std::is_same_v<T, json>) {
    out.push_back({path, "any"});
  } else if constexpr (std::is_same_v<T, std::string>) {
    out.push_back({path, "text"});
  } else if constexpr (std::is_same_v<T, bool>) {
    out.push_back({path, "flag"});
  } else if constexpr (std::is_same_v<T, long long>) {
    out.push_back({path, "integer"});
  } else if constexpr (std::is_same_v<T, double>) {
    out.push_back({path, "number"});
  } else if constexpr (is_vector<T>::value) {
    list_typed<typename T::value_type>(path + "[]", out);
  } else if constexpr (is_map<T>::value) {
    out.push_back({path, "map"});
    list_typed<typename T::mapped_type>(path + ".*", out);
  } else {
    static_assert(is_record<T>, "a member of the results model of a kind the catalogue does not know");
    out.push_back({path, is_open<T> ? "open record" : "record"});
    T record{};
    visit_fields(record, [&](const char* key, const auto& member) {
      list_typed<typename std::remove_cvref_t<decltype(member)>::value_type>(path + "." + key, out);
    });
  }
}

}  // namespace

std::vector<TypedField> typed_fields() {
  std::vector<TypedField> out;
  list_typed<ResultsContext>("context", out);
  list_typed<BenchmarkEntry>("benchmarks[]", out);
  list_typed<RooflineSection>("roofline", out);
  return out;
}

ResultsDocument read_records(const json& doc, const std::string& file, ReadMode mode, bool roofline_section) {
  const bool ours = roofline_section;
  const ReadContext ctx{file, mode == ReadMode::strict};
  if (ctx.strict) {
    if (const std::vector<std::string> unknown = unknown_fields(doc, 1); !unknown.empty()) {
      throw InputError(fmt::format("{}: {}", file, unknown.front()));
    }
  }
  ResultsDocument out;
  read_object(doc.at("context"), out.context, ctx, "context");
  const json& benchmarks = doc.at("benchmarks");
  out.benchmarks.resize(benchmarks.size());
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    read_object(benchmarks[i], out.benchmarks[i], ctx, fmt::format("benchmarks[{}]", i));
  }
  if (ours) read_object(doc.at("roofline"), out.roofline.emplace(), ctx, "roofline");
  for (const auto& [key, v] : doc.items()) {
    if (key == "context" || key == "benchmarks" || (ours && key == "roofline")) continue;
    out.extra[key] = v;  // strict mode: the catalogue refused any other top-level field above
  }
  return out;
}

std::vector<const BenchmarkEntry*> benchmark_entries(const ResultsDocument& doc, const std::string& suite,
                                                     const std::string& aggregate) {
  std::vector<const BenchmarkEntry*> out;
  for (const BenchmarkEntry& e : doc.benchmarks) {
    const std::string run_type = e.run_type.value_or("iteration");
    if (aggregate.empty()) {
      if (run_type != "iteration") continue;
    } else if (run_type != "aggregate" || e.aggregate_name.value_or("") != aggregate) {
      continue;
    }
    if (!suite.empty() && (!e.labels || e.labels->suite.value_or("") != suite)) continue;
    if (e.error_occurred.value_or(false)) continue;
    out.push_back(&e);
  }
  return out;
}

void set_number(BenchmarkEntry& entry, const std::string& key, double value) {
  bool typed = false;
  visit_fields(entry, [&](const char* name, auto& member) {
    if (key != name) return;
    member.reset();
    if constexpr (std::is_same_v<typename std::remove_reference_t<decltype(member)>::value_type, double>) {
      if (std::isfinite(value)) {
        member = value;
        typed = true;
      }
    }
  });
  entry.integer_numbers.erase(key);
  if (typed) entry.extra.erase(key);
  else entry.extra[key] = std::isfinite(value) ? json(value) : json(nullptr);
}

void set_field(BenchmarkEntry& entry, const std::string& key, const json& value) {
  bool typed = false;
  visit_fields(entry, [&](const char* name, auto& member) {
    if (key != name) return;
    member.reset();
    if (value.is_null()) return;  // null: kept in extra, as the reader keeps it
    typename std::remove_reference_t<decltype(member)>::value_type read{};
    std::set<std::string> ints;
    try {
      read_value(value, read, ReadContext{}, key, ints, key);
    } catch (const Mismatch&) {
      return;  // another kind than the member's: kept in extra, as the lenient reader keeps it
    }
    member = std::move(read);
    std::erase_if(entry.integer_numbers, [&key](const std::string& path) {
      return path == key || path.starts_with(key + ".") || path.starts_with(key + "[");
    });
    entry.integer_numbers.insert(ints.begin(), ints.end());
    typed = true;
  });
  if (typed) entry.extra.erase(key);
  else entry.extra[key] = value;
}

EntryLabels read_labels(const json& labels) {
  EntryLabels out;
  if (labels.is_object()) read_object(labels, out, ReadContext{}, "labels");
  return out;
}

json to_json(const ResultsDocument& doc) {
  json j = doc.extra.is_object() ? doc.extra : json::object();
  j["context"] = write_object(doc.context);
  json& benchmarks = j["benchmarks"] = json::array();
  for (const BenchmarkEntry& e : doc.benchmarks) benchmarks.push_back(write_object(e));
  if (doc.roofline) j["roofline"] = write_object(*doc.roofline);
  return j;
}

void to_json(json& j, const ResultsDocument& doc) { j = to_json(doc); }
json to_json(const BenchmarkEntry& entry) { return write_object(entry); }
json to_json(const EntryLabels& labels) { return write_object(labels); }
json to_json(const ResultsContext& context) { return write_object(context); }
json to_json(const RooflineSection& roofline) { return write_object(roofline); }
json to_json(const TransferCeilingRecord& row) { return write_object(row); }
json to_json(const LaunchLatencyRecord& row) { return write_object(row); }
json to_json(const BestBackendRecord& row) { return write_object(row); }
json to_json(const RoofViolationRecord& row) { return write_object(row); }
void to_json(json& j, const RooflineSection& roofline) { j = write_object(roofline); }

RooflineSection read_roofline_section(const json& section, const std::string& file) {
  RooflineSection out;
  read_object(section, out, ReadContext{file, false}, "roofline");
  return out;
}

}  // namespace roofline
