// CSV of the benchmark entries for spreadsheets and pandas: one row per entry (repetitions and
// aggregates), fixed leading columns, then every label and every numeric counter seen in the file. Every field
// an entry holds is a column, typed or not: each entry is read through the model's writer of one entry
// (to_json(BenchmarkEntry), the fields as the file wrote them); the placements it is matched with are typed.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "report_roofs.hpp"
#include "roofline/report/report.hpp"
#include "typed_fields.hpp"

namespace roofline {
using nlohmann::json;
using namespace report_detail;

namespace {

// RFC 4180: quote fields with separators, quotes or line breaks; double the quotes inside.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_value(const json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return fmt::format("{}", v.get<long long>());
  if (v.is_number()) return fmt::format("{}", v.get<double>());  // shortest round-trip form
  return v.dump();
}

// A placement's field in a cell, as the file wrote it ("" when absent).
template <class T, class R>
std::string csv_cell(const std::optional<T>& member, const R& record, const char* key) {
  if (member) return record.integer_numbers.count(key) > 0 ? fmt::format("{}", static_cast<long long>(*member)) : fmt::format("{}", *member);
  const auto it = record.extra.find(key);
  return it == record.extra.end() ? "" : csv_value(*it);
}

using PointKey = std::tuple<std::string, std::string, long long, long long, long long, long long>;

}  // namespace

std::string render_csv(const ResultsDocument& results) {
  static const std::vector<std::string> kFixed{"name", "run_name", "run_type", "aggregate_name", "repetition_index",
                                               "threads", "iterations", "real_time", "cpu_time", "time_unit",
                                               "error_occurred", "error_message"};
  json benchmarks = json::array();
  for (const BenchmarkEntry& e : results.benchmarks) benchmarks.push_back(to_json(e));
  std::vector<std::string> labels, counters;
  std::set<std::string> seen_labels, seen_counters;
  for (const json& e : benchmarks) {
    if (!e.is_object()) continue;
    if (e.contains("labels") && e["labels"].is_object()) {
      for (auto it = e["labels"].begin(); it != e["labels"].end(); ++it) {
        if (seen_labels.insert(it.key()).second) labels.push_back(it.key());
      }
    }
    for (auto it = e.begin(); it != e.end(); ++it) {
      if (!it.value().is_number() || std::find(kFixed.begin(), kFixed.end(), it.key()) != kFixed.end()) continue;
      if (it.key() == "family_index" || it.key() == "per_family_instance_index" || it.key() == "repetitions") continue;
      if (seen_counters.insert(it.key()).second) counters.push_back(it.key());
    }
  }
  std::sort(counters.begin(), counters.end());
  // The roof of the moment (issue 33): where points were probed, each GEMV/GEMM row also says its probes
  // (from the entry) and its point's two fractions (from the placement: the median repetition's).
  bool roof_now = false;
  for (const json& e : benchmarks) roof_now = roof_now || (e.is_object() && e.contains("roof_now"));
  const std::vector<std::string> kRoofNow{"roof_now_before_bytes_per_second", "roof_now_after_bytes_per_second",
                                          "point_of_roof", "point_of_roof_now"};
  std::map<PointKey, const PlacementRecord*> points;
  if (roof_now) {
    for (const PlacementRecord& p : records_of(section_of(results).placements)) {
      points[{p.backend.value_or(""), p.precision.value_or(""), p.threads.value_or(0), p.batch.value_or(0), p.m.value_or(0),
              p.k.value_or(0)}] = &p;
    }
  }
  const auto roof_now_fields = [&](const json& e) {
    std::vector<std::string> out(kRoofNow.size());
    const json lab = e.value("labels", json::object());
    if (!lab.is_object() || lab.value("suite", "") != "gemm") return out;
    if (e.contains("roof_now") && e["roof_now"].is_object()) {
      const json& r = e["roof_now"];
      for (std::size_t i = 0; i < 2; ++i) {
        const char* side = i == 0 ? "before" : "after";
        if (r.contains(side) && r[side].is_object() && r[side].contains("bytes_per_second")) out[i] = csv_value(r[side]["bytes_per_second"]);
      }
    }
    const auto integer = [&](const char* k) { return lab.contains(k) && lab[k].is_number_integer() ? lab[k].get<long long>() : 0LL; };
    const auto it = points.find({lab.value("backend", ""), lab.value("precision", ""), integer("threads"), integer("batch"),
                                 integer("m"), integer("k")});
    if (it == points.end()) return out;
    const PlacementRecord& p = *it->second;
    out[2] = csv_cell(ROOFLINE_FIELD(p, efficiency));
    if (p.roof_now) out[3] = csv_cell(ROOFLINE_FIELD(*p.roof_now, efficiency));
    return out;
  };
  std::string s;
  std::vector<std::string> header = kFixed;
  for (const auto& l : labels) header.push_back("label_" + l);
  header.insert(header.end(), counters.begin(), counters.end());
  if (roof_now) header.insert(header.end(), kRoofNow.begin(), kRoofNow.end());
  // Appended piecewise: GCC 12 warns (-Wrestrict, a false positive) on `const char* + std::string` here.
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (i > 0) s += ',';
    s += csv_field(header[i]);
  }
  s += "\n";
  for (const json& e : benchmarks) {
    if (!e.is_object()) continue;
    std::vector<std::string> row;
    for (const auto& k : kFixed) row.push_back(e.contains(k) ? csv_value(e[k]) : "");
    const json lab = e.value("labels", json::object());
    for (const auto& l : labels) row.push_back(lab.is_object() && lab.contains(l) ? csv_value(lab[l]) : "");
    for (const auto& c : counters) row.push_back(e.contains(c) ? csv_value(e[c]) : "");
    if (roof_now) {
      for (std::string& f : roof_now_fields(e)) row.push_back(std::move(f));
    }
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i > 0) s += ',';
      s += csv_field(row[i]);
    }
    s += "\n";
  }
  return s;
}

}  // namespace roofline
