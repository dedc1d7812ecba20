// Whether a result's notes say something: the notes of a derived section (a JSON array of strings) or of
// a level labelling (strings).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace roofline::testing {

inline bool any_note_has(const std::vector<std::string>& notes, std::string_view text) {
  for (const std::string& n : notes) {
    if (n.find(text) != std::string::npos) return true;
  }
  return false;
}

inline bool any_note_has(const nlohmann::json& notes, std::string_view text) {
  for (const nlohmann::json& n : notes) {
    if (n.get<std::string>().find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace roofline::testing
