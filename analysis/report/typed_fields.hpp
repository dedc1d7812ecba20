// How the report writes one field of a typed record (results_document.hpp) in a cell: the typed member, else what
// the file wrote there in another kind or as null (the lenient reader keeps it in the record's `extra`), so that a
// cell reads exactly as it did when the report read the file's JSON. The numbers, presence and lists are the
// model's readers (roofline/model/record_fields.hpp). Private to roofline::report.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofline/model/record_fields.hpp"

namespace roofline::report_detail {

// The text of one JSON value in a cell: strings as they are, integers as integers, other numbers in %g, flags
// as yes/no; `fallback` for anything else (null, arrays, objects).
std::string value_text(const nlohmann::json& v, const std::string& fallback);

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

// The model's field readers (record_fields.hpp), which the report's cells share.
using fields::amount;
using fields::records_of;
using fields::whole;
using fields::words;
using fields::written;

}  // namespace roofline::report_detail
