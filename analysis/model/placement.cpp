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
using nlohmann::json;
using namespace placement_detail;

namespace {

constexpr double kKneeExponent = 0.5;

// The invariant the tool enforces on itself: no point above this fraction of its attainable.
constexpr double kRoofTolerance = 1.10;

std::string unit_of(const std::string& precision) { return precision.rfind("int", 0) == 0 ? "OP/s" : "FLOP/s"; }

// " at <n> thread(s)" in a note, "" for a device's points (they name no thread count).
std::string at_threads(int threads) { return threads > 0 ? fmt::format(" at {} thread(s)", threads) : std::string(); }

// What a point is placed on: the target's ceilings derived so far (its section) and its main memory's name.
struct Roofline {
  const RooflineSection& section;
  const std::string& main_memory;
};

// The compute ceiling a point is placed against: its engine's, else (a matrix point in a run that measured
// no matrix ceiling) the vector one, with a note. Records roof.engine (and engine_missing) in j.
double compute_side(const Point& p, const RooflineSection& section, json& j, json& notes) {
  const std::string engine = engine_that_ran(p);
  j["engine"] = engine;
  j["roof"] = {{"engine", engine}};
  const ComputeCeilingRecord* peak = compute_roof(section, p.precision, p.threads, engine);
  if (peak == nullptr && engine == "matrix") {
    peak = compute_roof(section, p.precision, p.threads, "vector");
    j["roof"]["engine"] = "vector";
    j["roof"]["engine_missing"] = "matrix";
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
    j["compute_ceiling"] = peak_value;
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
// mapped pinned buffers, 13.7 against 9.5 GB/s), or null without transfers.
json offload_roof(const std::vector<TransferCeilingRecord>& transfers, double ai, double compute) {
  const TransferCeilingRecord* best = nullptr;
  for (const TransferCeilingRecord& c : transfers) {
    if (c.direction.value_or("") != "host_to_device") continue;
    if (best == nullptr || c.value.value_or(0.0) > best->value.value_or(0.0)) best = &c;
  }
  if (best == nullptr || ai <= 0.0 || best->value.value_or(0.0) <= 0.0) return nullptr;
  const double bw = *best->value;
  const double link = bw * ai;
  return {{"direction", "host_to_device"}, {"memory", best->memory.value_or("")}, {"bandwidth", bw},
          {"attainable", compute > 0.0 ? std::min(compute, link) : link},
          {"bound", compute > 0.0 && compute < link ? "compute" : "transfer"}};
}

// The point against each measured level's roof at its thread count, innermost first.
json roofs_of(const Point& p, double value, double peak_value, const RooflineSection& section) {
  json roofs = json::array();
  for (const std::string& level : memory_level_names(section)) {
    const MemoryRoof roof = memory_roof(section, level, p.threads);
    const double bw = roof.value();
    if (bw <= 0.0) continue;
    json r = {{"level", level}, {"bandwidth", bw}, {"kernel", roof.kernel()}};
    if (const std::optional<std::string> pages = roof.page_size()) r["pages"] = *pages;
    if (peak_value > 0.0) {
      const RoofEvaluation e = evaluate_roof(peak_value, bw, p.ai);
      r["attainable"] = e.attainable;
      r["bound"] = std::string(to_string(e.bound));
      r["ridge_ai"] = e.ridge_ai;
      r["efficiency"] = value / e.attainable;
    } else {
      r["attainable"] = bw * p.ai;
      r["efficiency"] = value / (bw * p.ai);
    }
    roofs.push_back(std::move(r));
  }
  return roofs;
}

json place(const Point& p, const Roofline& roofline, json& notes) {
  const RooflineSection& section = roofline.section;
  const std::string& main = roofline.main_memory;
  const double value = median(p.values);
  json j = {{"kernel", p.kernel},
            {"backend", p.backend},
            {"precision", p.precision},
            {"batch", p.batch},
            {"m", p.m},
            {"k", p.k},
            {"n", p.batch},
            {"ai", p.ai},
            {"value", value},
            {"value_max", *std::max_element(p.values.begin(), p.values.end())},
            {"repetitions", p.values.size()},
            {"unit", unit_of(p.precision)},
            {"latency_seconds", p.latencies.empty() ? 0.0 : median(p.latencies)},
            {"implementation", p.implementation}};
  if (p.threads > 0) j["threads"] = p.threads;  // a device's points name none
  const double peak_value = compute_side(p, section, j, notes);
  json roofs = roofs_of(p, value, peak_value, section);
  const double shaped = gemm_compulsory_bytes(
      GemmShape{p.m, p.batch, p.k},
      OperandBytes{static_cast<int>(p.a_bytes), static_cast<int>(p.b_bytes), static_cast<int>(p.c_bytes)});
  const double operands = shaped > 0.0 ? shaped : p.working_set;
  // Where the operands live (main memory when unknown); leaves_at: where the bandwidth curve leaves that level.
  const auto [level, leaves_at] = operands > 0.0 ? resident_level(measured_reach(roofline, p.threads), main, operands)
                                                 : LevelReach{main, 0.0};
  if (operands > 0.0) {
    j["operand_bytes"] = operands;
    j["resident_level"] = level;
  }
  // The memory side: the resident level's roof when it was measured, else main memory's.
  const json* used = nullptr;
  for (const json& r : roofs) {
    if (r["level"] == main && used == nullptr) used = &r;
    if (r["level"] == level) used = &r;
  }
  if (used != nullptr) {
    j["roof"]["level"] = (*used)["level"];
    if (used->contains("pages")) j["roof"]["pages"] = (*used)["pages"];
    j["memory_ceiling"] = (*used)["bandwidth"];
    j["attainable"] = (*used)["attainable"];
    j["efficiency"] = (*used)["efficiency"];
    if (used->contains("bound")) {
      j["bound"] = (*used)["bound"];
      j["ridge_ai"] = (*used)["ridge_ai"];
    }
    // Only where memory is the limit does the level matter to the reader.
    if (level != main && j.value("bound", "memory") == "memory") {
      const bool has_roof = (*used)["level"] == level;
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
      j["attainable"] = peak_value;
      j["efficiency"] = value / peak_value;
    }
  }
  j["roofs"] = std::move(roofs);
  if (section.transfer_ceilings) j["offload"] = offload_roof(*section.transfer_ceilings, p.ai, peak_value);
  j["beats_roof"] = j.contains("efficiency") && j["efficiency"].get<double>() > kRoofTolerance;
  if (p.roof_now) {
    j["roof_now"] = roof_now_json(*p.roof_now, value, p.ai, peak_value, j.value("memory_ceiling", 0.0));
    const double now = j["roof_now"]["efficiency"].get<double>();
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
std::string violation_note(const json& p) {
  const json& roof = p["roof"];
  std::string why = "a ceiling is missing or a count is wrong";
  if (roof.contains("engine_missing")) why = "the matrix-engine ceiling is missing (this run measured no AMX roof)";
  return fmt::format("A point beats its roof: {} {} batch {}{} reaches {} = {:.0f}% of its attainable {} "
                     "({} compute, {} memory roof): {}.",
                     p["backend"].get<std::string>(), p["precision"].get<std::string>(), p["batch"].get<long long>(),
                     at_threads(p.value("threads", 0)), format_si(p["value"].get<double>(), p["unit"].get<std::string>()),
                     100.0 * p["efficiency"].get<double>(),
                     format_si(p["attainable"].get<double>(), p["unit"].get<std::string>()),
                     roof.value("engine", "vector"), roof.value("level", "no"), why);
}

// Predicted vs measured crossover of one sweep (points of one backend/precision/threads/shape, sorted
// by batch).
json crossover(const std::vector<const Point*>& sweep, const std::vector<const json*>& placed, const std::string& main) {
  const Point& first = *sweep.front();
  json c = {{"backend", first.backend},
            {"precision", first.precision},
            {"m", first.m},
            {"k", first.k},
            {"batches", json::array()},
            {"ridge_ai", nullptr},
            {"predicted_batch", nullptr},
            {"predicted_first_batch", nullptr},
            {"knee_batch", nullptr},
            {"knee_first_batch", nullptr}};
  if (first.threads > 0) c["threads"] = first.threads;
  for (const Point* p : sweep) c["batches"].push_back(p->batch);
  // Prediction: from the main memory's ridge of this precision, engine and thread count.
  double ridge = 0.0;
  for (const json& r : placed.front()->value("roofs", json::array())) {
    if (r.value("level", "") == main && r.contains("ridge_ai")) ridge = r["ridge_ai"].get<double>();
  }
  if (ridge > 0.0) {
    c["ridge_ai"] = ridge;
    if (first.a_bytes > 0 && first.b_bytes > 0 && first.c_bytes > 0) {
      const double n = crossover_batch(static_cast<double>(first.m), static_cast<double>(first.k), first.a_bytes,
                                       first.b_bytes, first.c_bytes, ridge);
      if (n > 0) c["predicted_batch"] = n;
    }
    for (const Point* p : sweep) {
      if (p->ai >= ridge) {
        c["predicted_first_batch"] = p->batch;
        break;
      }
    }
  }
  // Measured knee.
  if (sweep.size() >= 2) {
    std::vector<double> value;
    for (const json* p : placed) value.push_back((*p)["value"].get<double>());
    const double best = *std::max_element(value.begin(), value.end());
    std::size_t knee = 1;
    for (std::size_t i = 1; i < sweep.size(); ++i) {
      const double g = std::log(value[i] / value[i - 1]) /
                       std::log(static_cast<double>(sweep[i]->batch) / static_cast<double>(sweep[i - 1]->batch));
      if (g >= kKneeExponent) knee = i + 1;
    }
    if (knee < sweep.size()) {
      c["knee_first_batch"] = sweep[knee]->batch;
      c["knee_batch"] = static_cast<double>(sweep[knee - 1]->batch) * std::max(1.0, best / value[knee - 1]);
      c["plateau_value"] = best;
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
json best_backends(const std::vector<json>& placed) {
  json out = json::array();
  std::map<std::tuple<std::string, long long, int>, const json*> best;
  for (const json& p : placed) {
    auto key = std::make_tuple(p["precision"].get<std::string>(), p["batch"].get<long long>(), p.value("threads", 0));
    auto [it, inserted] = best.try_emplace(key, &p);
    if (!inserted && p["value"].get<double>() > (*it->second)["value"].get<double>()) it->second = &p;
  }
  for (const auto& [key, p] : best) {
    json b = {{"precision", std::get<0>(key)}, {"batch", std::get<1>(key)},
              {"backend", (*p)["backend"]},    {"value", (*p)["value"]},     {"unit", (*p)["unit"]},
              {"m", (*p)["m"]},                {"k", (*p)["k"]}};
    if (std::get<2>(key) > 0) b["threads"] = std::get<2>(key);
    for (const char* f : {"efficiency", "bound", "attainable"}) {
      if (p->contains(f)) b[f] = (*p)[f];
    }
    out.push_back(std::move(b));
  }
  return out;
}

// The target's placements as their rows are built, JSON, until they are typed rows (derive_placements reads them typed).
json placement_part(const ResultsDocument& part, const RecordedTarget& target, const RooflineSection& section) {
  const Roofline roofline{section, target.main_memory()};
  json out = {{"placements", json::array()},
              {"crossovers", json::array()},
              {"best_backends", json::array()},
              {"roof_violations", json::array()},
              {"notes", json::array()}};
  int failed = 0;
  const std::vector<Point> points = collect_points(part, failed);
  if (failed > 0) {
    out["notes"].push_back(fmt::format("{} GEMM measurement(s) failed (validation or setup) and are not placed.", failed));
  }
  if (points.empty()) return out;

  json notes = json::array();
  std::vector<json> placed;
  for (const Point& p : points) placed.push_back(place(p, roofline, notes));
  for (const json& n : notes) {
    if (std::find(out["notes"].begin(), out["notes"].end(), n) == out["notes"].end()) out["notes"].push_back(n);
  }
  out["notes"].push_back("GEMM placement values are the median of the repetitions (value_max the best); ceilings are "
                         "the best repetition.");
  if (std::string note = roof_now_note(placed); !note.empty()) out["notes"].push_back(std::move(note));
  out["notes"].push_back(fmt::format(
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
    std::vector<const json*> sweep_placed;
    for (std::size_t i : idx) {
      sweep.push_back(&points[i]);
      sweep_placed.push_back(&placed[i]);
    }
    out["crossovers"].push_back(crossover(sweep, sweep_placed, roofline.main_memory));
  }

  out["best_backends"] = best_backends(placed);

  // Placements in a reading order: backend, precision, threads, batch.
  std::sort(placed.begin(), placed.end(), [](const json& a, const json& b) {
    return std::make_tuple(a["backend"].get<std::string>(), a["precision"].get<std::string>(), a.value("threads", 0),
                           a["batch"].get<long long>()) < std::make_tuple(b["backend"].get<std::string>(),
                                                                           b["precision"].get<std::string>(),
                                                                           b.value("threads", 0), b["batch"].get<long long>());
  });
  for (const json& p : placed) {
    if (!p.value("beats_roof", false)) continue;
    out["roof_violations"].push_back({{"backend", p["backend"]}, {"precision", p["precision"]}, {"batch", p["batch"]},
                                      {"value", p["value"]}, {"unit", p["unit"]},
                                      {"attainable", p["attainable"]}, {"efficiency", p["efficiency"]},
                                      {"roof", p["roof"]}, {"note", violation_note(p)}});
    if (p.contains("threads")) out["roof_violations"].back()["threads"] = p["threads"];
    out["notes"].push_back(violation_note(p));
  }
  for (json& p : placed) out["placements"].push_back(std::move(p));
  return out;
}

}  // namespace

RooflineSection derive_placements(const ResultsDocument& part, const RecordedTarget& target, const RooflineSection& section) {
  return read_roofline_section(placement_part(part, target, section), target.id);
}

}  // namespace roofline
