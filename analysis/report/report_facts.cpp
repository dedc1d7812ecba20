// Shared readers for the report renderers: see report_facts.hpp.
#include "roofline/analysis/report_facts.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "roofline/analysis/results.hpp"
#include "roofline/analysis/results_view.hpp"

namespace roofline {
using nlohmann::json;

const json& roofline_of(const json& results) {
  static const json kEmpty = json::object();
  if (!results.is_object() || !results.contains("roofline") || !results["roofline"].is_object()) return kEmpty;
  return results["roofline"];
}

const json& roofline_array(const json& results, const std::string& key) {
  static const json kEmpty = json::array();
  const json& r = roofline_of(results);
  if (!r.contains(key) || !r[key].is_array()) return kEmpty;
  return r[key];
}

double num(const json& obj, const char* key, double fallback) {
  if (!obj.is_object() || !obj.contains(key) || !obj[key].is_number()) return fallback;
  return obj[key].get<double>();
}

std::string str(const json& obj, const char* key, const std::string& fallback) {
  if (!obj.is_object() || !obj.contains(key)) return fallback;
  const json& v = obj[key];
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return fmt::format("{}", v.get<long long>());
  if (v.is_number()) return fmt::format("{:g}", v.get<double>());
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  return fallback;
}

int report_threads(const json& results) {
  int best = 0;
  for (const char* key : {"compute_ceilings", "memory_ceilings", "placements"}) {
    for (const json& c : roofline_array(results, key)) best = std::max(best, static_cast<int>(num(c, "threads")));
  }
  return best;
}

double measured_clock_hz(const json& results) {
  for (const json& c : roofline_array(results, "compute_ceilings")) {
    if (num(c, "clock_hz") > 0) return num(c, "clock_hz");
  }
  double best = 0.0;
  for (const char* aggregate : {"max", "median", ""}) {
    for (const json& e : benchmark_entries(results, "clock", aggregate)) best = std::max(best, counter(e, "clock_hz"));
    if (best > 0) return best;
  }
  return ResultsView(results).host().measured_clock_hz;
}

std::string rate_unit(const std::string& precision) {
  return precision.rfind("int", 0) == 0 ? "OP/s" : "FLOP/s";
}

std::string rate_unit_of(const json& entry) {
  const std::string unit = str(entry, "unit");
  return unit.empty() ? rate_unit(str(entry, "precision")) : unit;
}

std::vector<std::string> report_precisions(const json& results) {
  static constexpr std::array<const char*, 5> kOrder{"fp64", "fp32", "bf16", "fp16", "int8"};
  std::vector<std::string> seen;
  for (const json& c : roofline_array(results, "compute_ceilings")) {
    const std::string p = str(c, "precision");
    if (!p.empty() && std::find(seen.begin(), seen.end(), p) == seen.end()) seen.push_back(p);
  }
  std::vector<std::string> out;
  for (const char* p : kOrder) {
    if (std::find(seen.begin(), seen.end(), p) != seen.end()) out.emplace_back(p);
  }
  for (const std::string& p : seen) {
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  }
  return out;
}

}  // namespace roofline
