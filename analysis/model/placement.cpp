// Placing GEMV/GEMM points on the roofline (issues 5, 6; one placement for every target, issue 47). Reads one
// target's gemm suite entries and the ceilings derived before for that target (roofline_section.cpp,
// target_roofline.cpp) and adds to the section:
//  placements:    one per (backend, precision, engine, threads, batch, shape): value = median of the
//                 repetitions (value_max the best), attainable = min(compute ceiling of that precision,
//                 thread count and engine, memory roof x AI), bound, efficiency = value / attainable, "roof":
//                 {engine, level} it was placed against, and "roofs": the same against every measured level's
//                 roof (the CPU's L1, L2, L3, DRAM; a device's own levels). The engine is what ran: "matrix" when
//                 the implementation string says amx (oneDNN's brg:avx512_core_amx_*), else the engine its labels
//                 name (a GPU's tensor cores), "vector" when none; a matrix point in a run without a matrix
//                 ceiling is placed against the vector ceiling and says so (roof.engine_missing). The level is
//                 the innermost measured one whose range holds the operands (resident_level.hpp), the target's
//                 main memory (the last level its facts list: the CPU's DRAM) when none does. Where the target
//                 has a host link (transfer_ceilings), "offload": the roof were the operands sent over it on
//                 every call. A device's entries name no thread count: its points have threads 0.
//  roof_violations: every placement above 110% of its attainable (beats_roof): a missing ceiling or a
//                 wrong count, never a result; the run and the report say so loudly.
//  crossovers:    per (backend, precision, engine, threads, shape) sweep: the predicted crossover batch where
//                 the AI reaches the main memory's ridge point (solved from the counting formula, and the first
//                 measured batch at or past it) beside the measured knee (rule below).
//  best_backends: per (precision, batch, threads): the backend with the highest attained value, and its
//                 % of the roof.
// Measured knee rule: with batches N_0 < N_1 < ... and attained P_i, the growth exponent
// g_i = ln(P_i / P_{i-1}) / ln(N_i / N_{i-1}) is 1 while P grows in proportion to N (memory-bound) and 0
// on a plateau. The knee is where growth stops being proportional for good: i* = 1 + the last i with
// g_i >= 0.5 (1 when there is none), so that one slow step at small batches (e.g. a library switching
// from its GEMV to its GEMM path) does not end the memory-bound region. "knee_first_batch" = N_{i*}, and
// the estimate "knee_batch" = N_{i*-1} x max(P) / P_{i*-1}: where proportional growth from the last
// proportional point meets the best value attained. When the last step still grows proportionally, the
// knee lies beyond the largest batch measured (null).
#include "roofline/common/vocabulary.hpp"
#include "roofline/common/gemm_count.hpp"
#include "roofline/model/placement.hpp"
#include "roofline/common/units.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "roofline/model/model.hpp"
#include "roofline/model/record_fields.hpp"
#include "roofline/model/resident_level.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/roof_now.hpp"
#include "roofline/model/roofline_section.hpp"
#include "roofline/common/statistics.hpp"

#include "gemm_points.hpp"

