// Placing GEMV/GEMM points on the roofline (issues 5, 6). Reads the gemm suite's entries and the ceilings
// derived before (roofline_section.cpp) and adds to the section:
//  placements:    one per (backend, precision, threads, batch, shape): value = median of the
//                 repetitions (value_max the best), attainable = min(compute ceiling of that precision
//                 and thread count, DRAM roof x AI), bound, efficiency = value / attainable, and "roofs":
//                 the same against every measured level's roof (L1, L2, L3, DRAM).
//  crossovers:    per (backend, precision, threads, shape) sweep: the predicted crossover batch where the
//                 AI reaches the DRAM ridge point (solved from the counting formula, and the first
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
#include "roofline/analysis/placement.hpp"
#include "roofline/common/units.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "roofline/analysis/model.hpp"
#include "roofline/analysis/results.hpp"
#include "roofline/analysis/roofline_section.hpp"

namespace roofline {
using nlohmann::json;

namespace {

constexpr double kKneeExponent = 0.5;

struct Point {
  std::string backend, precision, kernel, implementation;
  int threads = 0;
  long long batch = 0, m = 0, k = 0;
  double ai = 0.0, a_bytes = 0.0, b_bytes = 0.0, c_bytes = 0.0;
  std::vector<double> values, latencies;
};

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 == 1 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

template <class T>
T label(const json& labels, const char* key, T fallback) {
  if (!labels.contains(key)) return fallback;
  const json& v = labels[key];
  if constexpr (std::is_same_v<T, std::string>) {
    return v.is_string() ? v.get<std::string>() : v.dump();
  } else {
    if (v.is_number()) return v.get<T>();
    if (v.is_string()) {
      try {
        return static_cast<T>(std::stod(v.get<std::string>()));
      } catch (const std::exception&) {
        return fallback;
      }
    }
    return fallback;
  }
}

std::string unit_of(const std::string& precision) { return precision == "int8" ? "OP/s" : "FLOP/s"; }

// Collects the gemm suite's repetitions into points; counts the failed ones.
std::vector<Point> collect_points(const json& results, int& failed) {
  std::map<std::tuple<std::string, std::string, int, long long, long long, long long>, Point> points;
  failed = 0;
  // benchmark_entries leaves failed entries out: count them here, to say so.
  if (results.contains("benchmarks") && results["benchmarks"].is_array()) {
    for (const json& e : results["benchmarks"]) {
      if (e.is_object() && e.value("error_occurred", false) && e.contains("labels") && e["labels"].is_object() &&
          e["labels"].value("suite", std::string()) == "gemm") {
        ++failed;
      }
    }
  }
  for (const json& e : benchmark_entries(results, "gemm")) {
    const json labels = e.value("labels", json::object());
    Point p;
    p.backend = label<std::string>(labels, "backend", "?");
    p.precision = label<std::string>(labels, "precision", "?");
    p.threads = label<int>(labels, "threads", 0);
    p.batch = label<long long>(labels, "batch", label<long long>(labels, "n", 0));
    p.m = label<long long>(labels, "m", 0);
    p.k = label<long long>(labels, "k", 0);
    const std::string value_counter = p.precision == "int8" ? "op_per_second" : "flop_per_second";
    const double value = counter(e, value_counter, counter(e, "flop_per_second"));
    const double ai = counter(e, "arithmetic_intensity");
    if (p.batch <= 0 || value <= 0.0 || ai <= 0.0) continue;
    auto key = std::make_tuple(p.backend, p.precision, p.threads, p.batch, p.m, p.k);
    Point& slot = points.try_emplace(key, p).first->second;
    slot.kernel = label<std::string>(labels, "kernel", p.batch == 1 ? "gemv" : "gemm");
    slot.implementation = label<std::string>(labels, "implementation", "");
    slot.ai = ai;
    slot.a_bytes = label<double>(labels, "a_bytes", 0.0);
    slot.b_bytes = label<double>(labels, "b_bytes", 0.0);
    slot.c_bytes = label<double>(labels, "c_bytes", 0.0);
    slot.values.push_back(value);
    const double latency = counter(e, "latency_seconds");
    if (latency > 0.0) slot.latencies.push_back(latency);
  }
  std::vector<Point> out;
  for (auto& [key, p] : points) out.push_back(std::move(p));
  return out;
}

json place(const Point& p, const json& section, json& notes) {
  const double value = median(p.values);
  json j = {{"kernel", p.kernel},
            {"backend", p.backend},
            {"precision", p.precision},
            {"batch", p.batch},
            {"threads", p.threads},
            {"m", p.m},
            {"k", p.k},
            {"n", p.batch},
            {"ai", p.ai},
            {"value", value},
            {"value_max", *std::max_element(p.values.begin(), p.values.end())},
            {"repetitions", p.values.size()},
            {"unit", unit_of(p.precision)},
            {"latency_seconds", median(p.latencies)},
            {"implementation", p.implementation}};
  const json* peak = compute_roof(section, p.precision, p.threads);
  const double peak_value = peak ? peak->value("value", 0.0) : 0.0;
  if (peak_value <= 0.0) {
    notes.push_back(fmt::format("No {} compute ceiling at {} thread(s): GEMM points of that precision are placed "
                                "against the memory roofs only, without a bound (run the compute suite).",
                                p.precision, p.threads));
  } else {
    j["compute_ceiling"] = peak_value;
  }
  json roofs = json::array();
  for (const char* level : {"L1", "L2", "L3", "DRAM"}) {
    const json* roof = memory_roof(section, level, p.threads);
    const double bw = roof ? roof->value("value", 0.0) : 0.0;
    if (bw <= 0.0) continue;
    json r = {{"level", level}, {"bandwidth", bw}, {"kernel", roof->value("kernel", "")}};
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
    if (std::string(level) == "DRAM") {
      j["memory_ceiling"] = bw;
      j["attainable"] = r["attainable"];
      j["efficiency"] = r["efficiency"];
      if (r.contains("bound")) {
        j["bound"] = r["bound"];
        j["ridge_ai"] = r["ridge_ai"];
      }
    }
    roofs.push_back(std::move(r));
  }
  j["roofs"] = std::move(roofs);
  // Where the operands live: the smallest level whose measured range (where the bandwidth curve leaves it)
  // holds all of A, B and C. A point whose operands fit a cache is not DRAM-bound, and may beat the DRAM
  // roof: that is the cache at work, said here rather than hidden.
  // a_bytes/b_bytes/c_bytes are element sizes: A is MxK, B is KxN, C is MxN.
  const double m = static_cast<double>(p.m), k = static_cast<double>(p.k), n = static_cast<double>(p.batch);
  const double operands = m * k * p.a_bytes + k * n * p.b_bytes + m * n * p.c_bytes;
  if (operands > 0.0) {
    j["operand_bytes"] = operands;
    j["resident_level"] = "DRAM";
    for (const char* level : {"L1", "L2", "L3"}) {
      double leaves_at = 0.0;
      for (const json& l : section.value("memory_levels", json::array())) {
        if (l.value("level", "") == level && l.value("threads", 0) == p.threads && l.contains("inferred_bytes") &&
            l["inferred_bytes"].is_number()) {
          leaves_at = l["inferred_bytes"].get<double>();
        }
      }
      if (leaves_at > 0.0 && operands <= leaves_at) {
        j["resident_level"] = level;
        // Only where memory is the limit does the level matter to the reader.
        if (j.value("bound", "memory") != "memory") break;
        notes.push_back(fmt::format(
            "{} {} batch {} at {} thread(s): its operands ({}) fit the {} range the bandwidth curve measured (up to "
            "{}), so it is not DRAM-bound; compare it with the {} roof in 'roofs'.",
            p.backend, p.precision, p.batch, p.threads, format_bytes(operands), level, format_bytes(leaves_at), level));
        break;
      }
    }
  }
  if (!j.contains("memory_ceiling")) {
    notes.push_back(fmt::format("No DRAM roof at {} thread(s): GEMM points are placed against the compute ceiling "
                                "only (run the bandwidth suite).",
                                p.threads));
    if (peak_value > 0.0) {
      j["attainable"] = peak_value;
      j["efficiency"] = value / peak_value;
    }
  }
  return j;
}

// Predicted vs measured crossover of one sweep (points of one backend/precision/threads/shape, sorted
// by batch).
json crossover(const std::vector<const Point*>& sweep, const std::vector<const json*>& placed) {
  const Point& first = *sweep.front();
  json c = {{"backend", first.backend},
            {"precision", first.precision},
            {"threads", first.threads},
            {"m", first.m},
            {"k", first.k},
            {"batches", json::array()},
            {"ridge_ai", nullptr},
            {"predicted_batch", nullptr},
            {"predicted_first_batch", nullptr},
            {"knee_batch", nullptr},
            {"knee_first_batch", nullptr}};
  for (const Point* p : sweep) c["batches"].push_back(p->batch);
  // Prediction: from the DRAM ridge of this precision and thread count.
  if (placed.front()->contains("ridge_ai")) {
    const double ridge = (*placed.front())["ridge_ai"].get<double>();
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

json derive_placements(const json& results, const json& section) {
  json out = {{"placements", json::array()},
              {"crossovers", json::array()},
              {"best_backends", json::array()},
              {"notes", json::array()}};
  int failed = 0;
  const std::vector<Point> points = collect_points(results, failed);
  if (failed > 0) {
    out["notes"].push_back(fmt::format("{} GEMM measurement(s) failed (validation or setup) and are not placed.", failed));
  }
  if (points.empty()) return out;

  json notes = json::array();
  std::vector<json> placed;
  for (const Point& p : points) placed.push_back(place(p, section, notes));
  for (const json& n : notes) {
    if (std::find(out["notes"].begin(), out["notes"].end(), n) == out["notes"].end()) out["notes"].push_back(n);
  }
  out["notes"].push_back("GEMM placement values are the median of the repetitions (value_max the best); ceilings are "
                         "the best repetition.");
  out["notes"].push_back(fmt::format(
      "Crossovers: predicted_batch solves AI(N) = DRAM ridge from the counting formula (predicted_first_batch: the "
      "first measured batch at or past it); the measured knee is the first batch after which attained FLOP/s never "
      "again grows as fast as N^{} (knee_first_batch), estimated as the batch before it x max attained / attained "
      "there (knee_batch).",
      kKneeExponent));

  // Sweeps: points are ordered by (backend, precision, threads, batch, m, k); group by all but batch.
  std::map<std::tuple<std::string, std::string, int, long long, long long>, std::vector<std::size_t>> sweeps;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Point& p = points[i];
    sweeps[{p.backend, p.precision, p.threads, p.m, p.k}].push_back(i);
  }
  for (auto& [key, idx] : sweeps) {
    std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return points[a].batch < points[b].batch; });
    std::vector<const Point*> sweep;
    std::vector<const json*> sweep_placed;
    for (std::size_t i : idx) {
      sweep.push_back(&points[i]);
      sweep_placed.push_back(&placed[i]);
    }
    out["crossovers"].push_back(crossover(sweep, sweep_placed));
  }

