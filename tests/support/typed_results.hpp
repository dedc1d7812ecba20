// Hand-made and recorded results files as the typed model reads them (read_results, lenient: what every command
// reads), for the tests of the functions that take the typed model (issue 47): a test edits the JSON, then reads it.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "roofline/model/results_document.hpp"
#include "roofline/model/compute_ceilings.hpp"
#include "roofline/model/results_targets.hpp"
#include "roofline/model/memory_ceilings.hpp"
#include "roofline/model/placement.hpp"
#include "roofline/model/roofline_section.hpp"
#include "roofline/common/schema_version.hpp"

namespace roofline::testing {

inline ResultsDocument typed(const nlohmann::json& doc, const std::string& file = "test.json") {
  return read_results(doc, file);
}

// A hand-made fragment of a roofline results file (a context, some benchmarks, some roofline arrays) completed to
// the smallest file the reader takes: the schema versions, and the arrays every file has, empty where absent.
inline ResultsDocument typed_fragment(nlohmann::json doc) {
  if (!doc.contains("context")) doc["context"] = nlohmann::json::object();
  if (!doc.contains("benchmarks")) doc["benchmarks"] = nlohmann::json::array();
  doc["context"]["schema_version"] = kSchemaVersion;
  nlohmann::json& section = doc["roofline"];
  section["schema_version"] = kSchemaVersion;
  for (const char* key : {"compute_ceilings", "memory_ceilings", "ridge_points", "placements"}) {
    if (!section.contains(key)) section[key] = nlohmann::json::array();
  }
  return read_results(doc, "test.json");
}

// A hand-made document as the derivations take it, at the test's edge (issue 61): the lenient typed read without
// the schema's check, so that a fragment without a context, benchmarks or a roofline section derives as it did.
inline ResultsDocument lenient(const nlohmann::json& results) {
  using nlohmann::json;
  const auto part = [&](const char* key, bool (json::*kind)() const noexcept, json fallback) {
    if (!results.is_object() || !results.contains(key) || !(results[key].*kind)()) return fallback;
    return results[key];
  };
  json doc = {{"context", part("context", &json::is_object, json::object())},
              {"benchmarks", part("benchmarks", &json::is_array, json::array())}};
  const bool section = results.is_object() && results.contains("roofline") && results["roofline"].is_object();
  if (section) doc["roofline"] = results["roofline"];
  return read_records(doc, "results", ReadMode::lenient, section);
}

// The roofline section a hand-made document derives, as the records' writer writes it.
inline nlohmann::json derived_section(const nlohmann::json& results) { return to_json(derive_roofline(lenient(results))); }

// The parts of the section a hand-made document's first target (the host CPU's) derives, as the writer writes them.
inline nlohmann::json derived_memory(const nlohmann::json& results) {
  const ResultsDocument doc = lenient(results);
  return to_json(derive_memory_ceilings(target_document(doc, kCpuTargetId), recorded_targets(doc).front()));
}
inline nlohmann::json derived_compute(const nlohmann::json& results) {
  const ResultsDocument doc = lenient(results);
  return to_json(derive_compute_ceilings(target_document(doc, kCpuTargetId), recorded_targets(doc).front()));
}
// Its placements on a hand-made section (read as the lenient reader reads a file's).
inline nlohmann::json derived_placements(const nlohmann::json& results, const nlohmann::json& section) {
  const ResultsDocument doc = lenient(results);
  return to_json(derive_placements(target_document(doc, kCpuTargetId), recorded_targets(doc).front(),
                                   read_roofline_section(section, "test.json")));
}
// The ridge points of a hand-made section, as the writer writes them.
inline nlohmann::json derived_ridge_points(const nlohmann::json& section) {
  RooflineSection ridges;
  ridges.ridge_points = derive_ridge_points(read_roofline_section(section, "test.json"));
  return to_json(ridges)["ridge_points"];
}

}  // namespace roofline::testing
