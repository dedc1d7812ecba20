// How the report's tables write one value in a cell: shared by report_tables.cpp, report_machine.cpp and
// generic_table.cpp. A missing or non-positive figure reads "n/a". Private to roofline::report.
#pragma once

#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofline/common/units.hpp"

namespace roofline::report_detail {

// parent[key] when it is an object, else an empty object.
inline const nlohmann::json& object_at(const nlohmann::json& parent, const char* key) {
  static const nlohmann::json kEmpty = nlohmann::json::object();
  if (!parent.is_object() || !parent.contains(key) || !parent[key].is_object()) return kEmpty;
  return parent[key];
}

inline std::string percent(double ratio) { return ratio > 0 ? fmt::format("{:.1f} %", ratio * 100.0) : "n/a"; }
inline std::string rate_or_na(double v, const std::string& unit) { return v > 0 ? format_si(v, unit) : "n/a"; }

// A duration in s, ms, us or ns (3 significant digits).
std::string seconds(double s);

// One value of a table whose columns are not fixed, formatted by its key (generic_table: …_bytes as sizes, …_hz as
// clocks, value/attainable with the row's unit, efficiency and percent as %); arrays joined by ", ".
std::string format_by_key(const std::string& key, const nlohmann::json& v, const nlohmann::json& row);

}  // namespace roofline::report_detail
