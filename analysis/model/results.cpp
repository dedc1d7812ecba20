// Loading and validating results files: see results.hpp.
#include "roofline/model/results.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "roofline/model/results_schema.hpp"
#include "roofline/common/errors.hpp"

namespace roofline {
namespace fs = std::filesystem;
using nlohmann::json;

json load_json_file(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw InputError(fmt::format("{}: no such file", path.string()));
  if (fs::is_directory(path, ec)) throw InputError(fmt::format("{}: is a folder, not a file", path.string()));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot be read", path.string()));
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw InputError(fmt::format("{}: file is empty", path.string()));
  }
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    const bool truncated = e.byte >= text.size();
    throw InputError(fmt::format("{}: {} (at byte {})", path.string(),
                                 truncated ? "truncated JSON" : "not valid JSON", e.byte));
  } catch (const json::out_of_range& e) {
    // A number too large for a double (1e999): valid JSON syntax, but no value anyone measured.
    throw InputError(fmt::format("{}: a number in it is out of range ({})", path.string(), e.what()));
  }
}

void check_schema_version(const json& holder, const std::string& key, const std::string& path, const std::string& what,
                          int supported, const std::string& file) {
  if (!holder.contains(key) || !holder[key].is_number_integer()) {
    throw InputError(fmt::format("{}: '{}' is missing or not an integer", file, path));
  }
  const int version = holder[key].get<int>();
  if (version != supported) {
    throw InputError(fmt::format("{}: {} {} is not supported (this roofline reads version {})", file, what, version,
                                 supported));
  }
}

ResultsKind classify_results(const json& doc, const fs::path& path) {
  const std::string name = path.string();
  if (!doc.is_object()) throw InputError(fmt::format("{}: not a results file (top level is not an object)", name));
  if (!doc.contains("benchmarks") || !doc["benchmarks"].is_array()) {
    throw InputError(fmt::format("{}: not a results file (no 'benchmarks' array)", name));
  }
  if (!doc.contains("context") || !doc["context"].is_object()) {
    throw InputError(fmt::format("{}: not a results file (no 'context' object)", name));
  }
  check_input_fields(doc, name);
  const json& ctx = doc["context"];
  const bool ours = ctx.contains("schema_version") || doc.contains("roofline");
  if (!ours) return ResultsKind::google_benchmark;
  check_schema_version(ctx, "schema_version", "context.schema_version", "schema version", kSchemaVersion, name);
  if (!doc.contains("roofline") || !doc["roofline"].is_object()) {
    throw InputError(fmt::format("{}: the 'roofline' section is missing", name));
  }
  const json& r = doc["roofline"];
  if (!r.contains("schema_version") || r["schema_version"] != kSchemaVersion) {
    throw InputError(fmt::format("{}: 'roofline.schema_version' must be {}", name, kSchemaVersion));
  }
  for (const char* key : {"compute_ceilings", "memory_ceilings", "ridge_points", "placements"}) {
    if (!r.contains(key) || !r[key].is_array()) {
      throw InputError(fmt::format("{}: 'roofline.{}' is missing or not an array", name, key));
    }
  }
  check_roofline_fields(r, name);
  return ResultsKind::roofline;
}

json load_results(const fs::path& path) {
  json doc = load_json_file(path);
  if (classify_results(doc, path) != ResultsKind::roofline) {
    throw InputError(fmt::format("{}: plain Google Benchmark JSON, not a roofline results file", path.string()));
  }
  return doc;
}

std::vector<json> benchmark_entries(const json& doc, const std::string& suite, const std::string& aggregate) {
  std::vector<json> out;
  if (!doc.contains("benchmarks") || !doc["benchmarks"].is_array()) return out;
  for (const json& e : doc["benchmarks"]) {
    if (!e.is_object()) continue;
    const std::string run_type = e.value("run_type", std::string("iteration"));
    if (aggregate.empty()) {
      if (run_type != "iteration") continue;
    } else if (run_type != "aggregate" || e.value("aggregate_name", std::string()) != aggregate) {
      continue;
    }
    if (!suite.empty()) {
      if (!e.contains("labels") || !e["labels"].is_object() || e["labels"].value("suite", std::string()) != suite) {
        continue;
      }
    }
    if (e.value("error_occurred", false)) continue;
    out.push_back(e);
  }
  return out;
}

double counter(const json& entry, const std::string& name, double fallback) {
  if (!entry.contains(name) || !entry[name].is_number()) return fallback;
  return entry[name].get<double>();
}

}  // namespace roofline
