// Comparing two runs: matching, per-repetition extraction, U test + threshold verdicts, ceilings and
// placements, machine vs configuration; the key-figure gate is compare_gate.cpp. Rendering lives in
// compare_render.cpp. See compare.hpp.
#include "roofline/regress/compare.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/regress/identity.hpp"
#include "roofline/model/results_targets.hpp"  // target_of
#include "roofline/regress/mann_whitney.hpp"
#include "roofline/common/statistics.hpp"

namespace roofline {
namespace {
using nlohmann::json;

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The repetitions of one benchmark on one side.
struct Series {
  // As written in the file (times in the entries' time_unit, so that U tests see exactly the numbers
  // compare.py sees); `scale` converts times to seconds.
  std::vector<double> values;      // the compared metric
  std::vector<double> real_times;  // when the entries have them
  std::vector<double> cpu_times;
  std::string metric, unit;
  double scale = 1.0;       // of values
  double time_scale = 0.0;  // of real_times/cpu_times; 0 until the first entry with times
};

// Counters our results files hold, most telling first: the one a benchmark has is what it is judged on.
struct RateCounter {
  const char* name;
  const char* unit;
  std::optional<double> BenchmarkEntry::*member;
};
constexpr RateCounter kRateCounters[] = {{"flop_per_second", "FLOP/s", &BenchmarkEntry::flop_per_second},
                                         {"op_per_second", "OP/s", &BenchmarkEntry::op_per_second},
                                         {"bytes_per_second", "B/s", &BenchmarkEntry::bytes_per_second},
                                         {"clock_hz", "Hz", &BenchmarkEntry::clock_hz}};

double time_unit_seconds(const BenchmarkEntry& entry) {
  const std::string unit = entry.time_unit.value_or("ns");  // Google Benchmark's default
  if (unit == "ns") return 1e-9;
  if (unit == "us") return 1e-6;
  if (unit == "ms") return 1e-3;
  if (unit == "s") return 1.0;
  return 0.0;  // unknown unit: times unusable
}

// Repetitions (run_type "iteration", or no run_type as in old Google Benchmark files) by name, in file
// order; failed entries and aggregates are left out. `use_counters`: judge on our rate counters.
std::vector<std::pair<std::string, Series>> collect_series(const ResultsDocument& doc, const std::string& path,
                                                           bool use_counters, std::vector<std::string>& notes) {
  std::vector<std::pair<std::string, Series>> out;
  std::map<std::string, std::size_t> index;
  std::size_t unusable = 0;
  for (std::size_t i = 0; i < doc.benchmarks.size(); ++i) {
    const BenchmarkEntry& e = doc.benchmarks[i];
    if (!e.name) throw InputError(fmt::format("{}: benchmarks[{}] is not an object with a 'name'", path, i));
    if (e.run_type.value_or("iteration") != "iteration") continue;
    if (e.error_occurred.value_or(false)) continue;
    const std::string& name = *e.name;
    const double unit_s = time_unit_seconds(e);
    const bool has_times = unit_s > 0.0 && e.real_time && e.cpu_time;
    std::string metric, unit;
    double value = 0.0;
    double scale = 1.0;
    if (use_counters) {
      for (const auto& c : kRateCounters) {
        if (const std::optional<double>& v = e.*c.member) {
          metric = c.name;
          unit = c.unit;
          value = *v;
          break;
        }
      }
    }
    if (metric.empty() && has_times) {
      metric = "real_time";
      unit = "s";
      value = *e.real_time;
      scale = unit_s;
    }
    if (metric.empty() || !std::isfinite(value)) {
      ++unusable;
      continue;
    }
    auto [it, inserted] = index.try_emplace(name, out.size());
    if (inserted) out.push_back({name, Series{{}, {}, {}, metric, unit, scale, 0.0}});
    Series& s = out[it->second].second;
    if (s.metric != metric || s.scale != scale) {  // like compare.py: repetitions in one time unit only
      ++unusable;
      continue;
    }
    s.values.push_back(value);
    if (has_times && (s.time_scale == 0.0 || s.time_scale == unit_s)) {
      s.time_scale = unit_s;
      s.real_times.push_back(*e.real_time);
      s.cpu_times.push_back(*e.cpu_time);
    }
  }
  if (unusable > 0) notes.push_back(fmt::format("{}: {} entries without a usable time or counter were skipped", path, unusable));
  return out;
}

// compare.py's calculate_change.
double relative_change(double base, double next) {
  if (base == 0.0 && next == 0.0) return 0.0;
  if (base == 0.0) return (next - base) / ((base + next) / 2.0);
  return (next - base) / std::fabs(base);
}

// Two-sided U test of two samples given in units scale_a and scale_b (raw numbers when the units agree).
std::optional<double> u_test(const std::vector<double>& a, double scale_a, const std::vector<double>& b,
                             double scale_b) {
  if (static_cast<int>(std::min(a.size(), b.size())) < kUTestMinRepetitions) return std::nullopt;
  if (scale_a == scale_b) return mann_whitney_u(a, b).p_value;
  std::vector<double> sa(a), sb(b);
  for (double& v : sa) v *= scale_a;
  for (double& v : sb) v *= scale_b;
  return mann_whitney_u(sa, sb).p_value;
}

void judge(CompareRow& row, const CompareOptions& options) {
  // Ceilings and placements are single values (best of the repetitions): the threshold alone decides.
  const bool established = row.kind != RowKind::benchmark || row.low_confidence || row.significant;
  row.verdict = judge(row.higher_better, row.change, options.threshold, Evidence{established, established});
}

CompareRow benchmark_row(const std::string& name, const Series& b, const Series& n, const CompareOptions& options) {
  CompareRow row;
  row.kind = RowKind::benchmark;
  row.name = name;
  row.metric = b.metric;
  row.unit = b.unit;
  row.higher_better = higher_is_better(b.metric);
  row.base = median(b.values) * b.scale;
  row.next = median(n.values) * n.scale;
  row.change = relative_change(row.base, row.next);
  row.base_repetitions = static_cast<int>(b.values.size());
  row.next_repetitions = static_cast<int>(n.values.size());
  row.p_value = u_test(b.values, b.scale, n.values, n.scale);
  row.time_pvalue = u_test(b.real_times, b.time_scale, n.real_times, n.time_scale);
  row.cpu_pvalue = u_test(b.cpu_times, b.time_scale, n.cpu_times, n.time_scale);
  row.low_confidence = std::min(row.base_repetitions, row.next_repetitions) < kConfidentRepetitions;
  row.significant = !row.low_confidence && row.p_value && *row.p_value < options.alpha;
  judge(row, options);
  return row;
}

std::string int_or_text(const json& j) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_number_integer()) return std::to_string(j.get<long long>());
  if (j.is_number()) return fmt::format("{}", j.get<double>());
  return j.dump();
}

