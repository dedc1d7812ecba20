// Reading and validating specs of advertised figures: see spec.hpp and analysis/specs/README.md.
#include "roofline/report/spec.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/model/results.hpp"
#include "roofline/common/units.hpp"

namespace roofline {
using nlohmann::json;

namespace {

constexpr std::array<std::string_view, 8> kPrecisions{"fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "int8", "int4"};
constexpr std::array<std::string_view, 11> kTopKeys{"name", "kind", "source", "covers", "clock", "memory_bandwidth",
                                                    "peaks", "applies_to", "notes", "$comment", "file"};

bool ends_with(std::string_view s, std::string_view suffix) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

[[noreturn]] void fail(const std::string& file, const std::string& what) {
  throw InputError(fmt::format("{}: {}", file, what));
}

std::string text_field(const json& doc, const char* key, const std::string& file, bool required) {
  if (!doc.contains(key)) {
    if (required) fail(file, fmt::format("'{}' is missing", key));
    return {};
  }
  if (!doc[key].is_string()) fail(file, fmt::format("'{}' must be a string", key));
  return doc[key].get<std::string>();
}

// A quantity given as a string with its unit; a bare number is refused so that "4.5" cannot silently mean
// 4.5 FLOP/s when TFLOP/s was meant.
double quantity_field(const json& value, const std::string& where, Quantity kind, const std::string& file) {
  if (!value.is_string()) {
    fail(file, fmt::format("'{}' must be a string with a unit, e.g. \"{}\"", where,
                           kind == Quantity::byte_rate ? "3.35 TB/s" : "67 TFLOP/s"));
  }
  const std::string text = value.get<std::string>();
  const bool has_unit = kind == Quantity::byte_rate ? (ends_with(text, "B/s") || ends_with(text, "Bps"))
                                                    : (ends_with(text, "/s") || ends_with(text, "PS"));
  if (!has_unit) {
    fail(file, fmt::format("'{}': '{}' has no known unit; expected {}", where, text,
                           kind == Quantity::byte_rate ? "B/s with a prefix, e.g. 3.35 TB/s"
                                                       : "FLOP/s, FLOPS, OP/s or TOPS with a prefix, e.g. 67 TFLOP/s"));
  }
  try {
    return parse_quantity(text, kind);
  } catch (const InputError& e) {
    fail(file, fmt::format("'{}': {}", where, e.what()));
  }
}

double clock_field(const json& value, const std::string& file) {
  if (!value.is_string() || !ends_with(value.get<std::string>(), "Hz")) {
    fail(file, "'clock' must be a string in Hz with a prefix, e.g. \"1.9 GHz\"");
  }
  std::string text = value.get<std::string>();
  while (!text.empty() && text.back() == ' ') text.pop_back();
  text.resize(text.size() - 2);  // drop "Hz"
  try {
    return parse_quantity(text, Quantity::plain);
  } catch (const InputError& e) {
    fail(file, fmt::format("'clock': {}", e.what()));
  }
}

// One row of 'peaks' ({"value": "67 TFLOP/s", "sparse": false, "isa": ..., "engine": ..., "note": ..., "clock": ...}).
SpecPeak parse_peak(const json& p, const std::string& precision, const std::string& file) {
  const std::string where = "peaks." + precision;
  if (!p.is_object()) fail(file, fmt::format("'{}' must be an object like {{\"value\": \"67 TFLOP/s\", \"sparse\": false}}", where));
  for (auto k = p.begin(); k != p.end(); ++k) {
    if (k.key() != "value" && k.key() != "sparse" && k.key() != "isa" && k.key() != "note" && k.key() != "clock" &&
        k.key() != "engine") {
      fail(file, fmt::format("unknown key '{}.{}' (allowed: value, sparse, isa, engine, note, clock)", where, k.key()));
    }
  }
  if (!p.contains("value")) fail(file, fmt::format("'{}.value' is missing", where));
  SpecPeak peak;
  peak.precision = precision;
  peak.value = quantity_field(p["value"], where + ".value", Quantity::compute_rate, file);
  peak.stated = p["value"].get<std::string>();
  if (p.contains("sparse")) {
    if (!p["sparse"].is_boolean()) fail(file, fmt::format("'{}.sparse' must be true or false", where));
    peak.sparse = p["sparse"].get<bool>();
  }
  if (p.contains("isa")) {
    if (!p["isa"].is_string()) fail(file, fmt::format("'{}.isa' must be a string", where));
    peak.isa = p["isa"].get<std::string>();
  }
  // The engine whose ceiling the figure is set beside: an accelerator's vector (CUDA-core) and matrix (tensor-core)
  // figures of one precision are different numbers (H100 fp64: 34 vector, 67 tensor).
  if (p.contains("engine")) {
    if (!p["engine"].is_string() || (p["engine"] != "vector" && p["engine"] != "matrix")) {
      fail(file, fmt::format("'{}.engine' must be \"vector\" or \"matrix\"", where));
    }
    peak.engine = p["engine"].get<std::string>();
  }
  // A row's own clock where the datasheet's figures assume different ones (H100/H200: tensor 1.83, FP32 1.98 GHz).
  if (p.contains("clock")) peak.clock_hz = clock_field(p["clock"], file);
  return peak;
}

}  // namespace

Spec parse_spec(const json& doc, const std::string& file) {
  if (!doc.is_object()) fail(file, "a spec must be a JSON object");
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    if (std::find(kTopKeys.begin(), kTopKeys.end(), it.key()) == kTopKeys.end()) {
      fail(file, fmt::format("unknown key '{}' (allowed: name, kind, source, covers, clock, memory_bandwidth, "
                             "peaks, applies_to, notes)", it.key()));
    }
  }
  Spec spec;
  spec.file = file;
  spec.name = text_field(doc, "name", file, true);
  spec.kind = text_field(doc, "kind", file, true);
  if (spec.kind != "cpu" && spec.kind != "accelerator") fail(file, fmt::format("'kind' must be \"cpu\" or \"accelerator\", not '{}'", spec.kind));
  spec.source = text_field(doc, "source", file, false);

