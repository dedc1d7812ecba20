// The roofline of a target other than the host CPU (issue 21), derived from its own benchmark entries and
// facts alone, target-blind: its memory levels are the names its facts list (innermost first, the last its
// main memory), found on its bandwidth curve by the same plateau detection as the CPU's; its compute
// ceilings come from the CPU's derivation (compute_ceilings.hpp), the theoretical peak from the model its facts
// name; GEMM points are placed on its own ceilings by the placement every target's points get (placement.cpp);
// transfers and kernel launches are roofs of their own. See target_roofline.hpp; its key figures are every
// target's, key_figures.cpp's.
#include "roofline/analysis/target_roofline.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "roofline/analysis/compute_ceilings.hpp"
#include "roofline/analysis/level_warnings.hpp"
#include "roofline/analysis/dequant_ceilings.hpp"
#include "roofline/analysis/model.hpp"
#include "roofline/analysis/placement.hpp"
#include "roofline/analysis/plateaus.hpp"
#include "roofline/analysis/resident_level.hpp"
#include "roofline/analysis/results.hpp"
#include "roofline/analysis/roofline_section.hpp"
#include "roofline/common/statistics.hpp"
#include "roofline/common/units.hpp"

namespace roofline {
using nlohmann::json;

namespace {

const json& labels_of(const json& e) {
  static const json kEmpty = json::object();
  return e.contains("labels") && e["labels"].is_object() ? e["labels"] : kEmpty;
}

std::string label_text(const json& e, const char* key, const std::string& fallback = "") {
  const json& l = labels_of(e);
  return l.contains(key) && l[key].is_string() ? l[key].get<std::string>() : fallback;
}

double label_number(const json& e, const char* key) {
  const json& l = labels_of(e);
  return l.contains(key) && l[key].is_number() ? l[key].get<double>() : 0.0;
}

// The target's measured repetitions of one suite (failed ones left out, as benchmark_entries does).
std::vector<const json*> suite_entries(const ResultsView& view, const TargetView& t, const std::string& suite) {
  std::vector<const json*> out;
  for (const json* e : view.entries(t.id)) {
    if (!e->is_object() || e->value("run_type", std::string("iteration")) != "iteration") continue;
    if (e->value("error_occurred", false) || label_text(*e, "suite") != suite) continue;
    out.push_back(e);
  }
  return out;
}

// One kernel's repetitions at one working-set size, in the vector width kept for the kernel.
struct SizePoint {
  double bytes = 0.0;
  std::vector<double> values;
  std::string benchmark;  // the name of its best repetition
  double best = 0.0;
};
using KernelCurve = std::map<double, SizePoint>;  // bytes -> point

// A kernel's variant: its vector width (0 where its entries name none) and access pattern (label `pattern`,
// "" where none: a target may run one kernel in several access patterns).
using Variant = std::pair<long long, std::string>;

// One kernel's curve: the variant kept and its points in that variant.
struct KernelSweep {
  long long width = 0;
  std::string pattern;
  KernelCurve curve;
};

// The variant (width, pattern) a kernel is kept in: the one with the highest geometric mean of its per-size medians
// over the sizes every variant was measured at (one variant per kernel, not the best of every variant at each
// size: the max over variants of noisy medians would lift the curve by noise alone).
Variant kept_variant(const std::map<Variant, KernelCurve>& by_width) {
  std::map<double, std::size_t> seen;
  for (const auto& [width, curve] : by_width) {
    for (const auto& [bytes, p] : curve) ++seen[bytes];
  }
  Variant best_width = by_width.begin()->first;
  double best_score = -1e300;
  for (const auto& [width, curve] : by_width) {
    double score = 0.0;
    for (const auto& [bytes, p] : curve) {
      if (seen[bytes] == by_width.size()) score += std::log(std::max(median(p.values), 1e-300));
    }
    if (score > best_score) {
      best_score = score;
      best_width = width;
    }
  }
  return best_width;
}

std::map<std::string, KernelSweep> bandwidth_curves(const ResultsView& view, const TargetView& t) {
  std::map<std::string, std::map<Variant, KernelCurve>> all;  // kernel -> variant -> curve
  for (const json* e : suite_entries(view, t, "bandwidth")) {
    const double bytes = counter(*e, "working_set_bytes"), value = counter(*e, "bytes_per_second");
    if (bytes <= 0.0 || value <= 0.0) continue;
    const Variant variant{static_cast<long long>(label_number(*e, "width")), label_text(*e, "pattern")};
    SizePoint& p = all[label_text(*e, "kernel", "?")][variant][bytes];
    p.bytes = bytes;
    p.values.push_back(value);
    if (value > p.best) {
      p.best = value;
      p.benchmark = e->value("run_name", e->value("name", std::string()));
    }
  }
  std::map<std::string, KernelSweep> out;
  for (auto& [kernel, by_width] : all) {
    const Variant kept = kept_variant(by_width);
    out[kernel] = {kept.first, kept.second, std::move(by_width.at(kept))};
  }
  return out;
}

// The target's inner levels with the capacities its facts report (main memory, the last, left out).
std::vector<LevelReach> capacity_reach(const TargetView& t) {
  std::vector<LevelReach> out;
  for (std::size_t i = 0; i + 1 < t.memory_levels.size(); ++i) {
    out.push_back({t.memory_levels[i].name, t.memory_levels[i].capacity_bytes});
  }
  return out;
}

// The level a working set of `bytes` lives in by the facts alone: the innermost level whose capacity holds it,
// else main memory (resident_level.hpp).
std::string level_holding(const TargetView& t, double bytes) {
  return resident_level(capacity_reach(t), t.main_memory(), bytes).level;
}

struct LevelRange {
  std::string level;
  double lo = 0.0, hi = 0.0;
  std::string source;        // "curve" | "reported"
  std::string warning = {};  // dram_not_reached: the last plateau, inside a sized cache (last_level_name)
};

// The levels on the reference curve, by the one segmentation every target's levels come from (plateaus.hpp):
// at most as many levels as the facts list, the last one main memory (the sweep ends in it); the inner ones take
// the facts' inner names in order when the curve shows all of them, else the name of the innermost level whose
// capacity holds the plateau. Facts that list main memory alone (an OpenCL CPU device whose driver reports no
// global cache size) leave room for one inner level, named "cache". Without plateaus, each size's level comes
// from the capacities alone.
std::vector<LevelRange> level_ranges(const TargetView& t, const KernelCurve& reference, json& out) {
  std::vector<CurvePoint> curve;
  for (const auto& [bytes, p] : reference) {
    const double m = median(p.values);
    const double spread = p.values.size() >= 3 && m > 0.0 ? robust_sigma(p.values) / m : 0.0;
    curve.push_back({bytes, m, spread, static_cast<double>(p.values.size())});
  }
  std::vector<std::string> inner;
  for (std::size_t i = 0; i + 1 < t.memory_levels.size(); ++i) inner.push_back(t.memory_levels[i].name);
  const bool unlisted_cache = inner.empty() && !t.memory_levels.empty();
  PlateauOptions options;
  options.max_levels = std::max<std::size_t>(t.memory_levels.size(), 1) + (unlisted_cache ? 1 : 0);
  std::vector<LevelRange> ranges;
  const std::vector<Plateau> plateaus = find_plateaus(curve, options);
  for (std::size_t i = 0; i < plateaus.size(); ++i) {
    const bool last = i + 1 == plateaus.size();
    std::string level, warning;
    if (last) {
      level = last_level_name(t, plateaus[i], warning, out);
    } else if (unlisted_cache) {
      level = "cache";
      add_note(out, fmt::format("{}: the curve shows a cache level ({}..{}) that its facts do not list; it is called "
                                "'cache'", t.id, format_bytes(plateaus[i].min_bytes), format_bytes(plateaus[i].max_bytes)));
    } else if (plateaus.size() - 1 == inner.size()) {
      level = inner[i];
    } else {
      level = level_holding(t, plateaus[i].max_bytes);
    }
    if (!ranges.empty() && ranges.back().level == level) {
      std::tie(ranges.back().hi, ranges.back().warning) = std::make_pair(plateaus[i].max_bytes, warning);
      continue;
    }
    ranges.push_back({level, plateaus[i].min_bytes, plateaus[i].max_bytes, "curve", warning});
  }
  if (!ranges.empty()) return ranges;
  for (const auto& [bytes, p] : reference) {
    const std::string level = level_holding(t, bytes);
    if (!ranges.empty() && ranges.back().level == level) ranges.back().hi = bytes;
    else ranges.push_back({level, bytes, bytes, "reported"});
  }
  return ranges;
}

const KernelCurve& reference_curve(const std::map<std::string, KernelSweep>& curves, std::string& name) {
  auto best = curves.find(kRoofKernel);
  if (best == curves.end()) {
    best = curves.begin();
    for (auto it = curves.begin(); it != curves.end(); ++it) {
      if (it->second.curve.size() > best->second.curve.size()) best = it;
    }
  }
  name = best->first;
  return best->second.curve;
}

double capacity_of(const TargetView& t, const std::string& level) {
  for (const TargetLevelView& l : t.memory_levels) {
    if (l.name == level) return l.capacity_bytes;
  }
  return 0.0;
}

void add_memory(const ResultsView& view, const TargetView& t, json& out) {
  const std::map<std::string, KernelSweep> curves = bandwidth_curves(view, t);
  if (curves.empty()) return;
  std::string reference_name;
  const std::vector<LevelRange> ranges = level_ranges(t, reference_curve(curves, reference_name), out);
  for (const LevelRange& r : ranges) {
    std::vector<double> medians;
    for (const auto& [bytes, p] : curves.at(reference_name).curve) {
      if (bytes >= r.lo && bytes <= r.hi) medians.push_back(median(p.values));
    }
    const double capacity = capacity_of(t, r.level);
    const long long width = curves.at(reference_name).width;
    out["memory_levels"].push_back({{"target", t.id}, {"level", r.level}, {"reference_kernel", reference_name},
                                    {"reference_width", width > 0 ? json(width) : json(nullptr)},
                                    {"min_bytes", r.lo}, {"max_bytes", r.hi}, {"bandwidth", median(medians)},
                                    {"reported_bytes", capacity > 0.0 ? json(capacity) : json(nullptr)},
                                    {"source", r.source}});
    if (!r.warning.empty()) out["memory_levels"].back()["warning"] = r.warning;
    for (const auto& [kernel, sweep] : curves) {
      const SizePoint* best = nullptr;
      std::vector<std::pair<double, double>> size_medians;  // the plateau figure's (plateaus.hpp)
      double lo = 0.0, hi = 0.0;
      for (const auto& [bytes, p] : sweep.curve) {
        if (bytes < r.lo || bytes > r.hi) continue;
        size_medians.emplace_back(bytes, median(p.values));
        std::tie(lo, hi) = std::make_pair(lo == 0.0 ? bytes : lo, bytes);
        if (best == nullptr || p.best > best->best) best = &p;
      }
      if (best == nullptr) continue;
      out["memory_ceilings"].push_back({{"target", t.id}, {"level", r.level}, {"kernel", kernel}, {"value", best->best},
                                        {"unit", "B/s"}, {"min_bytes", lo}, {"max_bytes", hi},
                                        {"median", median(best->values)}, {"plateau_median", plateau_figure(size_medians, !sweep.curve.empty() && sweep.curve.begin()->first >= r.lo)},
                                        {"points", size_medians.size()}, {"benchmark", best->benchmark},
                                        {"width", sweep.width > 0 ? json(sweep.width) : json(nullptr)},
                                        {"pattern", sweep.pattern.empty() ? json(nullptr) : json(sweep.pattern)},
                                        {"source", r.source}});
      if (!r.warning.empty()) out["memory_ceilings"].back()["warning"] = r.warning;
    }
  }
}

void add_transfer_and_latency(const ResultsView& view, const TargetView& t, json& out) {
  std::map<std::pair<std::string, std::string>, std::pair<std::vector<double>, std::string>> transfers;
  for (const json* e : suite_entries(view, t, "transfer")) {
    const double v = counter(*e, "bytes_per_second");
    if (v <= 0.0) continue;
    auto& row = transfers[{label_text(*e, "direction", "?"), label_text(*e, "memory", "?")}];
    if (row.first.empty() || v > max_of(row.first)) row.second = e->value("run_name", e->value("name", std::string()));
    row.first.push_back(v);
  }
  for (const auto& [key, row] : transfers) {
    out["transfer_ceilings"].push_back({{"target", t.id}, {"direction", key.first}, {"memory", key.second},
                                        {"value", max_of(row.first)}, {"median", median(row.first)}, {"unit", "B/s"},
                                        {"benchmark", row.second}});
  }
  std::vector<double> launches;
  for (const json* e : suite_entries(view, t, "latency")) {
    if (const double s = counter(*e, "seconds"); s > 0.0) launches.push_back(s);
  }
  if (!launches.empty()) {
    out["launch_latency"].push_back({{"target", t.id}, {"seconds", *std::min_element(launches.begin(), launches.end())},
                                     {"median", median(launches)}, {"repetitions", launches.size()}});
  }
}

// A part every target's derivation gives (placement.cpp's, dequant_ceilings.cpp's) added to this target's part of
// the section: each entry of its arrays stamped with the target, each note prefixed with it as this target's other
// notes are.
void add_part(const TargetView& t, const json& part, json& out) {
  for (const auto& [key, arr] : part.items()) {
    if (!arr.is_array()) continue;
    for (const json& e : arr) {
      if (key == "notes") {
        add_note(out, fmt::format("{}: {}", t.id, e.get<std::string>()));
        continue;
      }
      if (!out.contains(key)) out[key] = json::array();
      out[key].push_back(e);
      out[key].back()["target"] = t.id;
    }
  }
}

// The target's placements: the one placement every target's points get.
void add_placements(const ResultsView& view, const TargetView& t, json& out) {
  add_part(t, derive_placements(view, t, out), out);
}

// The target's dequant-dot ceilings and placements, where it ran dequant-dot kernels (the CPU's derivation's).
void add_dequant(const ResultsView& view, const TargetView& t, json& out) {
  add_part(t, derive_dequant_ceilings(view, t, out), out);
}

}  // namespace

json derive_target_roofline(const ResultsView& view, const TargetView& target) {
  json out = {{"compute_ceilings", json::array()}, {"memory_ceilings", json::array()}, {"memory_levels", json::array()},
              {"ridge_points", json::array()},     {"placements", json::array()},      {"transfer_ceilings", json::array()},
              {"launch_latency", json::array()},   {"notes", json::array()}};
  if (view.entries(target.id).empty()) return out;
  if (target.memory_levels.empty()) {
    add_note(out, fmt::format("{}: its facts list no memory levels, so its bandwidth has no level", target.id));
  }
  add_memory(view, target, out);
  const json compute = derive_compute_ceilings(view, target);  // the one derivation every target's go through
  for (const json& c : compute["compute_ceilings"]) out["compute_ceilings"].push_back(c);
  for (const json& n : compute["notes"]) add_note(out, n.get<std::string>());
  for (json r : derive_ridge_points(out)) {
    r["target"] = target.id;
    out["ridge_points"].push_back(std::move(r));
  }
  add_dequant(view, target, out);
  add_transfer_and_latency(view, target, out);  // before placements: their offload roof is a transfer ceiling
  add_placements(view, target, out);
  return out;
}

}  // namespace roofline
