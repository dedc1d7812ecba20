// Reading a point's roof-of-the-moment probes and placing the point against them: see roof_now.hpp.
#include "roofline/analysis/roof_now.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include <fmt/format.h>

#include "roofline/analysis/model.hpp"
#include "roofline/common/errors.hpp"

namespace roofline {
using nlohmann::json;

namespace {

double positive(const json& o, const char* key, const char* where) {
  if (!o.contains(key) || !o[key].is_number() || !std::isfinite(o[key].get<double>()) || o[key].get<double>() <= 0.0) {
    throw InputError(fmt::format("{}: '{}' is missing or not a positive number", where, key));
  }
  return o[key].get<double>();
}

RoofProbeReading read_probe(const json& p, const char* where) {
  if (!p.is_object()) throw InputError(fmt::format("{} is not an object", where));
  RoofProbeReading r;
  r.bytes_per_second = positive(p, "bytes_per_second", where);
  if (p.contains("working_set_bytes")) r.working_set_bytes = positive(p, "working_set_bytes", where);
  if (p.contains("samples")) {
    if (!p["samples"].is_array()) throw InputError(fmt::format("{}: 'samples' is not an array", where));
    std::vector<double> v;
    for (const json& s : p["samples"]) {
      if (!s.is_number() || !(s.get<double>() > 0.0)) throw InputError(fmt::format("{}: a sample is not a positive number", where));
      v.push_back(s.get<double>());
    }
    // The noise of a best-of estimate: how far the best sample is from the next best. One sample slowed by
    // a neighbour (a preempted vCPU) does not make it, as max / min would.
    std::sort(v.begin(), v.end(), std::greater<>());
    if (v.size() >= 2) r.noise = v[0] / v[1] - 1.0;
  }
  return r;
}

}  // namespace

double RoofNow::spread() const {
  return before.bytes_per_second > 0.0 ? std::fabs(after.bytes_per_second / before.bytes_per_second - 1.0) : 0.0;
}
double RoofNow::noise() const { return std::max(before.noise, after.noise); }
bool RoofNow::moved() const { return spread() > std::max(kRoofNowMovedFloor, noise()); }

std::optional<RoofNow> read_roof_now(const json& entry) {
  if (!entry.is_object() || !entry.contains("roof_now")) return std::nullopt;
  const json& r = entry["roof_now"];
  if (!r.is_object()) throw InputError("an entry's 'roof_now' is not an object");
  if (!r.contains("before") || !r.contains("after") || r["before"].is_null() || r["after"].is_null()) return std::nullopt;
  RoofNow now;
  now.before = read_probe(r["before"], "roof_now.before");
  now.after = read_probe(r["after"], "roof_now.after");
  const json& b = r["before"];
  if (b.contains("kernel") && !b["kernel"].is_string()) throw InputError("roof_now.before: 'kernel' is not a string");
  now.kernel = b.value("kernel", std::string("read"));
  return now;
}

json roof_now_json(const RoofNow& r, double value, double ai, double compute_ceiling, double run_roof) {
  const double bw = r.bandwidth();
  json j = {{"kernel", r.kernel},
            {"before", r.before.bytes_per_second},
            {"after", r.after.bytes_per_second},
            {"bandwidth", bw},
            {"spread", r.spread()},
            {"noise", r.noise()},
            {"moved", r.moved()}};
  if (r.before.working_set_bytes > 0.0) j["working_set_bytes"] = r.before.working_set_bytes;
  if (run_roof > 0.0) j["roof_ratio"] = bw / run_roof;
  if (compute_ceiling > 0.0) {
    const RoofEvaluation e = evaluate_roof(compute_ceiling, bw, ai);
    j["attainable"] = e.attainable;
    j["bound"] = std::string(to_string(e.bound));
  } else {
    j["attainable"] = bw * ai;
  }
  j["efficiency"] = value / j["attainable"].get<double>();
  return j;
}

}  // namespace roofline