  // Best backend per precision, batch and thread count.
  std::map<std::tuple<std::string, long long, int>, const json*> best;
  for (const json& p : placed) {
    auto key = std::make_tuple(p["precision"].get<std::string>(), p["batch"].get<long long>(), p["threads"].get<int>());
    auto [it, inserted] = best.try_emplace(key, &p);
    if (!inserted && p["value"].get<double>() > (*it->second)["value"].get<double>()) it->second = &p;
  }
  for (const auto& [key, p] : best) {
    json b = {{"precision", std::get<0>(key)}, {"batch", std::get<1>(key)}, {"threads", std::get<2>(key)},
              {"backend", (*p)["backend"]},    {"value", (*p)["value"]},     {"unit", (*p)["unit"]},
              {"m", (*p)["m"]},                {"k", (*p)["k"]}};
    for (const char* f : {"efficiency", "bound", "attainable"}) {
      if (p->contains(f)) b[f] = (*p)[f];
    }
    out["best_backends"].push_back(std::move(b));
  }

  // Placements in a reading order: backend, precision, threads, batch.
  std::sort(placed.begin(), placed.end(), [](const json& a, const json& b) {
    return std::make_tuple(a["backend"].get<std::string>(), a["precision"].get<std::string>(), a["threads"].get<int>(),
                           a["batch"].get<long long>()) < std::make_tuple(b["backend"].get<std::string>(),
                                                                           b["precision"].get<std::string>(),
                                                                           b["threads"].get<int>(), b["batch"].get<long long>());
  });
  for (json& p : placed) out["placements"].push_back(std::move(p));
  return out;
}

}  // namespace roofline
