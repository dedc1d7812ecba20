// Compute ceilings, the full precision x engine x isa x width x threads table and theoretical peaks of any target,
// from its compute and clock suites' rows (compute_rows.hpp) and the peak model its facts name: see
// compute_ceilings.hpp for the method.
#include "roofline/model/compute_ceilings.hpp"

#include "compute_rows.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "roofline/model/matrix_engine.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/roofline_section.hpp"  // add_note
#include "roofline/common/arm_pipes.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/common/statistics.hpp"
#include "roofline/common/units.hpp"
#include "roofline/common/vocabulary.hpp"

namespace roofline {

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

// Pipes (instructions per cycle per core) of a row: the datasheet's when the kernel carries an
// architectural rate (AMX TMUL), else the plausible count nearest the measured throughput.
double row_pipes(const EntryLabels& labels, double measured_ipc, int ops_per_instruction) {
  const int opc = label_int(ROOFLINE_FIELD(labels, ops_per_cycle_per_core));
  if (opc > 0 && ops_per_instruction > 0) return static_cast<double>(opc) / ops_per_instruction;
  return plausible_pipes(measured_ipc);
}

// The x86 model's clock of a row: the best clock measured beside its own calls when recorded, else the clock
// benchmark's at its thread count (turbo frequency drifts with the host's load between benchmarks).
double row_clock(const ComputeRow& r, const std::map<int, double>& clock) {
  if (!r.clocks.empty()) return max_of(r.clocks);
  const auto it = clock.find(r.threads);
  return it != clock.end() ? it->second : 0.0;
}

// The cores a row's rate is shared by: its threads (a device's rows name none: the whole device, one).
int cores_of(const ComputeRow& r) { return std::max(r.threads, 1); }

// (precision rank, precision, engine, threads): one ceiling and one theoretical peak each.
using PeakKey = std::tuple<int, std::string, std::string, int>;

// Scaling: a thread count far below linear over the lowest one (SMT siblings or a busy host).
void scaling_notes(const std::map<PeakKey, ComputeCeilingRecord>& best, std::vector<std::string>& notes) {
  for (const auto& [k, c] : best) {
    const auto& [rank, precision, engine, threads] = k;
    const auto first = best.lower_bound({rank, precision, engine, 0});
    if (first->first == k || std::get<1>(first->first) != precision || std::get<2>(first->first) != engine) continue;
    const int first_threads = std::get<3>(first->first);
    if (first_threads <= 0) continue;
    const double ratio = c.value.value_or(0.0) / first->second.value.value_or(1.0);
    const double ideal = static_cast<double>(threads) / first_threads;
    if (ratio < 0.6 * ideal) {
      notes.push_back(fmt::format("compute: {} {} peaks at {} threads are only {:.2f}x those at {} (ideal {:.0f}x): "
                                  "the cores may be SMT siblings or busy with other work",
                                  c.precision.value_or(""), engine, threads, ratio, first_threads, ideal));
    }
  }
}

// A compute_table row before measurement fills it in: identity, status and what the kernel counts; the figures a
// measurement gives written null until it does.
ComputeRowRecord table_row(const ComputeRow& r, const std::string& kernel, int opi, const std::vector<double>& known) {
  ComputeRowRecord row;
  row.precision = r.precision;
  row.isa = r.isa;
  row.engine = r.engine;
  row.vector_bits = r.bits;
  row.status = r.status;
  row.unit = compute_unit(r.precision);
  row.kernel = kernel;
  row.variant = r.labels.variant.value_or("");
  row.instruction = r.labels.instruction.value_or("");
  row.ops_per_instruction = opi;
  row.known_pipes = known;
  row.exceeds_theoretical = false;
  row.reason = r.reason;
  row.benchmark = r.benchmark;
  for (const char* key : {"value", "median", "theoretical", "percent", "clock_hz", "instructions_per_cycle", "pipes",
                          "ops_per_cycle_per_core"}) {
    row.extra[key] = nullptr;
  }
  if (r.threads > 0) row.threads = r.threads;  // where its entries name one (a device's: none)
  return row;
}

// The x86 model's pipes per (precision, bits, isa, variant of a tile row, names) from its lowest measured thread
// count: every thread count's row is the same instruction on more cores.
using RowKey = std::tuple<int, int, int, std::string, std::string, std::string, std::string>;
RowKey row_key_of(const ComputeKey& k) {
  return RowKey{std::get<0>(k), std::get<1>(k), std::get<2>(k), std::get<4>(k), std::get<5>(k), std::get<6>(k),
                std::get<7>(k)};
}

std::map<RowKey, double> measured_pipes(const std::map<ComputeKey, ComputeRow>& rows, const std::map<int, double>& clock) {
  std::map<RowKey, double> pipes;
  for (const auto& [key, r] : rows) {
    const RowKey row_key = row_key_of(key);
    if (r.status != "measured" || pipes.count(row_key)) continue;  // rows iterate by ascending threads
    const double hz = row_clock(r, clock);
    const int opi = label_int(ROOFLINE_FIELD(r.labels, ops_per_instruction));
    if (hz <= 0.0 || opi <= 0) continue;
    pipes[row_key] = row_pipes(r.labels, max_of(r.values) / (cores_of(r) * hz * opi), opi);
  }
  return pipes;
}

// The counting conventions of the CPU's instructions, when the rows name their instructions (or ISA).
void counting_notes(std::vector<std::string>& notes) {
  notes.push_back("compute: FMA = 2 FLOP per lane; vdpbf16ps = 4 FLOP per 32-bit lane; vpdpbusd = 8 OP per "
                  "32-bit lane; theoretical = threads x measured clock x measured pipes x ops per instruction");
  notes.push_back("compute: one AMX tdpbf16ps on full tiles = 16x16x32 multiply-adds = 16384 FLOP (tdpbssd/tdpbusd: "
                  "32768 OP); the matrix engine's theoretical = threads x the clock measured beside it x 1024 FLOP "
                  "(bf16, fp16) or 2048 OP (int8) per cycle per core");
  notes.push_back("compute: each repetition's rate is its fastest call (every call timed alone, the clock "
                  "measured beside it); the *_average counters keep the mean of all its calls, which on a "
                  "shared or virtual machine includes preempted calls");
}

// ARM64's instructions, where its rows are in the file (NEON's 128-bit registers, SVE's at the length the run found).
void arm_counting_notes(const ComputeRows& collected, std::vector<std::string>& notes) {
  const bool arm = std::any_of(collected.rows.begin(), collected.rows.end(),
                               [](const auto& kv) { return kv.second.isa == "neon" || kv.second.isa == "sve"; });
  if (!arm) return;
  notes.push_back("compute: ARM64: FMLA = 2 FLOP per lane; SDOT = 8 OP and BFDOT = 4 FLOP per 32-bit lane; SMMLA "
                  "(2x8 by 8x2 int8) = 64 OP and BFMMLA (2x4 by 4x2 bf16) = 32 FLOP per 128-bit instruction; SVE rows "
                  "at the vector length the run had");
}

// What a target's peak model says of one measured row: the clock its peak is taken at, the peak (0: none) and,
// for the x86 model, the pipes behind it and the known-pipes table's peak (0: none) it is checked against.
struct RowPeak {
  double clock_hz = 0.0;
  std::string clock_source = "measured";
  double theoretical = 0.0;
  double pipes = 0.0, ops_per_cycle_per_core = 0.0, table_peak = 0.0;
  std::string source;  // the theoretical_peaks entry's words
};

// The known-pipes table of the row's architecture: ARM64's (common/arm_pipes.cpp, keyed "neoverse_v2") for NEON and
// SVE rows, x86-64's (common/x86_pipes.cpp) for the others. Empty where the core or the row is not in the table.
std::vector<double> known_row_pipes(const std::string& uarch, const std::string& kernel, const std::string& precision,
                                    const std::string& isa, int bits) {
  if (isa == "neon" || isa == "sve") return known_arm_pipes(uarch, kernel, precision, isa, bits);
  return known_pipes(uarch, kernel, precision, isa, bits);
}

// "x86_pipes" (the CPU's model on every architecture; the name is the file format's, from before ARM64): threads x
// the measured clock x the measured pipes x ops per instruction, the pipes checked against
// the target's microarchitecture's known-pipes table, a disagreement noted.
RowPeak x86_peak(const ComputeRow& r, double pipes, double hz, const std::vector<double>& known,
                 const std::string& uarch, std::vector<std::string>& notes) {
  RowPeak out;
  out.clock_hz = hz;
  const int opi = label_int(ROOFLINE_FIELD(r.labels, ops_per_instruction));
  if (!(pipes > 0.0 && hz > 0.0)) return out;
  const double value = max_of(r.values);
  out.pipes = pipes;
  out.ops_per_cycle_per_core = pipes * opi;
  out.theoretical = theoretical_peak(cores_of(r), hz, out.ops_per_cycle_per_core);
  out.source = label_int(ROOFLINE_FIELD(r.labels, ops_per_cycle_per_core)) > 0
                   ? "architectural rate per cycle (AMX TMUL) x measured clock"
                   : "measured instruction throughput";
  if (known.empty()) return out;
  out.table_peak = theoretical_peak(cores_of(r), hz, *std::max_element(known.begin(), known.end()) * opi);
  if (std::find(known.begin(), known.end(), pipes) == known.end()) {
    notes.push_back(fmt::format("compute: {} {} {}-bit at {} threads runs {:.2f} instructions/cycle/core ({} pipes); "
                                "the {} table says {}", r.precision, r.isa, r.bits, r.threads,
                                value / (cores_of(r) * hz * opi), pipes, uarch, fmt::join(known, " or ")));
  }
  return out;
}

// "units_clock": the facts' compute units x clock x ops_per_unit_per_clock["<precision>/<engine>"], at the clock
// measured beside the best repetition, else the clock suite's at its thread count, else the facts' clock. Any
// other model: the same clock, no peak. `section` gets the note (add_note keeps its notes, once each).
RowPeak facts_peak(const RecordedTarget& t, const ComputeRow& r, const std::map<int, double>& clock,
                   RooflineSection& section) {
  RowPeak out;
  const auto suite_clock = clock.find(r.threads);
  if (r.best_clock > 0.0) {
    out.clock_hz = r.best_clock;
  } else if (suite_clock != clock.end() && suite_clock->second > 0.0) {
    out.clock_hz = suite_clock->second;
  } else {
    std::tie(out.clock_hz, out.clock_source) = std::make_pair(t.clock_hz, "reported");
  }
  if (t.peak_model != "units_clock") {
    add_note(section, fmt::format("{}: theoretical peaks unknown (peak model '{}' is not one analysis applies to a "
                                  "device)", t.id, t.peak_model));
    return out;
  }
  const auto it = t.ops_per_unit_per_clock.find(r.precision + "/" + r.engine);
  if (it != t.ops_per_unit_per_clock.end() && t.compute_units > 0 && out.clock_hz > 0.0) {
    out.theoretical = static_cast<double>(t.compute_units) * out.clock_hz * it->second;
    out.source = "the target's facts: compute units x clock x operations per unit per clock";
  } else {
    add_note(section, fmt::format("{}: no theoretical {} {} peak: its facts give no ops_per_unit_per_clock[\"{}/{}\"], "
                                  "compute units or clock", t.id, r.precision, r.engine, r.precision, r.engine));
  }
  return out;
}

// A measured row's table fields, its ceiling and its theoretical peak (when higher than its key's so far).
struct Derived {
  std::map<PeakKey, ComputeCeilingRecord> best;
  std::map<PeakKey, TheoreticalPeakRecord> theoretical;
};

// The theoretical peak of a measured row: one per key, the highest.
void add_theoretical(const ComputeRow& r, const PeakKey& pk, const RowPeak& peak, bool x86, Derived& out) {
  if (out.theoretical.count(pk) && peak.theoretical <= out.theoretical[pk].value.value_or(0.0)) return;
  TheoreticalPeakRecord p;
  p.precision = r.precision;
  p.threads = r.threads;
  p.isa = r.isa;
  p.engine = r.engine;
  p.vector_bits = r.bits;
  p.value = peak.theoretical;
  p.unit = compute_unit(r.precision);
  p.clock_hz = peak.clock_hz;
  p.source = peak.source;
  if (x86) {
    p.ops_per_cycle_per_core = peak.ops_per_cycle_per_core;
    p.pipes = peak.pipes;
  }
  out.theoretical[pk] = std::move(p);
}

// The ceiling of a measured row's key: its best row, with that row's peak figures (null where it has none).
void add_ceiling(const RecordedTarget& t, const ComputeRow& r, const PeakKey& pk, const ComputeRowRecord& row,
                 const RowPeak& peak, bool x86, Derived& out) {
  const double value = row.value.value_or(0.0);
  if (out.best.count(pk) && value <= out.best[pk].value.value_or(0.0)) return;
  ComputeCeilingRecord c;
  c.target = t.id;
  c.precision = r.precision;
  c.isa = r.isa;
  c.engine = r.engine;
  c.vector_bits = r.bits;
  c.value = value;
  c.unit = compute_unit(r.precision);
  fields::set(ROOFLINE_FIELD(c, theoretical), row.theoretical);
  fields::set(ROOFLINE_FIELD(c, percent), row.percent);
  fields::set(ROOFLINE_FIELD(c, clock_hz), row.clock_hz);
  c.benchmark = r.benchmark;
  if (r.threads > 0) c.threads = r.threads;  // a ceiling names threads where its entries do (a device's: none)
  // The x86 model's ceilings keep the fields they had before targets (their median is the compute table's);
  // the others' say the median and where their clock came from.
  if (x86) {
    fields::set(ROOFLINE_FIELD(c, ops_per_cycle_per_core), row.ops_per_cycle_per_core);
  } else {
    fields::set(ROOFLINE_FIELD(c, median), row.median);
    c.clock_source = peak.clock_source;
  }
  out.best[pk] = std::move(c);
}

void add_measured(const RecordedTarget& t, const ComputeKey& key, const ComputeRow& r, const RowPeak& peak, bool x86,
                  ComputeRowRecord& row, Derived& out, std::vector<std::string>& notes) {
  const int opi = label_int(ROOFLINE_FIELD(r.labels, ops_per_instruction));
  const double value = max_of(r.values);
  const double hz = peak.clock_hz;
  fields::set(ROOFLINE_FIELD(row, value), value);
  fields::set(ROOFLINE_FIELD(row, median), median(r.values));
  if (hz > 0.0) fields::set(ROOFLINE_FIELD(row, clock_hz), hz);
  if (!x86) row.clock_source = peak.clock_source;  // the facts model's clock: measured beside the kernel, or reported
  if (hz > 0.0 && opi > 0) fields::set(ROOFLINE_FIELD(row, instructions_per_cycle), value / (cores_of(r) * hz * opi));
  const PeakKey pk{std::get<0>(key), r.precision, r.engine, r.threads};
  if (peak.theoretical > 0.0) {
    if (peak.pipes > 0.0) fields::set(ROOFLINE_FIELD(row, pipes), peak.pipes);
    if (peak.ops_per_cycle_per_core > 0.0) fields::set(ROOFLINE_FIELD(row, ops_per_cycle_per_core), peak.ops_per_cycle_per_core);
    fields::set(ROOFLINE_FIELD(row, theoretical), peak.theoretical);
    fields::set(ROOFLINE_FIELD(row, percent), 100.0 * value / peak.theoretical);
    if (exceeds_theoretical(value, peak.theoretical) || exceeds_theoretical(value, peak.table_peak)) {
      row.exceeds_theoretical = true;
      const std::string what = r.isa.empty() ? fmt::format("{}: {} {}", t.id, r.precision, r.engine)
                                             : fmt::format("{} {} {}-bit at {} threads", r.precision, r.isa, r.bits, r.threads);
      notes.push_back(fmt::format("compute: {} measures {} of the theoretical peak: more than 10% above it is a "
                                  "counting bug or a wrong clock", what, fmt::format("{:.0f}%", 100.0 * value / peak.theoretical)));
    }
    add_theoretical(r, pk, peak, x86, out);
  }
  add_ceiling(t, r, pk, row, peak, x86, out);
}

// The target's part, its rows built typed: see derive_compute_ceilings.
RooflineSection compute_part(const ResultsDocument& part, const RecordedTarget& target) {
  std::vector<std::string> notes;
  const ComputeRows collected = collect_compute_rows(part, target);
  const std::map<int, double>& clock = collected.clock;
  // The peak model the target's facts name: the only thing that tells one target's derivation from another's.
  const bool x86 = target.peak_model == "x86_pipes";
  const std::string& uarch = target.microarchitecture;  // the x86 model's known-pipes key (the target's facts)
  const std::map<RowKey, double> pipes = x86 ? measured_pipes(collected.rows, clock) : std::map<RowKey, double>{};

  RooflineSection out;
  std::vector<ComputeRowRecord>& table = out.compute_table.emplace();
  RooflineSection facts;  // the facts model's notes, once each
  Derived derived;
  for (const auto& [key, r] : collected.rows) {
    const int opi = label_int(ROOFLINE_FIELD(r.labels, ops_per_instruction));
    const std::string kernel = r.labels.kernel.value_or("");
    const std::vector<double> known =
        x86 ? known_row_pipes(uarch, kernel, r.precision, r.isa, r.bits) : std::vector<double>{};
    ComputeRowRecord row = table_row(r, kernel, opi, known);
    if (r.status == "measured") {
      const auto p = pipes.find(row_key_of(key));
      const RowPeak peak = x86 ? x86_peak(r, p != pipes.end() ? p->second : 0.0, row_clock(r, clock), known, uarch, notes)
                               : facts_peak(target, r, clock, facts);
      add_measured(target, key, r, peak, x86, row, derived, notes);
    }
    table.push_back(std::move(row));
  }
  for (const std::string& n : fields::records_of(facts.notes)) notes.push_back(n);

  std::vector<ComputeCeilingRecord>& ceilings = out.compute_ceilings.emplace();
  for (const auto& [k, c] : derived.best) ceilings.push_back(c);
  std::vector<TheoreticalPeakRecord>& peaks = out.theoretical_peaks.emplace();
  for (const auto& [k, p] : derived.theoretical) peaks.push_back(p);

  scaling_notes(derived.best, notes);
  if (collected.instruction_labels) counting_notes(notes);
  arm_counting_notes(collected, notes);
  if (x86 && !collected.rows.empty() && clock.empty()) notes.push_back("compute: no clock measurement, so no theoretical peaks");
  if (x86 && !collected.rows.empty() && uarch.empty()) {
    notes.push_back("compute: microarchitecture unknown; pipe counts come from the measured throughput alone");
  }
  if (x86) {
    out.matrix_engine = matrix_engine_summary(part.context, target, ceilings);
    for (const std::string& line : *out.matrix_engine->lines) notes.push_back("compute: " + line);
  }
  out.notes = std::move(notes);
  return out;
}

}  // namespace

RooflineSection derive_compute_ceilings(const ResultsDocument& part, const RecordedTarget& target) {
  return compute_part(part, target);
}

}  // namespace roofline