  if (!doc.contains("covers") || !doc["covers"].is_object()) {
    fail(file, "'covers' is missing: say what the figures cover, e.g. {\"cores\": 64, \"description\": \"one socket\"}");
  }
  const json& covers = doc["covers"];
  spec.covers = text_field(covers, "description", file, false);
  if (covers.contains("cores")) {
    if (!covers["cores"].is_number_integer() || covers["cores"].get<long long>() <= 0) {
      fail(file, "'covers.cores' must be a positive integer");
    }
    spec.cores = covers["cores"].get<int>();
  }
  if (spec.kind == "cpu" && spec.cores == 0) fail(file, "a cpu spec needs 'covers.cores' so its figures can be scaled to the threads measured");
  if (spec.covers.empty()) spec.covers = spec.cores > 0 ? fmt::format("{} cores", spec.cores) : spec.name;

  if (doc.contains("clock")) {
    spec.clock_stated = doc["clock"].is_string() ? doc["clock"].get<std::string>() : "";
    spec.clock_hz = clock_field(doc["clock"], file);
  }
  if (doc.contains("memory_bandwidth")) {
    spec.memory_bandwidth = quantity_field(doc["memory_bandwidth"], "memory_bandwidth", Quantity::byte_rate, file);
    spec.bandwidth_stated = doc["memory_bandwidth"].get<std::string>();
  }

  if (!doc.contains("peaks") || !doc["peaks"].is_object() || doc["peaks"].empty()) {
    fail(file, "'peaks' is missing or empty: give at least one precision, e.g. {\"fp32\": {\"value\": \"67 TFLOP/s\"}}");
  }
  for (auto it = doc["peaks"].begin(); it != doc["peaks"].end(); ++it) {
    const std::string& precision = it.key();
    if (std::find(kPrecisions.begin(), kPrecisions.end(), precision) == kPrecisions.end()) {
      fail(file, fmt::format("unknown precision 'peaks.{}' (allowed: fp64, fp32, tf32, bf16, fp16, fp8, int8, int4)", precision));
    }
    spec.peaks.push_back(parse_peak(it.value(), precision, file));
  }
  // Keep the report's order stable and meaningful: widest precision first.
  std::sort(spec.peaks.begin(), spec.peaks.end(), [](const SpecPeak& a, const SpecPeak& b) {
    auto rank = [](const std::string& p) { return std::find(kPrecisions.begin(), kPrecisions.end(), p) - kPrecisions.begin(); };
    return rank(a.precision) < rank(b.precision);
  });

  if (doc.contains("applies_to")) {
    const json& a = doc["applies_to"];
    if (!a.is_object()) fail(file, "'applies_to' must be an object");
    spec.cpu_vendor = text_field(a, "cpu_vendor", file, false);
    if (a.contains("cpu_family")) {
      if (!a["cpu_family"].is_number_integer()) fail(file, "'applies_to.cpu_family' must be an integer");
      spec.cpu_family = a["cpu_family"].get<int>();
    }
    if (a.contains("cpu_model_numbers")) {
      if (!a["cpu_model_numbers"].is_array()) fail(file, "'applies_to.cpu_model_numbers' must be an array of integers");
      for (const json& m : a["cpu_model_numbers"]) {
        if (!m.is_number_integer()) fail(file, "'applies_to.cpu_model_numbers' must be an array of integers");
        spec.cpu_model_numbers.push_back(m.get<int>());
      }
    }
  }
  if (doc.contains("notes")) {
    if (!doc["notes"].is_array()) fail(file, "'notes' must be an array of strings");
    for (const json& n : doc["notes"]) {
      if (!n.is_string()) fail(file, "'notes' must be an array of strings");
      spec.notes.push_back(n.get<std::string>());
    }
  }
  return spec;
}

Spec load_spec(const std::filesystem::path& path) {
  return parse_spec(load_json_file(path), path.string());
}

}  // namespace roofline
