// How a reader takes one field of a typed record (results_document.hpp) as a number, a flag of presence or a list
// (issue 47): the typed member, else what the file wrote there in another kind or as null, which the lenient reader
// keeps in the record's `extra`, so that a typed reader reads exactly what a reader of the file's JSON read. The
// model's readers of a file's targets (results_targets.hpp) read through these, and so do the report's cells (its typed_fields.hpp).
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace roofline::fields {

// A member of a record, its record and its name: `fields::amount(ROOFLINE_FIELD(r, size_bytes))`.
#define ROOFLINE_FIELD(record, member) (record).member, (record), #member

// A number field, or `fallback` when absent or not a number.
template <class T, class R>
double amount(const std::optional<T>& member, const R& record, const char* key, double fallback = 0.0) {
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
    if (member) return static_cast<double>(*member);
  }
  const auto it = record.extra.find(key);
  return it != record.extra.end() && it->is_number() ? it->template get<double>() : fallback;
}

// An integer field: the member, else a number the file wrote in another kind (truncated, as a JSON reader took it).
template <class R>
std::optional<long long> whole(const std::optional<long long>& member, const R& record, const char* key) {
  if (member) return member;
  const auto it = record.extra.find(key);
  if (it == record.extra.end() || !it->is_number()) return std::nullopt;
  return static_cast<long long>(it->template get<double>());
}

// A list of words: the member, else the strings of an array the file wrote in another kind.
template <class R>
std::vector<std::string> words(const std::optional<std::vector<std::string>>& member, const R& record, const char* key) {
  if (member) return *member;
  std::vector<std::string> out;
  const auto it = record.extra.find(key);
  if (it == record.extra.end() || !it->is_array()) return out;
  for (const nlohmann::json& n : *it) {
    if (n.is_string()) out.push_back(n.get<std::string>());
  }
  return out;
}

// Whether the file wrote the field at all (a null too: the lenient reader keeps it in `extra`).
template <class T, class R>
bool written(const std::optional<T>& member, const R& record, const char* key) {
  return member.has_value() || record.extra.contains(key);
}

// Sets a field of a record the model builds; given none, the field is written as the explicit null a derived row
// states where it has no value (kept in `extra`, where the reader keeps a null): `set(ROOFLINE_FIELD(row, percent), p)`.
template <class T, class R>
void set(std::optional<T>& member, R& record, const char* key, std::optional<std::type_identity_t<T>> value) {
  member = std::move(value);
  if (member) record.extra.erase(std::string(key));
  else record.extra[key] = nullptr;
}

// parent[key] when it is an object, else an empty object: a section the records keep as JSON (`extra`) read by key.
inline const nlohmann::json& object_or_empty(const nlohmann::json& parent, const char* key) {
  static const nlohmann::json kEmpty = nlohmann::json::object();
  return parent.is_object() && parent.contains(key) && parent[key].is_object() ? parent[key] : kEmpty;
}

// The records of an optional array of the model, or none.
template <class R>
const std::vector<R>& records_of(const std::optional<std::vector<R>>& records) {
  static const std::vector<R> kNone;
  return records ? *records : kNone;
}

}  // namespace roofline::fields
