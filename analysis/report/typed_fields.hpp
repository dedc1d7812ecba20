// How the report reads one field of a typed record (results_document.hpp) for a cell or a sum: the typed member,
// else what the file wrote there in another kind or as null (the lenient reader keeps it in the record's `extra`),
// so that a cell reads exactly as it did when the report read the file's JSON. Private to roofline::report.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace roofline::report_detail {

// The text of one JSON value in a cell: strings as they are, integers as integers, other numbers in %g, flags
// as yes/no; `fallback` for anything else (null, arrays, objects).
std::string value_text(const nlohmann::json& v, const std::string& fallback);

// A member of a record, its record and its name: `cell(ROOFLINE_FIELD(r, threads))`.
#define ROOFLINE_FIELD(record, member) (record).member, (record), #member

// The text of a field (see value_text); a number member the file wrote as an integer stays an integer.
template <class T, class R>
std::string cell(const std::optional<T>& member, const R& record, const char* key, const std::string& fallback = "") {
  if (!member) {
    const auto it = record.extra.find(key);
    return it == record.extra.end() ? fallback : value_text(*it, fallback);
  }
  if constexpr (std::is_same_v<T, std::string>) {
    return *member;
  } else if constexpr (std::is_same_v<T, bool>) {
    return *member ? "yes" : "no";
  } else if constexpr (std::is_same_v<T, long long>) {
    return fmt::format("{}", *member);
  } else {
    static_assert(std::is_same_v<T, double>);
    return record.integer_numbers.count(key) > 0 ? fmt::format("{}", static_cast<long long>(*member))
                                                 : fmt::format("{:g}", *member);
  }
}

// A number field, or `fallback` when absent or not a number.
template <class T, class R>
double amount(const std::optional<T>& member, const R& record, const char* key, double fallback = 0.0) {
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
    if (member) return static_cast<double>(*member);
  }
  const auto it = record.extra.find(key);
  return it != record.extra.end() && it->is_number() ? it->template get<double>() : fallback;
}

// Whether the file wrote the field at all (a null too: the lenient reader keeps it in `extra`).
template <class T, class R>
bool written(const std::optional<T>& member, const R& record, const char* key) {
  return member.has_value() || record.extra.contains(key);
}

// The records of an optional array of the model, or none.
template <class R>
const std::vector<R>& records_of(const std::optional<std::vector<R>>& records) {
  static const std::vector<R> kNone;
  return records ? *records : kNone;
}

}  // namespace roofline::report_detail
