// Reading a results file into the typed records (results_document.hpp): the schema's validation, then the
// records' typed read (roofline::records, issue 61).
#include "roofline/model/results_document.hpp"

#include <fmt/format.h>

#include "roofline/model/results.hpp"
#include "roofline/common/errors.hpp"

namespace roofline {

ResultsDocument read_results(const nlohmann::json& doc, const std::string& file, ReadMode mode) {
  const bool ours = classify_results(doc, file) == ResultsKind::roofline;
  return read_records(doc, file, mode, ours);
}

ResultsDocument load_results_document(const std::filesystem::path& path, ReadMode mode) {
  ResultsDocument doc = read_results(load_json_file(path), path.string(), mode);
  if (!doc.roofline) {
    throw InputError(fmt::format("{}: plain Google Benchmark JSON, not a roofline results file", path.string()));
  }
  return doc;
}

}  // namespace roofline
