// The catalogue of every field a results file may hold (results/fields.txt, embedded at build time): its path
// (`[]` an array's elements, `*` any key of a map keyed by data) and its kind. The reader accepts fields it
// does not know (a newer build's file still reads), but a field that `run` writes and the catalogue lacks is a
// defect: the end-to-end tests check every file the commands write against it, so the next field a writer adds
// without teaching the reader fails a test (issue 45). scripts/results-fields lists a file's fields in the
// catalogue's format. Each line also says what the field means (issue 61).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace roofline {

// One line per field of `doc` that the catalogue does not know ("<path>: not in results/fields.txt") or
// whose value is of another kind ("<path>: is <kind>, the catalogue says <kind>"), each path once (array
// indices as `[]`, data keys as `*`), at most `limit` lines. Empty: the reader knows the whole file.
std::vector<std::string> unknown_fields(const nlohmann::json& doc, std::size_t limit = 50);

// The number of field paths in the catalogue (a test's sanity check that it was embedded).
std::size_t known_field_count();

// One catalogue line: the field's path, its kind and its meaning (with its unit), the rest of the line; the
// typed records' field lists are generated from these lines (cmake/RooflineRecordFields.cmake, issue 61).
struct CatalogueField {
  std::string path, kind, meaning;
};
// Every catalogue line, in the catalogue's order.
const std::vector<CatalogueField>& catalogue_fields();

}  // namespace roofline
