// One read probe's record: see roof_probe.hpp.
#include "roofline/common/roof_probe.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <type_traits>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"

namespace roofline {
using nlohmann::json;

namespace {

double positive(const json& o, const char* key, const std::string& where) {
  if (!o.contains(key) || !o[key].is_number() || !std::isfinite(o[key].get<double>()) || o[key].get<double>() <= 0.0) {
    throw InputError(fmt::format("{}: '{}' is missing or not a positive number", where, key));
  }
  return o[key].get<double>();
}

// An optional field of the probe: absent (or null) leaves `out` as it is.
template <typename T>
void optional_field(const json& p, const char* key, const std::string& where, T& out) {
  if (!p.contains(key) || p[key].is_null()) return;
  const json& v = p[key];
  if constexpr (std::is_same_v<T, std::string>) {
    if (!v.is_string()) throw InputError(fmt::format("{}: '{}' is not a string", where, key));
    out = v.get<std::string>();
  } else if constexpr (std::is_integral_v<T>) {
    if (!v.is_number_integer() || v.get<long long>() < 1) throw InputError(fmt::format("{}: '{}' is not a positive integer", where, key));
    out = v.get<T>();
  } else {
    out = positive(p, key, where);
  }
}

}  // namespace

json roof_probe_json(const RoofProbeRecord& r) {
  return {{"kernel", r.kernel},
          {"threads", r.threads},
          {"working_set_bytes", r.working_set_bytes},
          {"pages", r.pages},
          {"passes_per_sample", r.passes_per_sample},
          {"samples", r.samples},
          {"bytes_per_second", r.bytes_per_second},
          {"seconds", r.seconds}};
}

RoofProbeRecord read_roof_probe(const json& p, const std::string& where) {
  if (!p.is_object()) throw InputError(fmt::format("{} is not an object", where));
  static const char* const kFields[] = {"kernel", "threads", "working_set_bytes", "pages", "passes_per_sample",
                                        "samples", "bytes_per_second", "seconds"};
  for (const auto& [key, v] : p.items()) {
    if (std::find_if(std::begin(kFields), std::end(kFields), [&key = key](const char* f) { return key == f; }) == std::end(kFields)) {
      throw InputError(fmt::format("{}: '{}' is not a field of a probe", where, key));
    }
  }
  RoofProbeRecord r;
  r.bytes_per_second = positive(p, "bytes_per_second", where);
  optional_field(p, "kernel", where, r.kernel);
  optional_field(p, "threads", where, r.threads);
  optional_field(p, "working_set_bytes", where, r.working_set_bytes);
  optional_field(p, "pages", where, r.pages);
  optional_field(p, "passes_per_sample", where, r.passes_per_sample);
  optional_field(p, "seconds", where, r.seconds);
  if (p.contains("samples") && !p["samples"].is_null()) {
    if (!p["samples"].is_array()) throw InputError(fmt::format("{}: 'samples' is not an array", where));
    for (const json& s : p["samples"]) {
      if (!s.is_number() || !(s.get<double>() > 0.0)) throw InputError(fmt::format("{}: a sample is not a positive number", where));
      r.samples.push_back(s.get<double>());
    }
  }
  return r;
}

}  // namespace roofline
