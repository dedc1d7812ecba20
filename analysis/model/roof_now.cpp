// Reading a point's roof-of-the-moment probes and placing the point against them: see roof_now.hpp.
#include "roofline/model/roof_now.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "roofline/model/model.hpp"
#include "roofline/common/errors.hpp"

namespace roofline {
using nlohmann::json;

namespace {

// The noise of a best-of estimate: how far the best sample is from the next best. One sample slowed by a
// neighbour (a preempted vCPU) does not make it, as max / min would.
double best_of_noise(std::vector<double> v) {
  std::sort(v.begin(), v.end(), std::greater<>());
  return v.size() >= 2 ? v[0] / v[1] - 1.0 : 0.0;
}

RoofProbeReading read_probe(const json& p, const char* where) {
  const RoofProbeRecord record = read_roof_probe(p, where);
  RoofProbeReading r;
  r.bytes_per_second = record.bytes_per_second;
  r.working_set_bytes = static_cast<double>(record.working_set_bytes);
  r.noise = best_of_noise(record.samples);
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
  if (!r.is_object()) throw InputError("roof_now is not an object");
  if (!r.contains("before") || !r.contains("after") || r["before"].is_null() || r["after"].is_null()) return std::nullopt;
  RoofNow now;
  now.before = read_probe(r["before"], "roof_now.before");
  now.after = read_probe(r["after"], "roof_now.after");
  now.kernel = read_roof_probe(r["before"], "roof_now.before").kernel;
  return now;
}

std::optional<RoofNow> read_roof_now(const BenchmarkEntry& entry) {
  if (!entry.roof_now && !entry.extra.contains("roof_now")) return std::nullopt;
  return read_roof_now(to_json(entry));
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

std::string roof_now_note(const std::vector<json>& placed) {
  int probed = 0, moved = 0;
  double ratio_lo = 0.0, ratio_hi = 0.0;
  for (const json& p : placed) {
    if (!p.contains("roof_now")) continue;
    ++probed;
    if (p["roof_now"].value("moved", false)) ++moved;
    if (p["roof_now"].contains("roof_ratio")) {
      const double r = p["roof_now"]["roof_ratio"].get<double>();
      ratio_lo = ratio_lo == 0.0 ? r : std::min(ratio_lo, r);
      ratio_hi = std::max(ratio_hi, r);
    }
  }
  if (probed == 0) return "";
  return fmt::format(
      "Roof now: {} memory-bound point(s) were placed also against a read probe of their operands' size taken right "
      "before and right after their repetitions (% of roof now){}; {} of them saw the memory move while measuring "
      "(the probes more than {:.0f}% and their own noise apart).",
      probed,
      ratio_hi > 0.0 ? fmt::format(", the probes at {:.0f}-{:.0f}% of the run's roof of the same level", 100.0 * ratio_lo,
                                   100.0 * ratio_hi)
                     : "",
      moved, 100.0 * kRoofNowMovedFloor);
}

}  // namespace roofline
