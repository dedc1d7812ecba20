// One target's compute rows from its compute and clock suites' entries: see compute_rows.hpp.
#include "compute_rows.hpp"

#include <algorithm>
#include <array>
#include <tuple>

#include <fmt/format.h>

#include "roofline/model/record_fields.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/results_targets.hpp"
#include "roofline/model/roofline_section.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/common/vocabulary.hpp"

namespace roofline {
using nlohmann::json;

namespace {

// A label the typed read could not take (another kind than its member's, kept in the labels' `extra`), as an integer.
int untyped_int(const json& labels, const char* key) {
  if (!labels.contains(key)) return 0;
  const json& v = labels[key];
  if (v.is_number()) return v.get<int>();
  if (v.is_string()) {
    try {
      return std::stoi(v.get<std::string>());
    } catch (...) {
      return 0;
    }
  }
  return 0;
}

}  // namespace

int label_int(const std::optional<long long>& member, const EntryLabels& labels, const char* key) {
  return member ? static_cast<int>(*member) : untyped_int(labels.extra, key);
}

std::string compute_unit(const std::string& precision) { return precision.rfind("int", 0) == 0 ? "OP/s" : "FLOP/s"; }

const char* compute_counter(const std::string& precision) {
  return compute_unit(precision) == "OP/s" ? "op_per_second" : "flop_per_second";
}

namespace {

int precision_rank(const std::string& p) {
  static const std::array<std::string, 5> kOrder{"fp64", "fp32", "bf16", "fp16", "int8"};
  const auto it = std::find(kOrder.begin(), kOrder.end(), p);
  return static_cast<int>(it - kOrder.begin());
}

int isa_order(const std::string& isa) {
  static const std::array<std::string, 8> kOrder{"scalar", "sse", "avx2", "avx_vnni", "avx512", "amx", "neon", "sve"};
  const auto it = std::find(kOrder.begin(), kOrder.end(), isa);
  return static_cast<int>(it - kOrder.begin());
}

// The benchmark's own name, without the "/min_time:..", "/repeats:.." and "/real_time" Google Benchmark adds.
std::string base_name(const BenchmarkEntry& e) {
  std::string n = e.run_name ? *e.run_name : e.name.value_or("");
  for (const char* suffix : {"/min_time:", "/repeats:", "/real_time", "/manual_time", "/iterations:"}) {
    const auto pos = n.find(suffix);
    if (pos != std::string::npos) n.erase(pos);
  }
  return n;
}

// A row is its precision, width, ISA and threads; an AMX tile instruction (TDPBSSD beside TDPBUSD) and an ARM64
// matrix multiply (SMMLA beside SDOT, BFMMLA beside BFDOT, on the same registers) are rows of their own.
ComputeKey key_of(const ComputeRow& r) {
  const std::string kernel = r.labels.kernel.value_or("");
  const bool own_row = kernel == "tile" || kernel == "mmla";
  return {precision_rank(r.precision), r.bits, isa_order(r.isa), r.threads,
          own_row ? r.labels.variant.value_or("") : std::string(), r.precision, r.isa, r.engine};
}

// A row's engine: its "engine" label, else from its ISA (files from before engines: every row is vector
// but AMX's). An unknown engine is bad input, never guessed (engine_field's rule).
std::string engine_label(const EntryLabels& labels, const std::string& isa) {
  if (!fields::written(ROOFLINE_FIELD(labels, engine))) {
    return std::string(to_string(isa == "amx" ? Engine::matrix : Engine::vector));
  }
  return engine_field(labels, "compute entry");
}

// A row's identity from an entry's typed labels (or a not-supported row's fields read as labels).
ComputeRow row_of(const EntryLabels& l) {
  ComputeRow r;
  r.labels = l;
  r.precision = l.precision.value_or("");
  r.isa = l.isa.value_or("");
  r.bits = label_int(ROOFLINE_FIELD(l, vector_bits));
  r.threads = label_int(ROOFLINE_FIELD(l, threads));
  r.engine = engine_label(l, r.isa);
  return r;
}

// One compute entry and its typed labels `l` (a row keeps them for the table).
void add_entry(const BenchmarkEntry& e, const EntryLabels& l, ComputeRows& out, std::set<int>& thread_counts) {
  const ComputeRow r = row_of(l);
  // An entry that names its threads names a positive count; one that names none (a device's) is a row of 0.
  if (r.precision.empty() || (fields::written(ROOFLINE_FIELD(l, threads)) && r.threads <= 0)) return;
  thread_counts.insert(r.threads);
  ComputeRow& row = out.rows.try_emplace(key_of(r), r).first->second;
  row.labels = l;
  if (e.error_occurred.value_or(false)) {
    row.error = e.error_message.value_or("failed");
    if (row.values.empty()) row.benchmark = base_name(e);
    return;
  }
  const double v = compute_unit(r.precision) == "OP/s" ? fields::amount(ROOFLINE_FIELD(e, op_per_second))
                                                        : fields::amount(ROOFLINE_FIELD(e, flop_per_second));
  const double hz = fields::amount(ROOFLINE_FIELD(e, clock_hz));
  if (row.values.empty()) row.benchmark = base_name(e);
  if (hz > 0.0) row.clocks.push_back(hz);
  if (fields::written(ROOFLINE_FIELD(e, instructions_per_cycle))) {
    row.ipcs.push_back(fields::amount(ROOFLINE_FIELD(e, instructions_per_cycle)));
  }
  if (v <= 0.0) return;
  row.values.push_back(v);
  if (v > row.best_value) std::tie(row.best_value, row.best_clock, row.benchmark) = std::make_tuple(v, hz, base_name(e));
}

// The rows the target (or the --max-isa cap) does not support, at every thread count: its suite context's
// not_supported list.
void add_not_supported(const ResultsContext& context, const RecordedTarget& target, const std::set<int>& thread_counts,
                       ComputeRows& out) {
  // context.suites is not typed yet: the typed context keeps it in `extra`.
  const json& suite = fields::object_or_empty(fields::object_or_empty(context.extra, "suites"), (target_prefix(target.id) + "compute").c_str());
  if (!suite.contains("not_supported") || !suite["not_supported"].is_array()) return;
  for (const json& u : suite["not_supported"]) {
    if (!u.is_object()) continue;
    const EntryLabels labels = read_labels(u);  // the entries' labels it would have had, and its reason
    for (const int t : thread_counts) {
      ComputeRow r = row_of(labels);
      r.threads = t;
      r.status = "not supported";
      r.reason = u.value("reason", std::string("not supported on this CPU"));
      out.rows.try_emplace(key_of(r), r);
    }
  }
}

}  // namespace

ComputeRows collect_compute_rows(const ResultsDocument& doc, const RecordedTarget& target) {
  ComputeRows out;
  std::set<int> thread_counts;
  bool threaded = false;  // the target's entries name thread counts: the run's thread counts are its own
  static const EntryLabels kNoLabels;
  for (const BenchmarkEntry& e : doc.benchmarks) {
    if (target_of(e) != target.id) continue;
    const EntryLabels& labels = e.labels ? *e.labels : kNoLabels;
    threaded = threaded || fields::written(ROOFLINE_FIELD(labels, threads));
    if (e.run_type.value_or("iteration") != "iteration") continue;
    const std::string suite = labels.suite.value_or("");
    if (suite == "clock") {
      const int t = label_int(ROOFLINE_FIELD(labels, threads));
      if (!e.error_occurred.value_or(false) && t > 0) out.clock[t] = std::max(out.clock[t], fields::amount(ROOFLINE_FIELD(e, clock_hz)));
      continue;
    }
    if (suite == "compute") add_entry(e, labels, out, thread_counts);
  }
  if (threaded) {
    for (const long long t : doc.context.threads.value_or(std::vector<long long>{})) {
      if (t > 0) thread_counts.insert(static_cast<int>(t));
    }
  }
  for (const auto& [t, hz] : out.clock) thread_counts.insert(t);
  if (thread_counts.empty() && !threaded) thread_counts.insert(0);
  add_not_supported(doc.context, target, thread_counts, out);
  for (auto& [key, r] : out.rows) {
    out.instruction_labels = out.instruction_labels || fields::written(ROOFLINE_FIELD(r.labels, isa)) ||
                             fields::written(ROOFLINE_FIELD(r.labels, instruction));
    if (r.status == "measured" && r.values.empty()) {
      r.status = "failed";
      r.reason = r.error.empty() ? "no valid repetition" : r.error;
    }
  }
  return out;
}

}  // namespace roofline
