// Compute ceilings, the full precision x isa x width x threads table and theoretical peaks from the
// compute and clock suites' entries: see compute_ceilings.hpp for the method.
#include "roofline/analysis/compute_ceilings.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "roofline/analysis/matrix_engine.hpp"
#include "roofline/analysis/results.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/common/statistics.hpp"
#include "roofline/common/units.hpp"
#include "roofline/common/vocabulary.hpp"

namespace roofline {
using nlohmann::json;

double plausible_pipes(double ipc) {
  if (!(ipc > 0.0)) return 0.0;
  // Whole pipes, or one instruction every 2 or 4 cycles for slow (multi-uop) instructions such as
  // vdpbf16ps on Sapphire/Emerald Rapids, whose measured throughput is far from whole pipes.
  constexpr std::array<double, 6> kPipes{1.0 / 4, 1.0 / 2, 1.0, 2.0, 3.0, 4.0};
  double best = kPipes[0];
  for (const double p : kPipes) {
    if (std::abs(std::log(ipc / p)) < std::abs(std::log(ipc / best))) best = p;
  }
  return best;
}

double theoretical_peak(int threads, double clock_hz, double ops_per_cycle_per_core) {
  return static_cast<double>(threads) * clock_hz * ops_per_cycle_per_core;
}

bool exceeds_theoretical(double measured, double theoretical, double tolerance) {
  return theoretical > 0.0 && measured > theoretical * (1.0 + tolerance);
}

namespace {

int precision_rank(const std::string& p) {
  static const std::array<std::string, 5> kOrder{"fp64", "fp32", "bf16", "fp16", "int8"};
  const auto it = std::find(kOrder.begin(), kOrder.end(), p);
  return static_cast<int>(it - kOrder.begin());
}

int isa_order(const std::string& isa) {
  static const std::array<std::string, 6> kOrder{"scalar", "sse", "avx2", "avx_vnni", "avx512", "amx"};
  const auto it = std::find(kOrder.begin(), kOrder.end(), isa);
  return static_cast<int>(it - kOrder.begin());
}

// Row key: precision rank, vector bits, isa rank, threads (the table's display order), and for tile kernels
// the variant (TDPBSSD and TDPBUSD are two rows of one precision and width).
using Key = std::tuple<int, int, int, int, std::string>;

struct Row {
  json labels;
  std::string precision, isa, engine = "vector";
  int bits = 0;
  int threads = 0;
  std::vector<double> values;
  std::vector<double> ipcs;
  std::vector<double> clocks;  // measured beside the kernel's calls, when the entries have them
  std::string benchmark;
  std::string error;
  std::string status = "measured";
  std::string reason;
};


// The benchmark's own name, without the "/min_time:..", "/repeats:.." and "/real_time" Google Benchmark adds.
std::string base_name(const json& e) {
  std::string n = e.value("run_name", e.value("name", std::string()));
  for (const char* suffix : {"/min_time:", "/repeats:", "/real_time", "/iterations:"}) {
    const auto pos = n.find(suffix);
    if (pos != std::string::npos) n.erase(pos);
  }
  return n;
}

bool is_suite(const json& e, const char* suite) {
  return e.contains("labels") && e["labels"].is_object() && e["labels"].value("suite", std::string()) == suite;
}

int label_int(const json& labels, const char* key) {
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

Key key_of(const Row& r) {
  const bool tile = r.labels.value("kernel", std::string()) == "tile";
  return {precision_rank(r.precision), r.bits, isa_order(r.isa), r.threads,
          tile ? r.labels.value("variant", std::string()) : std::string()};
}

// A row's engine: its "engine" label, else from its ISA (files from before engines: every row is vector
// but AMX's). An unknown engine is bad input, never guessed.
std::string engine_label(const json& labels, const std::string& isa) {
  if (!labels.contains("engine")) return std::string(to_string(isa == "amx" ? Engine::matrix : Engine::vector));
  const json& e = labels["engine"];
  if (!e.is_string() || !parse_engine(e.get<std::string>())) {
    throw InputError(fmt::format("compute entry: engine {} is not 'vector' or 'matrix'", e.dump()));
  }
  return e.get<std::string>();
}

// Pipes (instructions per cycle per core) of a row: the datasheet's when the kernel carries an
// architectural rate (AMX TMUL), else the plausible count nearest the measured throughput.
double row_pipes(const json& labels, double measured_ipc, int ops_per_instruction) {
  const int opc = label_int(labels, "ops_per_cycle_per_core");
  if (opc > 0 && ops_per_instruction > 0) return static_cast<double>(opc) / ops_per_instruction;
  return plausible_pipes(measured_ipc);
}

// A row's clock: the best clock measured beside its own calls when recorded, else the clock benchmark's
// at its thread count (turbo frequency drifts with the host's load between benchmarks).
double row_clock(const Row& r, const std::map<int, double>& clock) {
  if (!r.clocks.empty()) return max_of(r.clocks);
  const auto it = clock.find(r.threads);
  return it != clock.end() ? it->second : 0.0;
}

json number_or_null(double v) { return v > 0.0 ? json(v) : json(nullptr); }

// The compute and clock suites' entries as rows (one per precision x isa x width x threads, a tile row per
// variant), with the rows the CPU or the cap did not support at every thread count, and the best clock per
// thread count.
struct Collected {
  std::map<int, double> clock;
  std::map<Key, Row> rows;
  std::set<int> thread_counts;
};

Collected collect_rows(const json& results, const json& context) {
  Collected out;
  std::map<int, double>& clock = out.clock;
  std::map<Key, Row>& rows = out.rows;
  std::set<int>& thread_counts = out.thread_counts;
  // Clock per thread count: the best repetition.
  const json benchmarks = results.contains("benchmarks") && results["benchmarks"].is_array() ? results["benchmarks"]
                                                                                            : json::array();
  for (const json& e : benchmarks) {
    if (!e.is_object() || e.value("run_type", std::string("iteration")) != "iteration") continue;
    const bool failed = e.value("error_occurred", false);
    if (is_suite(e, "clock")) {
      const int t = label_int(e["labels"], "threads");
      if (!failed && t > 0) clock[t] = std::max(clock[t], counter(e, "clock_hz"));
      continue;
    }
    if (!is_suite(e, "compute")) continue;
    const json& l = e["labels"];
    Row r;
    r.precision = l.value("precision", std::string());
    r.isa = l.value("isa", std::string());
    r.bits = label_int(l, "vector_bits");
    r.threads = label_int(l, "threads");
    r.labels = l;
    r.engine = engine_label(l, r.isa);
    if (r.precision.empty() || r.threads <= 0) continue;
    thread_counts.insert(r.threads);
    Row& row = rows.try_emplace(key_of(r), r).first->second;
    row.labels = l;
    row.benchmark = base_name(e);
    if (failed) {
      row.error = e.value("error_message", std::string("failed"));
      continue;
    }
    const double v = counter(e, r.precision == "int8" ? "op_per_second" : "flop_per_second");
    if (v > 0.0) row.values.push_back(v);
    if (counter(e, "clock_hz") > 0.0) row.clocks.push_back(counter(e, "clock_hz"));
    if (e.contains("instructions_per_cycle")) row.ipcs.push_back(counter(e, "instructions_per_cycle"));
  }
  if (context.contains("threads") && context["threads"].is_array()) {
    for (const json& t : context["threads"]) {
      if (t.is_number_integer() && t.get<int>() > 0) thread_counts.insert(t.get<int>());
    }
  }
  for (const auto& [t, hz] : clock) thread_counts.insert(t);

  // Rows the CPU (or the --max-isa cap) does not support, at every thread count.
  const json* unsupported = nullptr;
  if (context.contains("suites") && context["suites"].is_object() && context["suites"].contains("compute")) {
    const json& c = context["suites"]["compute"];
    if (c.is_object() && c.contains("not_supported") && c["not_supported"].is_array()) unsupported = &c["not_supported"];
  }
  if (unsupported != nullptr) {
    for (const json& u : *unsupported) {
      if (!u.is_object()) continue;
      for (const int t : thread_counts) {
        Row r;
        r.labels = u;
        r.precision = u.value("precision", std::string());
        r.isa = u.value("isa", std::string());
        r.bits = label_int(u, "vector_bits");
        r.threads = t;
        r.engine = engine_label(u, r.isa);
        r.status = "not supported";
        r.reason = u.value("reason", std::string("not supported on this CPU"));
        rows.try_emplace(key_of(r), r);
      }
    }
  }
  for (auto& [key, r] : rows) {
    if (r.status == "measured" && r.values.empty()) {
      r.status = "failed";
      r.reason = r.error.empty() ? "no valid repetition" : r.error;
    }
  }

  return out;
}

// Scaling: a thread count far below linear over the lowest one (SMT siblings or a busy host).
void scaling_notes(const std::map<std::tuple<int, std::string, int>, json>& best, json& notes) {
  for (const auto& [k, c] : best) {
    const auto& [precision, engine, threads] = k;
    const auto first = best.lower_bound({precision, engine, 0});
    if (first->first == k || std::get<0>(first->first) != precision || std::get<1>(first->first) != engine) continue;
    const int first_threads = std::get<2>(first->first);
    const double ratio = c.value("value", 0.0) / first->second.value("value", 1.0);
    const double ideal = static_cast<double>(threads) / first_threads;
    if (ratio < 0.6 * ideal) {
      notes.push_back(fmt::format("compute: {} {} peaks at {} threads are only {:.2f}x those at {} (ideal {:.0f}x): "
                                  "the cores may be SMT siblings or busy with other work",
                                  c.value("precision", ""), engine, threads, ratio, first_threads, ideal));
    }
  }
}

// A compute_table row before measurement fills it in: identity, status and what the kernel counts.
json table_row(const Row& r, const std::string& unit, const std::string& kernel, int opi, const std::vector<double>& known) {
  return {{"precision", r.precision},
          {"isa", r.isa},
          {"engine", r.engine},
          {"vector_bits", r.bits},
          {"threads", r.threads},
          {"status", r.status},
          {"value", nullptr},
          {"median", nullptr},
          {"unit", unit},
          {"theoretical", nullptr},
          {"percent", nullptr},
          {"clock_hz", nullptr},
          {"kernel", kernel},
          {"variant", r.labels.value("variant", std::string())},
          {"instruction", r.labels.value("instruction", std::string())},
          {"ops_per_instruction", opi},
          {"instructions_per_cycle", nullptr},
          {"pipes", nullptr},
          {"ops_per_cycle_per_core", nullptr},
          {"known_pipes", known},
          {"exceeds_theoretical", false},
          {"reason", r.reason},
          {"benchmark", r.benchmark}};
}

// Pipes per (precision, bits, isa, variant of a tile row) from its lowest measured thread count.
using RowKey = std::tuple<int, int, int, std::string>;
RowKey row_key_of(const Key& k) { return RowKey{std::get<0>(k), std::get<1>(k), std::get<2>(k), std::get<4>(k)}; }

std::map<RowKey, double> measured_pipes(const std::map<Key, Row>& rows, const std::map<int, double>& clock) {
  std::map<RowKey, double> pipes;
  for (const auto& [key, r] : rows) {
    const RowKey row_key = row_key_of(key);
    if (r.status != "measured" || pipes.count(row_key)) continue;  // rows iterate by ascending threads
    const double hz = row_clock(r, clock);
    const int opi = label_int(r.labels, "ops_per_instruction");
    if (hz <= 0.0 || opi <= 0) continue;
    pipes[row_key] = row_pipes(r.labels, max_of(r.values) / (r.threads * hz * opi), opi);
  }
  return pipes;
}

// The counting conventions and the clock and microarchitecture caveats, when there are compute rows.
void counting_notes(bool any_rows, bool no_clock, bool no_uarch, json& notes) {
  if (!any_rows) return;
  notes.push_back("compute: FMA = 2 FLOP per lane; vdpbf16ps = 4 FLOP per 32-bit lane; vpdpbusd = 8 OP per "
                  "32-bit lane; theoretical = threads x measured clock x measured pipes x ops per instruction");
  notes.push_back("compute: one AMX tdpbf16ps on full tiles = 16x16x32 multiply-adds = 16384 FLOP (tdpbssd/tdpbusd: "
                  "32768 OP); the matrix engine's theoretical = threads x the clock measured beside it x 1024 FLOP "
                  "(bf16, fp16) or 2048 OP (int8) per cycle per core");
  notes.push_back("compute: each repetition's rate is its fastest call (every call timed alone, the clock "
                  "measured beside it); the *_average counters keep the mean of all its calls, which on a "
                  "shared or virtual machine includes preempted calls");
  if (no_clock) notes.push_back("compute: no clock measurement, so no theoretical peaks");
  if (no_uarch) notes.push_back("compute: microarchitecture unknown; pipe counts come from the measured throughput alone");
}

}  // namespace

json derive_compute_ceilings(const json& results) {
  const ResultsView view(results);
  return derive_compute_ceilings(view);
}

json derive_compute_ceilings(const ResultsView& view) {
  const json& results = view.host_document();
  json notes = json::array();
  const json empty = json::object();
  const json& context = results.contains("context") && results["context"].is_object() ? results["context"] : empty;
  const std::string& uarch = view.host().microarchitecture;

  Collected collected = collect_rows(results, context);
  const std::map<int, double>& clock = collected.clock;
  std::map<Key, Row>& rows = collected.rows;

  const std::map<RowKey, double> pipes = measured_pipes(rows, clock);

  json table = json::array();
  // (precision rank, engine, threads) -> the best ceiling and the highest theoretical peak.
  using PeakKey = std::tuple<int, std::string, int>;
  std::map<PeakKey, json> best;
  std::map<PeakKey, json> theoretical;
  for (const auto& [key, r] : rows) {
    const RowKey row_key = row_key_of(key);
    const std::string unit = r.precision == "int8" ? "OP/s" : "FLOP/s";
    const int opi = label_int(r.labels, "ops_per_instruction");
    const std::string kernel = r.labels.value("kernel", std::string());
    const std::vector<double> known = known_pipes(uarch, kernel, r.precision, r.isa, r.bits);
    json row = table_row(r, unit, kernel, opi, known);
    if (r.status == "measured") {
      const double value = max_of(r.values);
      const double hz = row_clock(r, clock);
      row["value"] = value;
      row["median"] = median(r.values);
      row["clock_hz"] = number_or_null(hz);
      if (hz > 0.0 && opi > 0) row["instructions_per_cycle"] = value / (r.threads * hz * opi);
      const double p = pipes.count(row_key) ? pipes.at(row_key) : 0.0;
      if (p > 0.0 && hz > 0.0) {
        const double opc = p * opi;
        const double peak = theoretical_peak(r.threads, hz, opc);
        row["pipes"] = p;
        row["ops_per_cycle_per_core"] = opc;
        row["theoretical"] = peak;
        row["percent"] = 100.0 * value / peak;
        bool flagged = exceeds_theoretical(value, peak);
        if (!known.empty()) {
          const double table_peak = theoretical_peak(r.threads, hz, *std::max_element(known.begin(), known.end()) * opi);
          flagged = flagged || exceeds_theoretical(value, table_peak);
          if (std::find(known.begin(), known.end(), p) == known.end()) {
            notes.push_back(fmt::format(
                "compute: {} {} {}-bit at {} threads runs {:.2f} instructions/cycle/core ({} pipes); the {} table "
                "says {}", r.precision, r.isa, r.bits, r.threads, value / (r.threads * hz * opi), p, uarch,
                fmt::join(known, " or ")));
          }
        }
        if (flagged) {
          row["exceeds_theoretical"] = true;
          notes.push_back(fmt::format("compute: {} {} {}-bit at {} threads measures {} of the theoretical peak: "
                                      "more than 10% above it is a counting bug or a wrong clock",
                                      r.precision, r.isa, r.bits, r.threads,
                                      fmt::format("{:.0f}%", 100.0 * value / peak)));
        }
        const PeakKey pk{std::get<0>(key), r.engine, r.threads};
        if (!theoretical.count(pk) || peak > theoretical[pk].value("value", 0.0)) {
          const bool datasheet = label_int(r.labels, "ops_per_cycle_per_core") > 0;
          theoretical[pk] = {{"precision", r.precision}, {"threads", r.threads}, {"isa", r.isa},
                             {"engine", r.engine},       {"vector_bits", r.bits}, {"value", peak},
                             {"unit", unit},             {"clock_hz", hz},        {"ops_per_cycle_per_core", opc},
                             {"pipes", p},
                             {"source", datasheet ? "architectural rate per cycle (AMX TMUL) x measured clock"
                                                  : "measured instruction throughput"}};
        }
      }
      const PeakKey bk{std::get<0>(key), r.engine, r.threads};
      if (!best.count(bk) || value > best[bk].value("value", 0.0)) {
        best[bk] = {{"precision", r.precision},    {"isa", r.isa},
                    {"engine", r.engine},
                    {"vector_bits", r.bits},       {"threads", r.threads},
                    {"value", value},              {"unit", unit},
                    {"theoretical", row["theoretical"]}, {"percent", row["percent"]},
                    {"clock_hz", row["clock_hz"]}, {"ops_per_cycle_per_core", row["ops_per_cycle_per_core"]},
                    {"benchmark", r.benchmark}};
      }
    }
    table.push_back(std::move(row));
  }

  json ceilings = json::array();
  for (const auto& [k, c] : best) ceilings.push_back(c);
  json peaks = json::array();
  for (const auto& [k, p] : theoretical) peaks.push_back(p);

  scaling_notes(best, notes);
  counting_notes(!rows.empty(), clock.empty(), uarch.empty(), notes);
  json matrix = matrix_engine_summary(view, ceilings);
  for (const json& line : matrix["lines"]) notes.push_back("compute: " + line.get<std::string>());
  return {{"compute_ceilings", ceilings}, {"compute_table", table},   {"theoretical_peaks", peaks},
          {"matrix_engine", matrix},      {"notes", notes}};
}

}  // namespace roofline
