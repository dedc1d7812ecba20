// Reading results files. A results file is Google Benchmark JSON plus our machine facts in `context` and a
// `roofline` section (results/README.md documents the schema). Every reader goes through these functions,
// so that malformed, truncated or foreign files are rejected with one line naming the file and the problem.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/common/schema_version.hpp"  // kSchemaVersion

namespace roofline {

// Reads and parses a JSON file. Throws InputError: missing/unreadable file, empty, not JSON, truncated.
nlohmann::json load_json_file(const std::filesystem::path& path);

enum class ResultsKind {
  roofline,         // one of ours: context.schema_version and a roofline section
  google_benchmark  // plain Google Benchmark JSON (context + benchmarks) from any project
};

// Classifies a parsed file. Throws InputError naming `path` when it is neither kind, or is ours but of
// another schema version, or lacks required fields (context, benchmarks array, roofline section).
ResultsKind classify_results(const nlohmann::json& doc, const std::filesystem::path& path);

// Checks a file's schema version: `holder[key]` must be an integer equal to `supported`. Throws InputError
// "<file>: '<path>' is missing or not an integer" or "<file>: <what> <n> is not supported (this roofline
// reads version <supported>)"; `path` is where the key sits in the file, `what` the version's name.
void check_schema_version(const nlohmann::json& holder, const std::string& key, const std::string& path,
                          const std::string& what, int supported, const std::string& file);

// load_json_file + classify_results; requires a roofline results file (not plain Google Benchmark JSON).
nlohmann::json load_results(const std::filesystem::path& path);

// The entries of doc["benchmarks"] that are single repetitions (run_type "iteration") or, with
// `aggregate` non-empty, the aggregates of that name ("median", "max", ...), optionally only those whose
// labels.suite equals `suite` (empty: any suite).
std::vector<nlohmann::json> benchmark_entries(const nlohmann::json& doc, const std::string& suite,
                                              const std::string& aggregate = "");

// A counter of an entry, or `fallback` when absent or not a number.
double counter(const nlohmann::json& entry, const std::string& name, double fallback = 0.0);

}  // namespace roofline
