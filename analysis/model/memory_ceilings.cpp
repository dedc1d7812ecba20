// Memory ceilings per level from the bandwidth sweep's entries: see memory_ceilings.hpp for the method.
#include "roofline/analysis/memory_ceilings.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "roofline/analysis/results.hpp"
#include "roofline/common/units.hpp"

namespace roofline {
using nlohmann::json;

namespace {

// Display order of the bandwidth kernels in the table (unknown names sort after, by name).
int kernel_rank(const std::string& kernel) {
  static const char* order[] = {"copy", "scale", "add", "triad", "read", "write", "copy_nt", "triad_nt", "write_nt"};
  for (int i = 0; i < 9; ++i) {
    if (kernel == order[i]) return i;
  }
  return 100;
}

int level_rank(const std::string& level) {
  if (level == "DRAM") return 9;
  return level.size() == 2 ? level[1] - '0' : 10;
}

// One measured size of one kernel at one thread count: its repetitions and aggregates.
struct Point {
  double bytes = 0.0;
  std::vector<double> repetitions;
  double median = -1.0;  // from the aggregate when present, else computed
  double best = -1.0;    // likewise, the max
  std::string benchmark;
};

double median_of(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 == 1 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

using Key = std::tuple<int, std::string, double>;  // threads, kernel, working_set_bytes

std::string entry_name(const json& e) {
  if (e.contains("run_name") && e["run_name"].is_string()) return e["run_name"].get<std::string>();
  return e.value("name", std::string());
}

// Collects the points from the entries (repetitions and median/max aggregates).
std::map<Key, Point> collect_points(const json& results) {
  std::map<Key, Point> points;
  const auto key_of = [](const json& e, Key& key) {
    if (!e.contains("labels") || !e["labels"].is_object()) return false;
    const json& l = e["labels"];
    if (!l.contains("kernel") || !l["kernel"].is_string() || !l.contains("threads") || !l["threads"].is_number()) {
      return false;
    }
    const double ws = counter(e, "working_set_bytes", 0.0);
    if (ws <= 0.0 || counter(e, "bytes_per_second", -1.0) < 0.0) return false;
    key = Key{l["threads"].get<int>(), l["kernel"].get<std::string>(), ws};
    return true;
  };
  Key key;
  for (const json& e : benchmark_entries(results, "bandwidth")) {
    if (!key_of(e, key)) continue;
    Point& p = points[key];
    p.bytes = std::get<2>(key);
    p.repetitions.push_back(counter(e, "bytes_per_second"));
    if (p.benchmark.empty()) p.benchmark = entry_name(e);
  }
  for (const char* aggregate : {"median", "max"}) {
    for (const json& e : benchmark_entries(results, "bandwidth", aggregate)) {
      if (!key_of(e, key)) continue;
      Point& p = points[key];
      p.bytes = std::get<2>(key);
      (std::string(aggregate) == "median" ? p.median : p.best) = counter(e, "bytes_per_second");
      if (p.benchmark.empty()) p.benchmark = entry_name(e);
    }
  }
  for (auto& [k, p] : points) {
    if (p.median < 0.0) p.median = median_of(p.repetitions);
    if (p.best < 0.0) p.best = p.repetitions.empty() ? p.median : *std::max_element(p.repetitions.begin(), p.repetitions.end());
  }
  return points;
}

std::string binding_policy(const json& results) {
  const json& ctx = results["context"];
  if (ctx.contains("binding") && ctx["binding"].is_object() && ctx["binding"].contains("policy") &&
      ctx["binding"]["policy"].is_string()) {
    return ctx["binding"]["policy"].get<std::string>();
  }
  return "compact";
}

json bytes_or_null(double b) { return b > 0.0 ? json(static_cast<std::uint64_t>(std::llround(b))) : json(nullptr); }

// A level's range on the reference curve, widened by 1% so that other kernels' sizes (rounded to whole
// elements per array) just inside its ends still count.
bool in_range(double bytes, double lo, double hi) { return bytes >= lo * 0.99 && bytes <= hi * 1.01; }

}  // namespace

std::vector<ReportedLevel> reported_levels(const json& machine, int threads, const std::string& policy) {
  std::vector<ReportedLevel> out;
  if (!machine.is_object() || !machine.contains("caches") || !machine["caches"].is_array()) return out;
  for (int level = 1; level <= 3; ++level) {
    for (const json& c : machine["caches"]) {
      if (!c.is_object() || c.value("level", 0) != level || c.value("type", std::string()) == "instruction") continue;
      const double size = c.value("size_bytes", 0.0);
      if (size <= 0.0) continue;
      int per_instance = c.value("cores_per_instance", 0);
      if (per_instance <= 0) per_instance = level <= 2 ? 1 : 1 << 20;  // unknown: L1/L2 per core, L3 shared
      const int instances = c.value("instances", 0);
      int used = policy == "spread" ? threads : (threads + per_instance - 1) / per_instance;
      if (instances > 0) used = std::min(used, instances);
      out.push_back({fmt::format("L{}", level), size * std::max(used, 1)});
      break;
    }
  }
  return out;
}

json derive_memory_ceilings(const json& results) {
  json out = {{"memory_ceilings", json::array()}, {"memory_levels", json::array()}, {"notes", json::array()}};
  if (!results.is_object() || !results.contains("context")) return out;
  const std::map<Key, Point> points = collect_points(results);
  if (points.empty()) return out;
  const json machine = results["context"].value("machine", json::object());
  const std::string policy = binding_policy(results);

  std::map<int, std::map<std::string, std::vector<const Point*>>> by_threads;  // threads -> kernel -> points
  for (const auto& [key, p] : points) by_threads[std::get<0>(key)][std::get<1>(key)].push_back(&p);

  std::vector<json> ceilings;
  for (const auto& [threads, kernels] : by_threads) {
    // Reference curve: the kernel with the most sizes, `read` first among equals (it is the memory roof).
    std::string reference;
    const auto score = [&](const std::string& k) {
      return std::make_tuple(kernels.at(k).size(), k == "read" ? 1 : 0, -kernel_rank(k));
    };
    for (const auto& [kernel, pts] : kernels) {
      if (reference.empty() || score(kernel) > score(reference)) reference = kernel;
    }
    std::vector<CurvePoint> curve;
    for (const Point* p : kernels.at(reference)) curve.push_back({p->bytes, p->median});
    const std::vector<Plateau> plateaus = find_plateaus(curve);
    const std::vector<ReportedLevel> reported = reported_levels(machine, threads, policy);
    const std::string prefix = fmt::format("{} thread{}: ", threads, threads == 1 ? "" : "s");

    // Level ranges: from the curve when it has plateaus, else from the reported sizes.
    struct Range {
      std::string level;
      double lo, hi;
      std::string source;
    };
    std::vector<Range> ranges;
    if (!plateaus.empty()) {
      const LevelLabels labels = label_levels(curve, plateaus, reported);
      for (const LevelLabel& l : labels.levels) {
        ranges.push_back({l.level, l.min_bytes, l.max_bytes, l.source});
        out["memory_levels"].push_back({{"threads", threads},
                                        {"level", l.level},
                                        {"reference_kernel", reference},
                                        {"min_bytes", bytes_or_null(l.min_bytes)},
                                        {"max_bytes", bytes_or_null(l.max_bytes)},
                                        {"bandwidth", plateaus[l.plateau].level},
                                        {"inferred_bytes", bytes_or_null(l.inferred_bytes)},
                                        {"reported_bytes", bytes_or_null(l.reported_bytes)},
                                        {"agreement", l.agreement},
                                        {"source", l.source}});
      }
      for (const std::string& n : labels.notes) out["notes"].push_back(prefix + n);
    } else if (!reported.empty()) {
      out["notes"].push_back(prefix + fmt::format("the '{}' curve has too few sizes for plateaus ({}); levels come "
                                                  "from the reported cache sizes only.", reference, curve.size()));
      double lo = 0.0;
      for (const ReportedLevel& r : reported) {
        ranges.push_back({r.name, lo, r.bytes, "reported"});
        out["memory_levels"].push_back({{"threads", threads}, {"level", r.name}, {"reference_kernel", reference},
                                        {"min_bytes", bytes_or_null(lo)}, {"max_bytes", bytes_or_null(r.bytes)},
                                        {"bandwidth", nullptr}, {"inferred_bytes", nullptr},
                                        {"reported_bytes", bytes_or_null(r.bytes)}, {"agreement", "unchecked"},
                                        {"source", "reported"}});
        lo = r.bytes * 1.03;  // just above, so in_range's slack does not put one size in two levels
      }
      ranges.push_back({"DRAM", 2.0 * reported.back().bytes, 1e30, "reported"});
    } else {
      out["notes"].push_back(prefix + "too few sizes for plateaus and no reported cache sizes: no memory levels.");
    }

    // Each kernel's best repetition inside each level's range; a level seen twice keeps the better one.
    for (const auto& [kernel, pts] : kernels) {
      std::map<std::string, json> best_by_level;
      for (const Range& r : ranges) {
        const Point* best = nullptr;
        double lo = 0.0, hi = 0.0;
        int count = 0;
        for (const Point* p : pts) {
          if (!in_range(p->bytes, r.lo, r.hi)) continue;
          if (best == nullptr || p->best > best->best) best = p;
          lo = count == 0 ? p->bytes : std::min(lo, p->bytes);
          hi = count == 0 ? p->bytes : std::max(hi, p->bytes);
          ++count;
        }
        if (best == nullptr) continue;
        json c = {{"level", r.level},     {"kernel", kernel},       {"threads", threads},
                  {"value", best->best},  {"unit", "B/s"},          {"min_bytes", static_cast<std::uint64_t>(lo)},
                  {"max_bytes", static_cast<std::uint64_t>(hi)},   {"median", best->median},
                  {"points", count},      {"benchmark", best->benchmark}, {"source", r.source}};
        auto it = best_by_level.find(r.level);
        if (it == best_by_level.end() || it->second["value"].get<double>() < best->best) best_by_level[r.level] = c;
      }
      for (auto& [level, c] : best_by_level) ceilings.push_back(std::move(c));
    }
  }
  std::sort(ceilings.begin(), ceilings.end(), [](const json& a, const json& b) {
    const auto key = [](const json& c) {
      return std::make_tuple(c["threads"].get<int>(), level_rank(c["level"].get<std::string>()),
                             kernel_rank(c["kernel"].get<std::string>()), c["kernel"].get<std::string>());
    };
    return key(a) < key(b);
  });
  for (json& c : ceilings) out["memory_ceilings"].push_back(std::move(c));
  out["notes"].push_back(
      "Bandwidth counts STREAM's bytes (the words a kernel names); the write-allocate read of each line a "
      "cached store writes is not counted, so copy/scale/add/triad/write move more than they are credited "
      "with; the _nt kernels (streaming stores) avoid that traffic.");
  out["notes"].push_back("Memory levels come from the plateaus of the reference kernel's bandwidth curve "
                         "(medians of the repetitions); a ceiling is the best repetition inside a level's range.");
  return out;
}

}  // namespace roofline