// One part of a row's key as the file wrote it: the typed member, else what the file wrote there in another kind
// or as null (kept in the record's `extra`); nullopt when absent.
template <class T>
std::optional<std::string> key_part(const std::optional<T>& member, const json& extra, const char* field) {
  if (member) return int_or_text(json(*member));
  if (extra.contains(field)) return int_or_text(extra[field]);
  return std::nullopt;
}

// A field of a row's key: the label printed before its value in the key, the field of a record, and what a record
// without the field reads as: nullptr, no key (not compared); "", the part left out; else that value.
template <class R>
struct KeyField {
  const char* label;
  std::optional<std::string> (*part)(const R&);
  const char* absent = nullptr;
};
#define ROOFLINE_KEY_PART(R, field) [](const R& r) { return key_part(r.field, r.extra, #field); }

// One single-valued row per record of a roofline section array, keyed by the named fields.
template <class R>
void ceiling_rows(const std::optional<std::vector<R>>& base, const std::optional<std::vector<R>>& next, RowKind kind,
                  const char* prefix, const std::vector<KeyField<R>>& key_fields, const CompareOptions& options,
                  std::vector<CompareRow>& rows) {
  auto key_of = [&](const R& e) {
    std::string key = target_prefix(target_of(e)) + prefix;  // another target's rows: its id first
    for (const KeyField<R>& k : key_fields) {
      const std::optional<std::string> part = k.part(e);
      if (!part && k.absent == nullptr) return std::string();
      if (!part && *k.absent == '\0') continue;
      key += fmt::format("/{}{}", k.label, part ? *part : std::string(k.absent));
    }
    return key;
  };
  auto entries = [&](const std::optional<std::vector<R>>& records) {
    std::vector<std::pair<std::string, const R*>> out;
    if (!records) return out;
    for (const R& e : *records) {
      if (!e.value) continue;
      const std::string key = key_of(e);
      if (!key.empty()) out.emplace_back(key, &e);
    }
    return out;
  };
  const auto next_entries = entries(next);
  for (const auto& [key, b] : entries(base)) {
    const auto it = std::find_if(next_entries.begin(), next_entries.end(), [&key = key](const auto& p) { return p.first == key; });
    if (it == next_entries.end()) continue;
    CompareRow row;
    row.kind = kind;
    row.name = key;
    row.metric = "value";
    row.unit = b->unit.value_or(kind == RowKind::memory_ceiling ? "B/s" : "FLOP/s");
    row.higher_better = true;  // ceilings and placements are rates
    row.base = *b->value;
    row.next = *it->second->value;
    row.change = relative_change(row.base, row.next);
    row.gates = false;  // single values of one run's moment: the key-figure gate decides
    judge(row, options);
    rows.push_back(std::move(row));
  }
}

