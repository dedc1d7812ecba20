// How the report's tables write one value in a cell: shared by report_tables.cpp, report_machine.cpp and
// generic_table.cpp; and the readers of the parts of a results file the typed model still keeps as JSON (the
// roofline section's untyped arrays in its `extra`: dequant_table, crossovers, best_backends,
// roof_violations, conventions, matrix_engine; a target's details). A missing or non-positive figure reads "n/a".
// Private to roofline::report.
#pragma once

#include <cstddef>
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

// A number field of a JSON object, or `fallback`.
double num(const nlohmann::json& obj, const char* key, double fallback = 0.0);
// A field of a JSON object as a cell's text (value_text, typed_fields.hpp), or `fallback`.
std::string str(const nlohmann::json& obj, const char* key, const std::string& fallback = "");
// A JSON row's unit: its "unit", else its precision's (rate_unit).
std::string rate_unit_of_row(const nlohmann::json& row);

// Removes column `c` (its name, alignment and every row's cell): a column the rows have nothing for.
template <class Table>
void drop_column(Table& t, std::size_t c) {
  const auto erase = [c](auto& v) {
    if (c < v.size()) v.erase(v.begin() + static_cast<std::ptrdiff_t>(c));
  };
  erase(t.columns);
  erase(t.right_aligned);
  for (auto& row : t.rows) erase(row);
}

inline std::string percent(double ratio) { return ratio > 0 ? fmt::format("{:.1f} %", ratio * 100.0) : "n/a"; }
inline std::string rate_or_na(double v, const std::string& unit) { return v > 0 ? format_si(v, unit) : "n/a"; }

// A duration in s, ms, us or ns (3 significant digits).
std::string seconds(double s);

// One value of a table whose columns are not fixed, formatted by its key (generic_table: …_bytes as sizes, …_hz as
// clocks, value/attainable with the row's unit, efficiency and percent as %); arrays joined by ", ".
std::string format_by_key(const std::string& key, const nlohmann::json& v, const nlohmann::json& row);

}  // namespace roofline::report_detail
