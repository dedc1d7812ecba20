// Reading optional fields of a results file's context in regress/ (identity.cpp, compare_gate.cpp): an
// absent or mistyped field reads as empty, so that a fact one run did not record is no evidence.
#pragma once

#include <nlohmann/json.hpp>

namespace roofline::regress_detail {

// parent[key] when it is an object, else an empty object.
inline const nlohmann::json& object_at(const nlohmann::json& parent, const char* key) {
  static const nlohmann::json empty = nlohmann::json::object();
  return parent.is_object() && parent.contains(key) && parent[key].is_object() ? parent[key] : empty;
}

// parent[key] when it is a number, else 0.
inline double number_at(const nlohmann::json& parent, const char* key) {
  return parent.is_object() && parent.contains(key) && parent[key].is_number() ? parent[key].get<double>() : 0.0;
}

}  // namespace roofline::regress_detail