// The three arrays compare shows, each keyed by its fields.
void section_rows(const RooflineSection& base, const RooflineSection& next, const CompareOptions& options,
                  std::vector<CompareRow>& rows) {
  using M = MemoryCeilingRecord;
  using C = ComputeCeilingRecord;
  using P = PlacementRecord;
  ceiling_rows<M>(base.memory_ceilings, next.memory_ceilings, RowKind::memory_ceiling, "memory",
                  {{"", ROOFLINE_KEY_PART(M, level)}, {"", ROOFLINE_KEY_PART(M, kernel)},
                   {"threads:", ROOFLINE_KEY_PART(M, threads), ""}},
                  options, rows);
  // Precision, engine, ISA and width: an AMX machine has a vector and a matrix bf16 ceiling, and a file
  // may hold rows of one precision at several ISAs or widths. Files from before engines: vector.
  ceiling_rows<C>(base.compute_ceilings, next.compute_ceilings, RowKind::compute_ceiling, "compute",
                  {{"", ROOFLINE_KEY_PART(C, precision)}, {"", ROOFLINE_KEY_PART(C, engine), "vector"},
                   {"", ROOFLINE_KEY_PART(C, isa), ""}, {"bits:", ROOFLINE_KEY_PART(C, vector_bits), ""},
                   {"threads:", ROOFLINE_KEY_PART(C, threads), ""}},
                  options, rows);
  // A hybrid CPU's figures per core kind (issue 62): each matched with the same kind's, compute and memory apart.
  using K = CoreKindCeilingRecord;
  const auto of_figure = [](const std::optional<std::vector<K>>& rows, const char* figure) {
    std::optional<std::vector<K>> out;
    for (const K& r : rows.value_or(std::vector<K>{})) {
      if (r.figure.value_or("") == figure) (out ? *out : out.emplace()).push_back(r);
    }
    return out;
  };
  ceiling_rows<K>(of_figure(base.core_kind_ceilings, "compute"), of_figure(next.core_kind_ceilings, "compute"),
                  RowKind::compute_ceiling, "compute",
                  {{"kind:", ROOFLINE_KEY_PART(K, core_kind)}, {"", ROOFLINE_KEY_PART(K, precision)},
                   {"", ROOFLINE_KEY_PART(K, engine), "vector"}, {"", ROOFLINE_KEY_PART(K, isa), ""},
                   {"bits:", ROOFLINE_KEY_PART(K, vector_bits), ""}, {"threads:", ROOFLINE_KEY_PART(K, threads), ""}},
                  options, rows);
  ceiling_rows<K>(of_figure(base.core_kind_ceilings, "memory"), of_figure(next.core_kind_ceilings, "memory"),
                  RowKind::memory_ceiling, "memory",
                  {{"kind:", ROOFLINE_KEY_PART(K, core_kind)}, {"", ROOFLINE_KEY_PART(K, level)},
                   {"", ROOFLINE_KEY_PART(K, kernel)}, {"threads:", ROOFLINE_KEY_PART(K, threads), ""}},
                  options, rows);
  ceiling_rows<P>(base.placements, next.placements, RowKind::placement, "placement",
                  {{"", ROOFLINE_KEY_PART(P, kernel)}, {"", ROOFLINE_KEY_PART(P, backend)},
                   {"", ROOFLINE_KEY_PART(P, precision)}, {"batch:", ROOFLINE_KEY_PART(P, batch)},
                   {"threads:", ROOFLINE_KEY_PART(P, threads), ""}},
                  options, rows);
}
#undef ROOFLINE_KEY_PART