namespace roofline {
using namespace placement_detail;

namespace {

constexpr double kKneeExponent = 0.5;

// The invariant the tool enforces on itself: no point above this fraction of its attainable.
constexpr double kRoofTolerance = 1.10;

std::string unit_of(const std::string& precision) { return precision.rfind("int", 0) == 0 ? "OP/s" : "FLOP/s"; }

// " at <n> thread(s)" in a note, "" for a device's points (they name no thread count).
std::string at_threads(int threads) { return threads > 0 ? fmt::format(" at {} thread(s)", threads) : std::string(); }

// A placed point's thread count (0: a device's, which names none).
int threads_of(const PlacementRecord& p) { return static_cast<int>(p.threads.value_or(0)); }

// What a point is placed on: the target's ceilings derived so far (its section) and its main memory's name.
struct Roofline {
  const RooflineSection& section;
  const std::string& main_memory;
};

// The compute ceiling a point is placed against: its engine's, else (a matrix point in a run that measured
// no matrix ceiling) the vector one, with a note. Records the placement's engine and roof.engine (and engine_missing).
double compute_side(const Point& p, const RooflineSection& section, PlacementRecord& j, std::vector<std::string>& notes) {
  const std::string engine = engine_that_ran(p);
  j.engine = engine;
  PlacementRoof& roof = j.roof.emplace();
  roof.engine = engine;
  const ComputeCeilingRecord* peak = compute_roof(section, p.precision, p.threads, engine);
  if (peak == nullptr && engine == "matrix") {
    peak = compute_roof(section, p.precision, p.threads, "vector");
    roof.engine = "vector";
    roof.engine_missing = "matrix";
    notes.push_back(fmt::format(
        "{} {}{} ran on the matrix engine ({}), but this run has no measured matrix roof: it is placed "
        "against the vector ceiling, which says nothing about {} (a ceiling is missing).",
        p.backend, p.precision, at_threads(p.threads), p.implementation.empty() ? "its labels say" : p.implementation,
        p.implementation.empty() ? "its matrix engine" : "AMX"));
  }
  const double peak_value = peak ? peak->value.value_or(0.0) : 0.0;
  if (peak_value <= 0.0) {
    notes.push_back(fmt::format("No {} compute ceiling{}: GEMM points of that precision are placed "
                                "against the memory roofs only, without a bound (run the compute suite).",
                                p.precision, at_threads(p.threads)));
  } else {
    j.compute_ceiling = peak_value;
  }
  return peak_value;
}

// The levels a point's operands may live in at its thread count (a device's: 0), innermost first as the memory
// derivation wrote them, main memory left out. A level reaches as far as its bandwidth curve stays in it
// (memory_levels[].inferred_bytes, the CPU's, where its derivation estimates it: null there means the curve did
// not say, and the level is left out), else its largest measured size (max_bytes, another target's). Nothing
// measured, nothing is known to hold the operands: resident_level (resident_level.hpp) gives main memory.
std::vector<LevelReach> measured_reach(const Roofline& roofline, int threads) {
  std::vector<LevelReach> out;
  constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
  for (const DetectedLevelRecord& l : fields::records_of(roofline.section.memory_levels)) {
    const std::string level = l.level.value_or("");
    if (level == roofline.main_memory || fields::whole(ROOFLINE_FIELD(l, threads)).value_or(0) != threads) continue;
    // inferred_bytes written (a null too) decides; max_bytes only where the row has none.
    const double reach = fields::written(ROOFLINE_FIELD(l, inferred_bytes))
                             ? fields::amount(ROOFLINE_FIELD(l, inferred_bytes), kUnknown)
                             : fields::amount(ROOFLINE_FIELD(l, max_bytes), kUnknown);
    if (!std::isnan(reach)) out.push_back({level, reach});
  }
  return out;
}

// The roof of the point were its operands sent from the host on every call (the compulsory bytes at the best
// host-to-device transfer, pinned or pageable: on a GPU pinned is the faster, under PoCL pageable copies beat
// mapped pinned buffers, 13.7 against 9.5 GB/s), or none (the row's null) without transfers.
std::optional<PlacementOffload> offload_roof(const std::vector<TransferCeilingRecord>& transfers, double ai,
                                             double compute) {
  const TransferCeilingRecord* best = nullptr;
  for (const TransferCeilingRecord& c : transfers) {
    if (c.direction.value_or("") != "host_to_device") continue;
    if (best == nullptr || c.value.value_or(0.0) > best->value.value_or(0.0)) best = &c;
  }
  if (best == nullptr || ai <= 0.0 || best->value.value_or(0.0) <= 0.0) return std::nullopt;
  const double bw = *best->value;
  const double link = bw * ai;
  PlacementOffload out;
  out.direction = "host_to_device";
  out.memory = best->memory.value_or("");
  out.bandwidth = bw;
  out.attainable = compute > 0.0 ? std::min(compute, link) : link;
  out.bound = compute > 0.0 && compute < link ? "compute" : "transfer";
  return out;
}

// The point against each measured level's roof at its thread count, innermost first.
std::vector<PlacementAlternative> roofs_of(const Point& p, double value, double peak_value,
                                           const RooflineSection& section) {
  std::vector<PlacementAlternative> roofs;
  for (const std::string& level : memory_level_names(section)) {
    const MemoryRoof roof = memory_roof(section, level, p.threads);
    const double bw = roof.value();
    if (bw <= 0.0) continue;
    PlacementAlternative& r = roofs.emplace_back();
    r.level = level;
    r.bandwidth = bw;
    r.kernel = roof.kernel();
    r.pages = roof.page_size();
    if (peak_value > 0.0) {
      const RoofEvaluation e = evaluate_roof(peak_value, bw, p.ai);
      r.attainable = e.attainable;
      r.bound = std::string(to_string(e.bound));
      r.ridge_ai = e.ridge_ai;
      r.efficiency = value / e.attainable;
    } else {
      r.attainable = bw * p.ai;
      r.efficiency = value / (bw * p.ai);
    }
  }
  return roofs;
}

PlacementRecord place(const Point& p, const Roofline& roofline, std::vector<std::string>& notes) {
  const RooflineSection& section = roofline.section;
  const std::string& main = roofline.main_memory;
  const double value = median(p.values);
  PlacementRecord j;
  j.kernel = p.kernel;
  j.backend = p.backend;
  j.precision = p.precision;
  j.batch = p.batch;
  j.m = p.m;
  j.k = p.k;
  j.n = p.batch;
  j.ai = p.ai;
  j.value = value;
  j.value_max = *std::max_element(p.values.begin(), p.values.end());
  j.repetitions = static_cast<long long>(p.values.size());
  j.unit = unit_of(p.precision);
  j.latency_seconds = p.latencies.empty() ? 0.0 : median(p.latencies);
  j.implementation = p.implementation;
  if (p.threads > 0) j.threads = p.threads;  // a device's points name none
  const double peak_value = compute_side(p, section, j, notes);
  std::vector<PlacementAlternative> roofs = roofs_of(p, value, peak_value, section);
  const double shaped = gemm_compulsory_bytes(
      GemmShape{p.m, p.batch, p.k},
      OperandBytes{static_cast<int>(p.a_bytes), static_cast<int>(p.b_bytes), static_cast<int>(p.c_bytes)});
  const double operands = shaped > 0.0 ? shaped : p.working_set;
  // Where the operands live (main memory when unknown); leaves_at: where the bandwidth curve leaves that level.
  const auto [level, leaves_at] = operands > 0.0 ? resident_level(measured_reach(roofline, p.threads), main, operands)
                                                 : LevelReach{main, 0.0};
  if (operands > 0.0) {
    j.operand_bytes = operands;
    j.resident_level = level;
  }
  // The memory side: the resident level's roof when it was measured, else main memory's.
  const PlacementAlternative* used = nullptr;
  for (const PlacementAlternative& r : roofs) {
    if (r.level == main && used == nullptr) used = &r;
    if (r.level == level) used = &r;
  }
  if (used != nullptr) {
    j.roof->level = used->level;
    if (used->pages) j.roof->pages = used->pages;
    j.memory_ceiling = used->bandwidth;
    j.attainable = used->attainable;
    j.efficiency = used->efficiency;
    if (used->bound) {
      j.bound = used->bound;
      j.ridge_ai = used->ridge_ai;
    }
    // Only where memory is the limit does the level matter to the reader.
    if (level != main && j.bound.value_or("memory") == "memory") {
      const bool has_roof = used->level == level;
      notes.push_back(fmt::format(
          "{} {} batch {}{}: its operands ({}) fit the {} range the bandwidth curve measured (up to "
          "{}), so {}.",
          p.backend, p.precision, p.batch, at_threads(p.threads), format_bytes(operands), level, format_bytes(leaves_at),
          has_roof ? fmt::format("it is placed against the {} roof, not {}'s", level, main)
                   : fmt::format("it is not {}-bound, but this run has no {} roof: it is placed against {}'s", main, level, main)));
    }
  } else {
    notes.push_back(fmt::format("No memory roof{}: GEMM points are placed against the compute ceiling "
                                "only (run the bandwidth suite).",
                                at_threads(p.threads)));
    if (peak_value > 0.0) {
      j.attainable = peak_value;
      j.efficiency = value / peak_value;
    }
  }
  j.roofs = std::move(roofs);
  if (section.transfer_ceilings) {
    fields::set(ROOFLINE_FIELD(j, offload), offload_roof(*section.transfer_ceilings, p.ai, peak_value));
  }
  j.beats_roof = j.efficiency.has_value() && *j.efficiency > kRoofTolerance;
  if (p.roof_now) {
    j.roof_now = roof_now_placement(*p.roof_now, value, p.ai, peak_value, j.memory_ceiling.value_or(0.0));
    const double now = *j.roof_now->efficiency;
    if (now > kRoofTolerance) {
      notes.push_back(fmt::format(
          "{} {} batch {}{} reaches {:.0f}% of its roof now (the read probes around it: {} before, {} "
          "after): it read faster than the probe of its operands' size, so part of them was served from a cache "
          "level, or a count is wrong.",
          p.backend, p.precision, p.batch, at_threads(p.threads), 100.0 * now, format_si(p.roof_now->before.bytes_per_second, "B/s"),
          format_si(p.roof_now->after.bytes_per_second, "B/s")));
    }
  }
  return j;
}

// The sentence a point above its roof gets, naming it and its roof.
std::string violation_note(const PlacementRecord& p) {
  const PlacementRoof& roof = *p.roof;
  std::string why = "a ceiling is missing or a count is wrong";
  if (roof.engine_missing) why = "the matrix-engine ceiling is missing (this run measured no AMX roof)";
  return fmt::format("A point beats its roof: {} {} batch {}{} reaches {} = {:.0f}% of its attainable {} "
                     "({} compute, {} memory roof): {}.",
                     *p.backend, *p.precision, *p.batch, at_threads(threads_of(p)), format_si(*p.value, *p.unit),
                     100.0 * *p.efficiency, format_si(*p.attainable, *p.unit), roof.engine.value_or("vector"),
                     roof.level.value_or("no"), why);
}

// Predicted vs measured crossover of one sweep (points of one backend/precision/threads/shape, sorted
// by batch). A figure it cannot give is the row's explicit null.
CrossoverRecord crossover(const std::vector<const Point*>& sweep, const std::vector<const PlacementRecord*>& placed,
                          const std::string& main) {
  const Point& first = *sweep.front();
  CrossoverRecord c;
  c.backend = first.backend;
  c.precision = first.precision;
  c.m = first.m;
  c.k = first.k;
  c.batches.emplace();
  fields::set(ROOFLINE_FIELD(c, ridge_ai), std::nullopt);
  fields::set(ROOFLINE_FIELD(c, predicted_batch), std::nullopt);
  fields::set(ROOFLINE_FIELD(c, predicted_first_batch), std::nullopt);
  fields::set(ROOFLINE_FIELD(c, knee_batch), std::nullopt);
  fields::set(ROOFLINE_FIELD(c, knee_first_batch), std::nullopt);
  if (first.threads > 0) c.threads = first.threads;
  for (const Point* p : sweep) c.batches->push_back(p->batch);
  // Prediction: from the main memory's ridge of this precision, engine and thread count.
  double ridge = 0.0;
  for (const PlacementAlternative& r : fields::records_of(placed.front()->roofs)) {
    if (r.level.value_or("") == main && r.ridge_ai) ridge = *r.ridge_ai;
  }
  if (ridge > 0.0) {
    fields::set(ROOFLINE_FIELD(c, ridge_ai), ridge);
    if (first.a_bytes > 0 && first.b_bytes > 0 && first.c_bytes > 0) {
      const double n = crossover_batch(static_cast<double>(first.m), static_cast<double>(first.k), first.a_bytes,
                                       first.b_bytes, first.c_bytes, ridge);
      if (n > 0) fields::set(ROOFLINE_FIELD(c, predicted_batch), n);
    }
    for (const Point* p : sweep) {
      if (p->ai >= ridge) {
        fields::set(ROOFLINE_FIELD(c, predicted_first_batch), p->batch);
        break;
      }
    }
  }
  // Measured knee.
  if (sweep.size() >= 2) {
    std::vector<double> value;
    for (const PlacementRecord* p : placed) value.push_back(*p->value);
    const double best = *std::max_element(value.begin(), value.end());
    std::size_t knee = 1;
    for (std::size_t i = 1; i < sweep.size(); ++i) {
      const double g = std::log(value[i] / value[i - 1]) /
                       std::log(static_cast<double>(sweep[i]->batch) / static_cast<double>(sweep[i - 1]->batch));
      if (g >= kKneeExponent) knee = i + 1;
    }
    if (knee < sweep.size()) {
      fields::set(ROOFLINE_FIELD(c, knee_first_batch), sweep[knee]->batch);
      fields::set(ROOFLINE_FIELD(c, knee_batch),
                  static_cast<double>(sweep[knee - 1]->batch) * std::max(1.0, best / value[knee - 1]));
      c.plateau_value = best;
    }
  }
  return c;
}

}  // namespace

double crossover_batch(double m, double k, double a_bytes, double b_bytes, double c_bytes, double ridge_ai) {
  // 2MKN = r (MK a + N (K b + M c))  =>  N (2MK - r (K b + M c)) = r MK a.
  const double denominator = 2.0 * m * k - ridge_ai * (k * b_bytes + m * c_bytes);
  if (denominator <= 0.0) return -1.0;
  return ridge_ai * m * k * a_bytes / denominator;
}

namespace {

// The best backend per precision, batch and thread count.
std::vector<BestBackendRecord> best_backends(const std::vector<PlacementRecord>& placed) {
  std::map<std::tuple<std::string, long long, int>, const PlacementRecord*> best;
  for (const PlacementRecord& p : placed) {
    auto key = std::make_tuple(*p.precision, *p.batch, threads_of(p));
    auto [it, inserted] = best.try_emplace(key, &p);
    if (!inserted && *p.value > *it->second->value) it->second = &p;
  }
  std::vector<BestBackendRecord> out;
  for (const auto& [key, p] : best) {
    BestBackendRecord& b = out.emplace_back();
    b.precision = std::get<0>(key);
    b.batch = std::get<1>(key);
    b.backend = p->backend;
    b.value = p->value;
    b.unit = p->unit;
    b.m = p->m;
    b.k = p->k;
    if (std::get<2>(key) > 0) b.threads = std::get<2>(key);
    b.efficiency = p->efficiency;
    b.bound = p->bound;
    b.attainable = p->attainable;
  }
  return out;
}

}  // namespace

RooflineSection derive_placements(const ResultsDocument& part, const RecordedTarget& target, const RooflineSection& section) {
  const Roofline roofline{section, target.main_memory()};
  RooflineSection out;
  std::vector<PlacementRecord>& placements = out.placements.emplace();
  std::vector<CrossoverRecord>& crossovers = out.crossovers.emplace();
  out.best_backends.emplace();
  std::vector<RoofViolationRecord>& violations = out.roof_violations.emplace();
  std::vector<std::string>& out_notes = out.notes.emplace();
  int failed = 0;
  const std::vector<Point> points = collect_points(part, failed);
  if (failed > 0) {
    out_notes.push_back(fmt::format("{} GEMM measurement(s) failed (validation or setup) and are not placed.", failed));
  }
  if (points.empty()) return out;

  std::vector<std::string> notes;
  std::vector<PlacementRecord> placed;
  for (const Point& p : points) placed.push_back(place(p, roofline, notes));
  for (const std::string& n : notes) {
    if (std::find(out_notes.begin(), out_notes.end(), n) == out_notes.end()) out_notes.push_back(n);
  }
  out_notes.push_back("GEMM placement values are the median of the repetitions (value_max the best); ceilings are "
                      "the best repetition.");
  if (std::string note = roof_now_note(placed); !note.empty()) out_notes.push_back(std::move(note));
  out_notes.push_back(fmt::format(
      "Crossovers: predicted_batch solves AI(N) = {} ridge from the counting formula (predicted_first_batch: the "
      "first measured batch at or past it); the measured knee is the first batch after which attained FLOP/s never "
      "again grows as fast as N^{} (knee_first_batch), estimated as the batch before it x max attained / attained "
      "there (knee_batch).",
      roofline.main_memory, kKneeExponent));

  // Sweeps: points are ordered by (backend, precision, engine label, threads, batch, m, k); group by all but batch.
  std::map<std::tuple<std::string, std::string, std::string, int, long long, long long>, std::vector<std::size_t>> sweeps;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Point& p = points[i];
    sweeps[{p.backend, p.precision, p.engine_label, p.threads, p.m, p.k}].push_back(i);
  }
  for (auto& [key, idx] : sweeps) {
    std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return points[a].batch < points[b].batch; });
    std::vector<const Point*> sweep;
    std::vector<const PlacementRecord*> sweep_placed;
    for (std::size_t i : idx) {
      sweep.push_back(&points[i]);
      sweep_placed.push_back(&placed[i]);
    }
    crossovers.push_back(crossover(sweep, sweep_placed, roofline.main_memory));
  }

  out.best_backends = best_backends(placed);

  // Placements in a reading order: backend, precision, threads, batch.
  std::sort(placed.begin(), placed.end(), [](const PlacementRecord& a, const PlacementRecord& b) {
    return std::make_tuple(*a.backend, *a.precision, threads_of(a), *a.batch) <
           std::make_tuple(*b.backend, *b.precision, threads_of(b), *b.batch);
  });
  for (const PlacementRecord& p : placed) {
    if (!p.beats_roof.value_or(false)) continue;
    RoofViolationRecord& v = violations.emplace_back();
    v.backend = p.backend;
    v.precision = p.precision;
    v.batch = p.batch;
    v.value = p.value;
    v.unit = p.unit;
    v.attainable = p.attainable;
    v.efficiency = p.efficiency;
    v.roof = p.roof;
    v.note = violation_note(p);
    v.threads = p.threads;
    out_notes.push_back(violation_note(p));
  }
  placements = std::move(placed);
  return out;
}

}  // namespace roofline
