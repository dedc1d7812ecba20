// Memory ceilings per level from the bandwidth sweep's entries: see memory_ceilings.hpp for the method. The
// points and each level's ceilings are memory_points.cpp's, the 4 KiB-page ceilings memory_pages.cpp's.
#include "roofline/model/memory_ceilings.hpp"
#include "roofline/model/level_warnings.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "roofline/model/plateaus.hpp"
#include "roofline/model/record_fields.hpp"
#include "roofline/model/results.hpp"
#include "roofline/common/statistics.hpp"
#include "roofline/common/units.hpp"

#include "memory_points.hpp"

namespace roofline {
using nlohmann::json;
using namespace memory_detail;

namespace {

// Display order of the bandwidth kernels in the table (unknown names sort after, by name).
int kernel_rank(const std::string& kernel) {
  static const char* order[] = {"copy", "scale", "add", "triad", "read", "write", "copy_nt", "triad_nt", "write_nt"};
  for (int i = 0; i < 9; ++i) {
    if (kernel == order[i]) return i;
  }
  return 100;
}

// A level's place among the target's (its caches innermost first, then main memory; unknown names after).
int level_rank(const LevelNames& names, const std::string& level) {
  const auto at = std::find(names.caches.begin(), names.caches.end(), level);
  if (at != names.caches.end()) return static_cast<int>(at - names.caches.begin());
  return level == names.main ? static_cast<int>(names.caches.size()) : 100;
}

std::string threads_prefix(int threads) {
  return threads > 0 ? fmt::format("{} thread{}: ", threads, threads == 1 ? "" : "s") : std::string();
}

// A level's size in bytes, rounded, where it has one (written as an integer), else the null a row states.
std::optional<long long> bytes_or_null(double b) {
  return b > 0.0 ? std::optional<long long>(static_cast<long long>(static_cast<std::uint64_t>(std::llround(b))))
                 : std::nullopt;
}

// A row of memory_levels: the level, the kernel its curve was read on and where it came from, its bandwidth unknown
// (null) until the caller sets it (`fields::set`: an unknown figure is the explicit null the row states).
DetectedLevelRecord level_row(const std::string& level, const std::string& reference, const std::string& source) {
  DetectedLevelRecord row;
  row.level = level;
  row.reference_kernel = reference;
  row.source = source;
  fields::set(ROOFLINE_FIELD(row, bandwidth), std::nullopt);
  return row;
}

}  // namespace

std::vector<ReportedLevel> reported_levels(const HostFacts& host, int threads, const std::string& policy) {
  std::vector<ReportedCache> caches;
  for (const CacheFacts& c : host.caches) {
    caches.push_back({static_cast<int>(c.level.value_or(0)), c.type, c.size_bytes,
                      static_cast<int>(c.instances.value_or(0)), static_cast<int>(c.cores_per_instance.value_or(0)),
                      c.source});
  }
  return cache_verdict(caches, threads, policy, host.memory_total_bytes).levels;
}

LevelNames level_names(const RecordedTarget& t) {
  LevelNames names;
  names.main = t.main_memory().empty() ? "memory" : t.main_memory();
  if (!t.caches.empty()) return names;  // a cache topology: the CPU's levels L1..L3, as it reports them
  names.caches.clear();
  for (std::size_t i = 0; i + 1 < t.memory_levels.size(); ++i) names.caches.push_back(t.memory_levels[i].name);
  if (names.caches.empty()) {
    names.caches.push_back("cache");
    names.why_at_most = "its facts list no cache level, and one unlisted level is called 'cache'";
  } else {
    names.why_at_most = fmt::format("its facts list {} cache level{}", names.caches.size(),
                                    names.caches.size() == 1 ? "" : "s");
  }
  return names;
}

CacheVerdict target_cache_verdict(const RecordedTarget& t, int threads) {
  if (!t.caches.empty()) return cache_verdict(t.caches, std::max(threads, 1), t.binding, t.memory_total_bytes);
  CacheVerdict v;
  for (std::size_t i = 0; i + 1 < t.memory_levels.size(); ++i) {
    const double bytes = t.memory_levels[i].capacity_bytes;
    if (bytes <= 0.0) continue;
    v.levels.emplace_back(t.memory_levels[i].name, bytes);
    v.largest_plausible_bytes = std::max(v.largest_plausible_bytes, bytes);
  }
  v.dram_threshold_bytes = v.largest_plausible_bytes;
  return v;
}

std::vector<ReportedLevel> target_reported_levels(const RecordedTarget& t, int threads) {
  return target_cache_verdict(t, threads).levels;
}

namespace {

// The kernels whose curves find the levels at one thread count: `read` first (the memory roof and
// reference curve) when it was swept, else the kernel with the most sizes; then every kernel with at least
// half as many sizes as the most swept one (the quick profile's spot kernels, measured at one size per
// level, are not curves). Streaming-store kernels (`streaming`) do not vote unless nothing else was swept:
// their stores bypass the caches, so their curves do not step where a cache ends and, combined with the
// others, flatten the knees (on Zen 4 at 2 threads they erased L1).
// `left_out`: the streaming-store kernels swept as fully as the voters.
std::vector<std::string> swept_kernels_of(const KernelPoints& kernels, const std::set<std::string>& streaming,
                                          std::vector<std::string>& left_out) {
  const bool any_cached =
      std::any_of(kernels.begin(), kernels.end(), [&](const auto& k) { return !streaming.count(k.first); });
  const auto votes = [&](const std::string& k) { return !any_cached || !streaming.count(k); };
  std::size_t most = 0;
  for (const auto& [kernel, pts] : kernels) {
    if (votes(kernel)) most = std::max(most, pts.size());
  }
  const std::size_t enough = std::max<std::size_t>(4, (most + 1) / 2);
  std::string reference;
  const auto score = [&](const std::string& k) { return std::make_tuple(kernels.at(k).size(), -kernel_rank(k)); };
  for (const auto& [kernel, pts] : kernels) {
    if (votes(kernel) && (reference.empty() || score(kernel) > score(reference))) reference = kernel;
  }
  if (kernels.count("read") && votes("read") && kernels.at("read").size() >= enough) reference = "read";
  std::vector<std::string> out = {reference};
  for (const auto& [kernel, pts] : kernels) {
    if (kernel != reference && pts.size() >= enough) (votes(kernel) ? out : left_out).push_back(kernel);
  }
  return out;
}

// The streaming-store kernels of the results file's kernel table (suites.bandwidth.kernels, non_temporal
// true); empty for files that predate the table.
std::set<std::string> streaming_kernels(const ResultsDocument& results) {
  std::set<std::string> out;
  // context.suites is not typed yet: the typed context keeps it in `extra`.
  const json& suites = results.context.extra.value("suites", json::object());
  if (!suites.is_object()) return out;
  const json& bandwidth = suites.value("bandwidth", json::object());
  if (!bandwidth.is_object() || !bandwidth.contains("kernels") || !bandwidth["kernels"].is_array()) return out;
  for (const json& row : bandwidth["kernels"]) {
    if (row.is_object() && row.contains("non_temporal") && row["non_temporal"] == true && row.contains("kernel") &&
        row["kernel"].is_string()) {
      out.insert(row["kernel"].get<std::string>());
    }
  }
  return out;
}

std::vector<CurvePoint> curve_of(const std::vector<const Point*>& pts) {
  std::vector<CurvePoint> c;
  for (const Point* p : pts) {
    c.push_back({p->bytes, p->median, p->spread(), static_cast<double>(std::max<std::size_t>(p->repetitions.size(), 1))});
  }
  return c;
}

// The levels from the plausible reported cache sizes alone, main memory from twice the last of them, appended to
// out.memory_levels after `why` in out.notes; their ranges. For a curve that cannot place them: one that gave
// no plateaus, or an emulator's (every size runs at the emulator's speed, so the curve is flat and says nothing of
// the caches).
std::vector<Range> reported_level_ranges(const std::vector<ReportedLevel>& reported, const std::string& reference,
                                         const LevelNames& names, const std::string& why, RooflineSection& out) {
  out.notes->push_back(why);
  std::vector<Range> ranges;
  double lo = 0.0;
  const ReportedLevel* last = nullptr;
  for (const ReportedLevel& r : reported) {
    if (!r.plausible) continue;
    last = &r;
    ranges.push_back({r.name, lo, r.bytes, "reported"});
    DetectedLevelRecord& row = out.memory_levels->emplace_back(level_row(r.name, reference, "reported"));
    set_whole(ROOFLINE_FIELD(row, min_bytes), bytes_or_null(lo));
    set_whole(ROOFLINE_FIELD(row, max_bytes), bytes_or_null(r.bytes));
    set_whole(ROOFLINE_FIELD(row, inferred_bytes), std::nullopt);
    set_whole(ROOFLINE_FIELD(row, reported_bytes), bytes_or_null(r.bytes));
    row.agreement = "unchecked";
    lo = r.bytes * 1.03;  // just above, so in_range's slack does not put one size in two levels
  }
  ranges.push_back({names.main, 2.0 * last->bytes, 1e30, "reported"});
  // The range the ceilings name DRAM is a level of the table too (issue 46: a 2-thread sweep whose DRAM flipped
  // from 75 to 40 GB/s at its last size gave no plateaus, and its levels then ended at L3).
  DetectedLevelRecord& row = out.memory_levels->emplace_back(level_row(names.main, reference, "reported"));
  set_whole(ROOFLINE_FIELD(row, min_bytes), bytes_or_null(2.0 * last->bytes));
  set_whole(ROOFLINE_FIELD(row, max_bytes), std::nullopt);
  set_whole(ROOFLINE_FIELD(row, inferred_bytes), std::nullopt);
  set_whole(ROOFLINE_FIELD(row, reported_bytes), std::nullopt);
  row.agreement = "unchecked";
  return ranges;
}

// The levels at one thread count, appended to out.memory_levels and out.notes; returns their ranges.
// `emulated`: a user-mode emulator ran the sweep (context.machine.emulated), so its curve cannot place the levels.
std::vector<Range> levels_for(int threads, const KernelPoints& kernels, const std::vector<ReportedLevel>& reported,
                              const std::set<std::string>& streaming, const LevelNames& names, bool emulated,
                              RooflineSection& out) {
  std::vector<std::string>& notes = *out.notes;
  std::vector<std::string> left_out;
  const std::vector<std::string> swept = swept_kernels_of(kernels, streaming, left_out);
  const std::string& reference = swept.front();
  const std::string prefix = threads_prefix(threads);
  const std::size_t first_row = out.memory_levels->size();
  if (!left_out.empty()) {
    notes.push_back(prefix + fmt::format("{} (streaming stores, which bypass the caches, so their curves do "
                                         "not step where a cache ends) do not vote on the levels.",
                                         fmt::join(left_out, ", ")));
  }
  std::vector<std::vector<CurvePoint>> curves;
  for (const std::string& k : swept) curves.push_back(curve_of(kernels.at(k)));
  // As many levels as the machine reports caches (an implausible size is still a level that exists), + DRAM.
  PlateauOptions options;
  options.max_levels = (reported.empty() ? names.caches.size() : reported.size()) + 1;
  for (const ReportedLevel& r : reported) {
    if (!r.plausible) notes.push_back(prefix + r.why);
  }
  const LevelDetection d = detect_levels(curves, reported, options, names);
  // Say when the repetitions scatter so much that the plateaus are a guess (a shared machine under load).
  std::vector<double> spreads;
  for (const CurvePoint& p : d.curve) spreads.push_back(p.spread);
  if (!spreads.empty() && median(spreads) > 0.1) {
    notes.push_back(prefix + fmt::format("the repetitions scatter by {:.0f}% (median robust spread): the "
                                         "machine was busy, and the levels below may be misplaced; "
                                         "measure again on a quiet machine.", 100.0 * median(spreads)));
  }
  std::vector<Range> ranges;
  const bool any_plausible =
      std::any_of(reported.begin(), reported.end(), [](const ReportedLevel& r) { return r.plausible; });
  if (emulated && any_plausible) {
    // Not the plateaus: the emulator runs every size at its own speed (issue 62: qemu-user's curve is flat from 4 KiB
    // to 256 MiB), so the curve would make one level of the whole sweep. The reported caches say where each level
    // ends; the ceilings inside them are still the emulator's figures, as the report's EMULATED RUN warning says.
    ranges = reported_level_ranges(
        reported, reference, names,
        prefix + fmt::format("emulated run: the '{}' curve is the emulator's speed at every size, not the caches', "
                             "so levels come from the plausible reported cache sizes only, and {} from twice the "
                             "last of them; no figure below is this CPU's.", reference, names.main),
        out);
  } else if (!d.plateaus.empty()) {
    for (const LevelLabel& l : d.labels.levels) {
      ranges.push_back({l.level, l.min_bytes, l.max_bytes, l.source, l.warning});
      // The level's bandwidth: the reference kernel's median over its plateau (the combined curve only finds
      // it; a stray plateau folded into the level widens its range, not its bandwidth).
      const Plateau& core = d.plateaus[l.plateau];
      std::vector<double> inside;
      for (const Point* p : kernels.at(reference)) {
        if (in_range(p->bytes, core.min_bytes, core.max_bytes)) inside.push_back(p->median);
      }
      DetectedLevelRecord& row = out.memory_levels->emplace_back(level_row(l.level, reference, l.source));
      row.detected_from = swept;
      set_whole(ROOFLINE_FIELD(row, min_bytes), bytes_or_null(l.min_bytes));
      set_whole(ROOFLINE_FIELD(row, max_bytes), bytes_or_null(l.max_bytes));
      fields::set(ROOFLINE_FIELD(row, bandwidth), inside.empty() ? l.bandwidth : median(inside));
      set_whole(ROOFLINE_FIELD(row, inferred_bytes), bytes_or_null(l.inferred_bytes));
      set_whole(ROOFLINE_FIELD(row, reported_bytes), bytes_or_null(l.reported_bytes));
      row.agreement = l.agreement;
      if (!l.warning.empty()) row.warning = l.warning;
    }

    for (const std::string& n : d.labels.notes) notes.push_back(prefix + n);
  } else if (any_plausible) {
    ranges = reported_level_ranges(
        reported, reference, names,
        prefix + fmt::format("the '{}' curve gave no plateaus ({} sizes: too few, or the memory moved while "
                             "sweeping); levels come from the plausible reported cache sizes only, and {} from "
                             "twice the last of them.", reference, d.curve.size(), names.main),
        out);
  } else {
    notes.push_back(prefix + "too few sizes for plateaus and no reported cache sizes: no memory levels.");
  }
  // The thread count where the entries name one, the reference kernel's vector width where it has one.
  for (std::size_t i = first_row; i < out.memory_levels->size(); ++i) {
    DetectedLevelRecord& row = (*out.memory_levels)[i];
    if (threads > 0) row.threads = threads;
    if (const long long width = kernels.at(reference).front()->width; width > 0) row.reference_width = width;
  }
  return ranges;
}

// Says where thread counts found different sets of levels (the hardware is the same; the sweep was not).
void check_consistency(const std::map<int, std::vector<Range>>& by_threads, std::vector<std::string>& notes) {
  std::map<int, std::vector<std::string>> names;
  for (const auto& [threads, ranges] : by_threads) {
    for (const Range& r : ranges) {
      if (std::find(names[threads].begin(), names[threads].end(), r.level) == names[threads].end()) {
        names[threads].push_back(r.level);
      }
    }
  }
  for (const auto& [threads, list] : names) {
    if (list == names.begin()->second) continue;
    notes.push_back(fmt::format(
        "{} threads show the levels {} but {} thread{} show {}: a level whose plateau is too short at one thread "
        "count (its knee merges with a neighbour's when the threads' share of a cache changes) is missing there.",
        threads, fmt::join(list, ", "), names.begin()->first, names.begin()->first == 1 ? "" : "s",
        fmt::join(names.begin()->second, ", ")));
  }
}

}  // namespace

std::pair<double, int> plateau_median_over(const ResultsDocument& part, int threads, const std::string& kernel, double lo, double hi) {
  std::vector<std::pair<double, double>> medians;
  double smallest = 0.0;  // the kernel's smallest size: a range holding it starts the curve (plateau_figure)
  for (const auto& [key, p] : collect_points(sweep_samples(part))) {
    if (std::get<0>(key) != threads || std::get<1>(key) != kernel) continue;
    smallest = smallest == 0.0 ? p.bytes : std::min(smallest, p.bytes);
    if (in_range(p.bytes, lo, hi)) medians.emplace_back(p.bytes, p.median);
  }
  const bool starts_curve = std::any_of(medians.begin(), medians.end(), [&](const auto& m) { return m.first == smallest; });
  return {plateau_figure(medians, starts_curve), static_cast<int>(medians.size())};
}

RooflineSection derive_memory_ceilings(const ResultsDocument& results, const RecordedTarget& target) {
  RooflineSection out;
  out.memory_ceilings.emplace();
  out.memory_levels.emplace();
  out.notes.emplace();
  const std::map<Key, Point> points = collect_points(sweep_samples(results));
  if (points.empty()) return out;
  const std::set<std::string> streaming = streaming_kernels(results);
  const LevelNames names = level_names(target);
  // The host's facts say whether an emulator ran the run: the CPU's sweep then (a device's runs on the device).
  const bool emulated = target.is_cpu() && host_facts(results.context).emulated;
  const bool write_allocate = std::any_of(points.begin(), points.end(), [](const auto& p) {
    return p.second.best_write_allocate >= 0.0 || p.second.median_write_allocate >= 0.0;
  });

  std::map<int, KernelPoints> by_threads;
  for (const auto& [key, p] : points) by_threads[std::get<0>(key)][std::get<1>(key)].push_back(&p);

  std::vector<MemoryCeilingRecord>& ceilings = *out.memory_ceilings;
  std::map<int, std::vector<Range>> ranges_by_threads;
  for (const auto& [threads, kernels] : by_threads) {
    const std::vector<Range> ranges =
        levels_for(threads, kernels, target_reported_levels(target, threads), streaming, names, emulated, out);
    ceilings_for(threads, kernels, ranges, write_allocate, ceilings);
    ranges_by_threads[threads] = ranges;
  }
  check_consistency(ranges_by_threads, *out.notes);
  warn_superlinear_levels(ceilings, *out.memory_levels, *out.notes);
  std::sort(ceilings.begin(), ceilings.end(), [&](const MemoryCeilingRecord& a, const MemoryCeilingRecord& b) {
    const auto key = [&](const MemoryCeilingRecord& c) {
      return std::make_tuple(fields::whole(ROOFLINE_FIELD(c, threads)).value_or(0), level_rank(names, c.level.value_or("")),
                             kernel_rank(c.kernel.value_or("")), c.kernel.value_or(""));
    };
    return key(a) < key(b);
  });
  add_page_sizes(results, target, out);
  if (write_allocate) out.notes->push_back(
      "Bandwidth is given in two byte counts: STREAM's (value, bytes_per_second: the words a kernel names) and "
      "with write-allocate (value_write_allocate, bytes_per_second_write_allocate: each cached store also reads "
      "its line, so copy/scale move 3 words per element, add/triad 4, write 2; the _nt kernels' streaming "
      "stores do not, so theirs equal STREAM's). Roofs and placements use STREAM's count.");
  out.notes->push_back("Memory levels come from the plateaus of every swept kernel's bandwidth curve combined "
                       "(medians of the repetitions, their spread widening the flatness test); a ceiling is the "
                       "best repetition inside a level's range.");
  return out;
}

}  // namespace roofline