RunInfo run_info(const ResultsDocument& doc, const std::string& path) {
  RunInfo info;
  info.path = path;
  info.kind = doc.roofline ? ResultsKind::roofline : ResultsKind::google_benchmark;
  const ResultsContext& ctx = doc.context;
  info.date = ctx.date.value_or("");
  info.git_revision = ctx.git_revision.value_or("");
  info.host = ctx.host_name.value_or("");
  if (ctx.machine) {
    info.cpu_model = ctx.machine->cpu_model.value_or("");
    if (info.host.empty()) info.host = ctx.machine->hostname.value_or("");
  }
  return info;
}

}  // namespace

std::string_view to_string(RowKind kind) {
  switch (kind) {
    case RowKind::benchmark: return "benchmark";
    case RowKind::memory_ceiling: return "memory_ceiling";
    case RowKind::compute_ceiling: return "compute_ceiling";
    case RowKind::placement: return "placement";
  }
  return "";
}

bool higher_is_better(std::string_view metric) {
  if (ends_with(metric, "_per_second") || ends_with(metric, "_hz") || metric == "value") return true;
  return false;  // real_time, cpu_time, *_seconds, latency*: times, lower is better; unknown as times
}

int Comparison::count(Verdict v, bool gating_only) const {
  return static_cast<int>(std::count_if(rows.begin(), rows.end(), [&](const CompareRow& r) {
    return r.verdict == v && (!gating_only || r.gates);
  }));
}

int Comparison::exit_code() const {
  if (gate) return roofline::exit_code(gate->outcome, options.fail_on_inconclusive);
  return count(Verdict::regression, true) > 0 ? 1 : 0;
}

Comparison compare_runs(const ResultsDocument& base, const std::string& base_path, const ResultsDocument& next, const std::string& next_path,
                        const CompareOptions& options, const NoiseModel* noise) {
  if (!(options.threshold >= 0.0) || !std::isfinite(options.threshold)) {
    throw InputError(fmt::format("--threshold must be a finite percentage >= 0"));
  }
  if (!(options.alpha > 0.0 && options.alpha < 1.0)) throw InputError("--alpha must be between 0 and 1");
  if (!(options.gate.floor >= 0.0 && options.gate.floor_no_history >= 0.0)) throw InputError("--floor must be a percentage >= 0");
  const bool both_ours = base.roofline && next.roofline;

  Comparison c;
  c.options = options;
  c.base = run_info(base, base_path);
  c.next = run_info(next, next_path);
  if (!both_ours && c.base.kind != c.next.kind) {
    c.notes.push_back("one file is plain Google Benchmark JSON: benchmarks are compared on real time, ceilings not at all");
  }

  const auto base_series = collect_series(base, base_path, both_ours, c.notes);
  const auto next_series = collect_series(next, next_path, both_ours, c.notes);
  std::map<std::string, const Series*> next_by_name;
  for (const auto& [name, s] : next_series) next_by_name[name] = &s;
  std::set<std::string> matched;
  for (const auto& [name, b] : base_series) {
    const auto it = next_by_name.find(name);
    if (it == next_by_name.end() || it->second->metric != b.metric) {
      c.only_in_base.push_back(name);
      continue;
    }
    matched.insert(name);
    c.rows.push_back(benchmark_row(name, b, *it->second, options));
    if (both_ours) c.rows.back().gates = false;  // shown, never gate: the key figures do
  }
  for (const auto& [name, s] : next_series) {
    if (!matched.contains(name)) c.only_in_next.push_back(name);
  }
  if (c.rows.empty()) {
    throw InputError(fmt::format("{} and {}: no benchmarks in common to compare", base_path, next_path));
  }

  if (both_ours) section_rows(*base.roofline, *next.roofline, options, c.rows);

  c.machine_differences = both_ours ? fact_differences(machine_facts(base), machine_facts(next))
                                    : fact_differences(plain_machine_facts(base), plain_machine_facts(next));
  c.same_machine = c.machine_differences.empty();
  if (both_ours) {
    c.configuration_differences = fact_differences(configuration_facts(base), configuration_facts(next));
    c.gate = gate_runs(base, next, noise, options.gate);
  }
  return c;
}

std::string machine_mismatch_error(const Comparison& c) {
  std::string diffs;
  for (const auto& d : c.machine_differences) diffs += (diffs.empty() ? "" : "; ") + d;
  return fmt::format("{} and {} come from different machines or builds ({}); refusing to gate, pass "
                     "--allow-machine-mismatch to compare anyway",
                     c.base.path, c.next.path, diffs);
}

}  // namespace roofline
