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

// The fields a probe may hold: anything else in it is refused (a newer writer's field is a reader to update).
constexpr const char* kProbeFields[] = {"kernel", "threads", "working_set_bytes", "pages", "passes_per_sample",
                                        "samples", "bytes_per_second", "seconds"};

// What the typed read kept in the probe's `extra` under `key`: a field the file wrote in another kind (nullptr: none,
// or null, which reads as absent).
const json* mistyped(const RoofProbeFields& p, const char* key) {
  const auto it = p.extra.find(key);
  return it == p.extra.end() || it->is_null() ? nullptr : &*it;
}

double positive(const std::optional<double>& member, const char* key, const std::string& where) {
  if (!member || !std::isfinite(*member) || *member <= 0.0) {
    throw InputError(fmt::format("{}: '{}' is missing or not a positive number", where, key));
  }
  return *member;
}

// An optional field: absent (or null) leaves `out` as it is; another kind, or an integer below 1, is refused.
template <class T, class M>
void optional_field(const std::optional<M>& member, const RoofProbeFields& p, const char* key, const std::string& where,
                    T& out) {
  if (!member && mistyped(p, key) == nullptr) return;
  if constexpr (std::is_same_v<T, std::string>) {
    if (!member) throw InputError(fmt::format("{}: '{}' is not a string", where, key));
    out = *member;
  } else if constexpr (std::is_integral_v<T>) {
    if (!member || *member < 1) throw InputError(fmt::format("{}: '{}' is not a positive integer", where, key));
    out = static_cast<T>(*member);
  } else {
    out = positive(member, key, where);
  }
}

}  // namespace

// The probes' one reader (issue 61: over the typed probe, which the records' reader fills and keeps what it could not
// type in `extra`); roofline/common/roof_probe.hpp has their one writer and record. Throws InputError "<where>: ..."
// naming the first unknown, missing or mistyped field.
RoofProbeRecord read_roof_probe(const RoofProbeFields& p, const std::string& where) {
  for (const auto& [key, v] : p.extra.items()) {
    if (std::find_if(std::begin(kProbeFields), std::end(kProbeFields), [&key = key](const char* f) { return key == f; }) ==
        std::end(kProbeFields)) {
      throw InputError(fmt::format("{}: '{}' is not a field of a probe", where, key));
    }
  }
  RoofProbeRecord r;
  r.bytes_per_second = positive(p.bytes_per_second, "bytes_per_second", where);
  optional_field(p.kernel, p, "kernel", where, r.kernel);
  optional_field(p.threads, p, "threads", where, r.threads);
  optional_field(p.working_set_bytes, p, "working_set_bytes", where, r.working_set_bytes);
  optional_field(p.pages, p, "pages", where, r.pages);
  optional_field(p.passes_per_sample, p, "passes_per_sample", where, r.passes_per_sample);
  optional_field(p.seconds, p, "seconds", where, r.seconds);
  if (const json* s = mistyped(p, "samples")) {
    throw InputError(s->is_array() ? fmt::format("{}: a sample is not a positive number", where)
                                   : fmt::format("{}: 'samples' is not an array", where));
  }
  for (const double s : p.samples.value_or(std::vector<double>{})) {
    if (!(s > 0.0)) throw InputError(fmt::format("{}: a sample is not a positive number", where));
    r.samples.push_back(s);
  }
  return r;
}

namespace {

// A probe that is there (present, not null): typed, or of another kind than an object, refused.
RoofProbeReading read_probe(const std::optional<RoofProbeFields>& p, const char* where) {
  if (!p) throw InputError(fmt::format("{} is not an object", where));
  const RoofProbeRecord record = read_roof_probe(*p, where);
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

std::optional<RoofNow> read_roof_now(const BenchmarkEntry& entry) {
  if (!entry.roof_now) {
    if (entry.extra.contains("roof_now")) throw InputError("roof_now is not an object");  // null, or another kind
    return std::nullopt;
  }
  const EntryRoofNow& r = *entry.roof_now;
  const auto there = [&r](const std::optional<RoofProbeFields>& probe, const char* key) {
    return probe.has_value() || (r.extra.contains(key) && !r.extra[key].is_null());
  };
  if (!there(r.before, "before") || !there(r.after, "after")) return std::nullopt;
  RoofNow now;
  now.before = read_probe(r.before, "roof_now.before");
  now.after = read_probe(r.after, "roof_now.after");
  now.kernel = read_roof_probe(*r.before, "roof_now.before").kernel;
  return now;
}

std::optional<RoofNow> read_roof_now(const json& entry) {
  if (!entry.is_object() || !entry.contains("roof_now")) return std::nullopt;
  BenchmarkEntry typed;
  set_field(typed, "roof_now", entry["roof_now"]);  // as the records' reader reads an entry's roof_now
  return read_roof_now(typed);
}

PlacementRoofNow roof_now_placement(const RoofNow& r, double value, double ai, double compute_ceiling, double run_roof) {
  const double bw = r.bandwidth();
  PlacementRoofNow out;
  out.kernel = r.kernel;
  out.before = r.before.bytes_per_second;
  out.after = r.after.bytes_per_second;
  out.bandwidth = bw;
  out.spread = r.spread();
  out.noise = r.noise();
  out.moved = r.moved();
  if (r.before.working_set_bytes > 0.0) out.working_set_bytes = r.before.working_set_bytes;
  if (run_roof > 0.0) out.roof_ratio = bw / run_roof;
  if (compute_ceiling > 0.0) {
    const RoofEvaluation e = evaluate_roof(compute_ceiling, bw, ai);
    out.attainable = e.attainable;
    out.bound = std::string(to_string(e.bound));
  } else {
    out.attainable = bw * ai;
  }
  out.efficiency = value / *out.attainable;
  return out;
}

std::string roof_now_note(const std::vector<PlacementRecord>& placed) {
  int probed = 0, moved = 0;
  double ratio_lo = 0.0, ratio_hi = 0.0;
  for (const PlacementRecord& p : placed) {
    if (!p.roof_now) continue;
    ++probed;
    if (p.roof_now->moved.value_or(false)) ++moved;
    if (p.roof_now->roof_ratio) {
      const double r = *p.roof_now->roof_ratio;
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
