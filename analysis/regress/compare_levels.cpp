// Compare like with like (issue 36): a memory key figure of the new run is taken over the base's working sets,
// and a level boundary that moved between the runs is said on a line of its own, never read as a change of
// bandwidth. On an unchanged build the levels' edges can move by a size or two (a noisy size at a knee); the
// plateau median over a different set of sizes would then differ by the share of the knee it took in.
#include "roofline/regress/compare_levels.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "roofline/model/results_targets.hpp"
#include "roofline/model/memory_ceilings.hpp"
#include "roofline/model/record_fields.hpp"
#include "roofline/common/statistics.hpp"
#include "roofline/common/units.hpp"

namespace roofline {
using nlohmann::json;

namespace {

// (target, threads, level): a level of one target at one thread count.
using LevelKey = std::tuple<std::string, int, std::string>;

// How a line names a level's thread count: "2T", after the target's prefix ("" for the CPU, target_prefix).
std::string threads_prefix(const LevelKey& key) {
  return fmt::format("{}{}T", target_prefix(std::get<0>(key)), std::get<1>(key));
}

// (target, threads, level) -> (min_bytes, max_bytes) of every memory_levels row measured at a thread count (a
// device's rows, which have none, are not compared yet), read from the typed roofline.memory_levels.
std::map<LevelKey, std::pair<double, double>> levels_by_threads(const ResultsDocument& results) {
  std::map<LevelKey, std::pair<double, double>> out;
  if (!results.roofline) return out;
  for (const DetectedLevelRecord& l : fields::records_of(results.roofline->memory_levels)) {
    if (!l.threads || !l.level) continue;
    out[{target_of(l), static_cast<int>(*l.threads), *l.level}] = {fields::amount(ROOFLINE_FIELD(l, min_bytes)),
                                                                  fields::amount(ROOFLINE_FIELD(l, max_bytes))};
  }
  return out;
}

// One step of a file's CPU sweep, in octaves: 1 / context.suites.bandwidth.points_per_octave (the plan's density:
// 1 when a quick plan over its budget swept one size per octave); half an octave where the file does not say.
// context.suites is not typed yet: read from the context's `extra`.
double sweep_step_octaves(const ResultsDocument& results) {
  const json& c = results.context.extra;
  const json* ppo = nullptr;
  if (c.contains("suites") && c["suites"].is_object() && c["suites"].contains("bandwidth") &&
      c["suites"]["bandwidth"].is_object() && c["suites"]["bandwidth"].contains("points_per_octave")) {
    ppo = &c["suites"]["bandwidth"]["points_per_octave"];
  }
  return ppo != nullptr && ppo->is_number() && ppo->get<double>() >= 1.0 ? 1.0 / ppo->get<double>() : 0.5;
}

// Whether two sizes differ by more than one step of the sweep (the coarser of the two runs', with slack for
// rounding): a boundary can only be placed to within a step (issue 46: "boundaries within one sweep step").
bool moved(double a, double b, double step) {
  return a > 0.0 && b > 0.0 && std::fabs(std::log2(b / a)) > step + 0.1;
}

}  // namespace

namespace {

// Whether `key` is the first (smallest) level of its target and thread count in `levels`: its start is where the
// curve's smallest sizes stop being bound by the per-call overhead, not a boundary between two levels.
bool first_level(const std::map<LevelKey, std::pair<double, double>>& levels, const LevelKey& key) {
  const double start = levels.at(key).first;
  return std::none_of(levels.begin(), levels.end(), [&](const auto& other) {
    return std::get<0>(other.first) == std::get<0>(key) && std::get<1>(other.first) == std::get<1>(key) &&
           other.first != key && other.second.first < start;
  });
}

}  // namespace

std::vector<std::string> level_start_changes(const ResultsDocument& base, const ResultsDocument& next) {
  const auto b = levels_by_threads(base), n = levels_by_threads(next);
  const double step = std::max(sweep_step_octaves(base), sweep_step_octaves(next));
  std::vector<std::string> out;
  for (const auto& [key, range] : b) {
    const auto it = n.find(key);
    if (it == n.end() || !first_level(b, key) || !first_level(n, key)) continue;
    if (moved(range.first, it->second.first, step)) {
      out.push_back(fmt::format("{} {} began at {}, now {}", threads_prefix(key), std::get<2>(key),
                                format_bytes(range.first), format_bytes(it->second.first)));
    }
  }
  return out;
}

std::vector<std::string> level_boundary_changes(const ResultsDocument& base, const ResultsDocument& next) {
  const auto b = levels_by_threads(base), n = levels_by_threads(next);
  const double step = std::max(sweep_step_octaves(base), sweep_step_octaves(next));
  std::vector<std::string> out;
  for (const auto& [key, range] : b) {
    const std::string& level = std::get<2>(key);
    const auto it = n.find(key);
    if (it == n.end()) {
      out.push_back(fmt::format("{} {} ({}..{}) is not among the new run's levels", threads_prefix(key), level,
                                format_bytes(range.first), format_bytes(range.second)));
      continue;
    }
    // The first level's start, in both runs, is no boundary between levels (level_start_changes says it).
    const bool start_of_first = first_level(b, key) && first_level(n, key);
    if (!start_of_first && moved(range.first, it->second.first, step)) {
      out.push_back(fmt::format("{} {} began at {}, now {}", threads_prefix(key), level, format_bytes(range.first),
                                format_bytes(it->second.first)));
    }
    if (moved(range.second, it->second.second, step)) {
      out.push_back(fmt::format("{} {} ended at {}, now {}", threads_prefix(key), level, format_bytes(range.second),
                                format_bytes(it->second.second)));
    }
  }
  for (const auto& [key, range] : n) {
    if (!b.contains(key)) {
      out.push_back(fmt::format("{} {} ({}..{}) is new: the base run has no such level", threads_prefix(key),
                                std::get<2>(key), format_bytes(range.first), format_bytes(range.second)));
    }
  }
  return out;
}

namespace {

// The sizes a memory figure measured at a thread count was taken over: "memory/<level>/<kernel>/threads:T" (after
// its target's prefix) is the plateau median of that target's memory_ceilings row of that level, kernel and threads (the larger, where a level is listed twice, as
// key_figures takes it). False when the id is not such a figure or the file has no such row.
struct FigureSizes {
  std::string target, level, kernel;
  int threads = 0;
  double lo = 0.0, hi = 0.0;
};
bool figure_sizes(const ResultsDocument& results, const KeyFigure& f, FigureSizes& out) {
  if (f.group != "memory" || f.threads <= 0) return false;
  // "<prefix>memory/<level>/<kernel>/threads:T": the prefix names the figure's target (target_prefix).
  const std::size_t m = f.id.find("memory/");
  if (m == std::string::npos) return false;
  const std::string prefix = f.id.substr(0, m);
  const std::size_t a = m + 6, b = f.id.find('/', a + 1), c = f.id.find('/', b + 1);
  if (b == std::string::npos || c == std::string::npos) return false;
  out.level = f.id.substr(a + 1, b - a - 1);
  out.kernel = f.id.substr(b + 1, c - b - 1);
  out.threads = f.threads;
  if (!results.roofline || !results.roofline->memory_ceilings) return false;
  double best = -1.0;
  for (const MemoryCeilingRecord& r : *results.roofline->memory_ceilings) {
    if (target_prefix(target_of(r)) != prefix) continue;
    if (r.level.value_or("") != out.level || r.kernel.value_or("") != out.kernel || r.threads.value_or(0) != out.threads) continue;
    const double v = r.plateau_median.value_or(r.value.value_or(0.0));
    if (v > best && r.min_bytes && r.max_bytes) {
      best = v;
      out.target = target_of(r);
      out.lo = *r.min_bytes;
      out.hi = *r.max_bytes;
    }
  }
  return best >= 0.0 && out.hi > 0.0;
}

}  // namespace

std::vector<std::string> align_memory_figures(const ResultsDocument& base, const std::vector<KeyFigure>& base_figures,
                                              const ResultsDocument& next, std::vector<KeyFigure>& next_figures) {
  std::map<std::string, const KeyFigure*> base_by_id;
  for (const KeyFigure& f : base_figures) base_by_id[f.id] = &f;
  std::vector<std::string> out;
  std::optional<std::vector<RecordedTarget>> targets;  // read where a figure's sizes moved: `next`'s targets
  for (KeyFigure& f : next_figures) {
    const auto it = base_by_id.find(f.id);
    if (it == base_by_id.end() || it->second->statistic != f.statistic || f.statistic != "plateau median") continue;
    FigureSizes b, n;
    if (!figure_sizes(base, *it->second, b) || !figure_sizes(next, f, n)) continue;
    // Taken over the base's sizes whenever a size of the quick sweep's finest grid (half an octave) moved.
    if (!moved(b.lo, n.lo, 0.5) && !moved(b.hi, n.hi, 0.5)) continue;
    if (!targets) targets = recorded_targets(next);
    if (find_target(*targets, n.target) == nullptr) continue;
    const auto [value, sizes] = plateau_median_over(target_document(next, n.target), f.threads, n.kernel, b.lo, b.hi);
    if (sizes == 0) continue;
    out.push_back(fmt::format("{}: taken over the base's sizes {}..{} ({} size{}): {} instead of {} over its own {}..{}",
                              f.id, format_bytes(b.lo), format_bytes(b.hi), sizes, sizes == 1 ? "" : "s",
                              format_si(value, f.unit), format_si(f.value, f.unit), format_bytes(n.lo),
                              format_bytes(n.hi)));
    f.value = value;
  }
  return out;
}

namespace {

// A repetition of the CPU's (its entries only: a device's rows name no threads) at `threads`, with `field`.
bool cpu_row(const BenchmarkEntry& e, int threads, std::optional<double> BenchmarkEntry::*field) {
  return (e.*field).has_value() && e.labels && e.labels->threads.value_or(0) == threads &&
         e.run_type.value_or("iteration") == "iteration" && target_of(e) == kCpuTargetId;
}

bool spread_row(const BenchmarkEntry& e, int threads) { return cpu_row(e, threads, &BenchmarkEntry::thread_rate_spread); }

// The median of `field` over the repetitions a memory figure was taken from: its kernel and thread count over its
// level's sizes.
std::optional<double> memory_median(const FigureSizes& sizes, const ResultsDocument& run,
                                    std::optional<double> BenchmarkEntry::*field) {
  std::vector<double> values;
  for (const BenchmarkEntry& e : run.benchmarks) {
    if (!cpu_row(e, sizes.threads, field) || e.labels->suite.value_or("") != "bandwidth" ||
        e.labels->kernel.value_or("") != sizes.kernel) {
      continue;
    }
    const double bytes = e.working_set_bytes.value_or(0.0);
    if (bytes >= sizes.lo && bytes <= sizes.hi) values.push_back(*(e.*field));
  }
  if (values.empty()) return std::nullopt;
  return median(values);
}

// "gemm/<precision>/batch:1/threads:T" and ".../batch:max/...": the median of `field` over the repetitions of every
// backend's entries of that precision and thread count at that batch (the largest the run measured for "max"); a
// figure of one backend's roof of the moment (".../of_roof_now") has none: it carries its own moment's probes.
std::optional<double> gemm_median(const KeyFigure& f, const ResultsDocument& run, std::optional<double> BenchmarkEntry::*field) {
  const std::vector<std::string> parts = [&] {
    std::vector<std::string> out;
    for (std::size_t at = 0;;) {
      const std::size_t slash = f.id.find('/', at);
      out.push_back(f.id.substr(at, slash == std::string::npos ? std::string::npos : slash - at));
      if (slash == std::string::npos) return out;
      at = slash + 1;
    }
  }();
  if (parts.size() != 4 || parts[0] != "gemm" || !parts[2].starts_with("batch:")) return std::nullopt;
  const std::string& precision = parts[1];
  const bool largest = parts[2] == "batch:max";
  std::map<long long, std::vector<double>> by_batch;
  for (const BenchmarkEntry& e : run.benchmarks) {
    if (!cpu_row(e, f.threads, field) || e.labels->suite.value_or("") != "gemm" ||
        e.labels->precision.value_or("") != precision || !e.labels->batch) {
      continue;
    }
    by_batch[*e.labels->batch].push_back(*(e.*field));
  }
  if (by_batch.empty()) return std::nullopt;
  const auto it = largest ? std::prev(by_batch.end()) : by_batch.find(1);
  if (it == by_batch.end()) return std::nullopt;
  return median(it->second);
}

// "dequant/<format>/threads:T": the repetitions of the format's dequant_dot benchmark (one per ISA and level) whose
// best call was the fastest, as the figure is (dequant_ceilings.hpp: the best row's best call).
std::optional<double> dequant_spread(const KeyFigure& f, const ResultsDocument& run) {
  const std::size_t a = f.id.find('/'), b = f.id.find('/', a + 1);
  if (a == std::string::npos || b == std::string::npos) return std::nullopt;
  const std::string format = f.id.substr(a + 1, b - a - 1);
  std::map<std::string, std::pair<double, std::vector<double>>> by_run;  // run_name -> (best rate, spreads)
  for (const BenchmarkEntry& e : run.benchmarks) {
    if (!spread_row(e, f.threads) || e.labels->suite.value_or("") != "dequant_dot" || e.labels->format.value_or("") != format) {
      continue;
    }
    auto& [best, spreads] = by_run[e.run_name.value_or(e.name.value_or(""))];
    best = std::max(best, e.weights_per_second.value_or(0.0));
    spreads.push_back(*e.thread_rate_spread);
  }
  const auto fastest = std::max_element(by_run.begin(), by_run.end(),
                                        [](const auto& x, const auto& y) { return x.second.first < y.second.first; });
  if (fastest == by_run.end()) return std::nullopt;
  return median(fastest->second.second);
}

}  // namespace

std::optional<double> figure_thread_spread(const ResultsDocument& reference, const KeyFigure& reference_figure,
                                           const ResultsDocument& run) {
  if (reference_figure.threads < 2) return std::nullopt;
  if (reference_figure.group == "dequant") return dequant_spread(reference_figure, run);
  FigureSizes sizes;
  if (!figure_sizes(reference, reference_figure, sizes) || sizes.target != kCpuTargetId) return std::nullopt;
  return memory_median(sizes, run, &BenchmarkEntry::thread_rate_spread);
}

std::optional<double> figure_thread_round_trip(const ResultsDocument& reference, const KeyFigure& reference_figure,
                                               const ResultsDocument& run) {
  if (reference_figure.threads < 2) return std::nullopt;
  if (reference_figure.group == "gemm") return gemm_median(reference_figure, run, &BenchmarkEntry::thread_round_trip_ns);
  if (reference_figure.group != "memory") return std::nullopt;
  FigureSizes sizes;
  if (!figure_sizes(reference, reference_figure, sizes) || sizes.target != kCpuTargetId) return std::nullopt;
  return memory_median(sizes, run, &BenchmarkEntry::thread_round_trip_ns);
}

}  // namespace roofline
