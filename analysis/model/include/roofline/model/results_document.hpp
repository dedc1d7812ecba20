// Reading a results file into the typed results model (roofline::records' results_document.hpp, issue 61): the
// schema's validation (results.hpp's classify_results) first, then the typed read. The records, their typed reader
// and their one writer are the library below bench and analysis; what validates a file is still the model's.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "roofline/records/results_document.hpp"

namespace roofline {

// The one reader: classify_results (the schema's validation; plain Google Benchmark JSON reads too, without a
// roofline section), then read_records (in strict mode the catalogue, then the typed read). Throws InputError
// "<file>: <path> ..." naming the first bad field, e.g. "run.json: benchmarks[3].labels.flavour is not a field of
// the results model" (strict), or "run.json: roofline.placements[0].kernel is not a string".
ResultsDocument read_results(const nlohmann::json& doc, const std::string& file,
                             ReadMode mode = ReadMode::lenient);

// load_json_file + read_results, requiring a roofline results file (not plain Google Benchmark JSON): what a
// command that takes one results file reads it with; the same errors as load_results.
ResultsDocument load_results_document(const std::filesystem::path& path, ReadMode mode = ReadMode::lenient);

}  // namespace roofline
