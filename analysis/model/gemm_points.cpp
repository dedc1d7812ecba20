// A target's GEMV/GEMM points read from the gemm suite's entries: see gemm_points.hpp.
#include "gemm_points.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>
#include <type_traits>

#include "roofline/records/gemm_labels.hpp"
#include "roofline/model/record_fields.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/roofline_section.hpp"

namespace roofline::placement_detail {
using nlohmann::json;

namespace {

// A label the typed read could not take (another kind than its member's, kept in the labels' `extra`), read as a
// reader of the file's JSON read it: a word's other kinds as their JSON text, a number's numeric strings parsed.
template <class T>
T untyped_label(const json& labels, const char* key, T fallback) {
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

// A label of an entry's typed labels: the member, else what the file wrote there in another kind, else `fallback`.
// `label<int>(ROOFLINE_FIELD(labels, threads), 0)`.
template <class T, class M>
T label(const std::optional<M>& member, const EntryLabels& labels, const char* key, T fallback) {
  if (member) return static_cast<T>(*member);
  return untyped_label<T>(labels.extra, key, fallback);
}

}  // namespace

// Collects the gemm suite's repetitions into points; counts the failed ones.
std::vector<Point> collect_points(const ResultsDocument& results, int& failed) {
  std::map<std::tuple<std::string, std::string, std::string, int, long long, long long, long long>, Point> points;
  failed = 0;
  // benchmark_entries leaves failed entries out: count them here, to say so.
  for (const BenchmarkEntry& e : results.benchmarks) {
    if (e.error_occurred.value_or(false) && e.labels && e.labels->suite.value_or("") == "gemm") ++failed;
  }
  for (const BenchmarkEntry* entry : benchmark_entries(results, "gemm")) {
    const BenchmarkEntry& e = *entry;
    // The typed labels, read by the GEMM labels' one reader (roofline/records/gemm_labels.hpp) too.
    static const EntryLabels kNoLabels;
    const EntryLabels& labels = e.labels ? *e.labels : kNoLabels;
    Point p;
    p.backend = label<std::string>(ROOFLINE_FIELD(labels, backend), "?");
    p.precision = label<std::string>(ROOFLINE_FIELD(labels, precision), "?");
    p.engine_label = engine_field(labels, "benchmarks.labels");
    p.threads = label<int>(ROOFLINE_FIELD(labels, threads), 0);
    // Without a shape (hand-made files name only the batch) the point is placed on its AI alone, its operands' bytes
    // the entries' working_set_bytes where they give it, else unknown (main memory: placement.cpp).
    const GemmLabels gemm = read_gemm_labels(labels).value_or(
        GemmLabels{{0, label<long long>(ROOFLINE_FIELD(labels, batch), label<long long>(ROOFLINE_FIELD(labels, n), 0)), 0}, {}});
    p.batch = gemm.shape.n;
    p.m = gemm.shape.m;
    p.k = gemm.shape.k;
    const std::string value_counter = p.precision.rfind("int", 0) == 0 ? "op_per_second" : "flop_per_second";
    const double flops = fields::amount(ROOFLINE_FIELD(e, flop_per_second));
    const double value = value_counter == "op_per_second" ? fields::amount(ROOFLINE_FIELD(e, op_per_second), flops) : flops;
    const double ai = fields::amount(ROOFLINE_FIELD(e, arithmetic_intensity));
    if (p.batch <= 0 || value <= 0.0 || ai <= 0.0) continue;
    auto key = std::make_tuple(p.backend, p.precision, p.engine_label, p.threads, p.batch, p.m, p.k);
    Point& slot = points.try_emplace(key, p).first->second;
    slot.kernel = label<std::string>(ROOFLINE_FIELD(labels, kernel), p.batch == 1 ? "gemv" : "gemm");
    slot.implementation = label<std::string>(ROOFLINE_FIELD(labels, implementation), "");
    slot.ai = ai;
    slot.a_bytes = gemm.element.a;
    slot.b_bytes = gemm.element.b;
    slot.c_bytes = gemm.element.c;
    slot.working_set = fields::amount(ROOFLINE_FIELD(e, working_set_bytes));
    slot.values.push_back(value);
    if (!slot.roof_now) slot.roof_now = read_roof_now(e);
    const double latency = fields::amount(ROOFLINE_FIELD(e, latency_seconds));
    if (latency > 0.0) slot.latencies.push_back(latency);
  }
  std::vector<Point> out;
  for (auto& [key, p] : points) out.push_back(std::move(p));
  return out;
}


std::string engine_that_ran(const Point& p) {
  std::string impl = p.implementation;
  std::transform(impl.begin(), impl.end(), impl.begin(), [](unsigned char c) { return std::tolower(c); });
  return impl.find("amx") != std::string::npos ? "matrix" : p.engine_label;
}


}  // namespace roofline::placement_detail
