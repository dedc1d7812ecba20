// Memory ceilings per level from the bandwidth sweep's entries: see memory_ceilings.hpp for the method.
#include "roofline/analysis/memory_ceilings.hpp"
#include "roofline/analysis/level_warnings.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "roofline/analysis/results.hpp"
#include "roofline/common/statistics.hpp"
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
  double best_write_allocate = -1.0;    // bytes_per_second_write_allocate of the best repetition (-1: absent)
  double median_write_allocate = -1.0;  // and of the median aggregate
  std::vector<double> write_allocate;   // per repetition, beside `repetitions`
  std::string benchmark;
  // The repetitions' robust relative spread: 1.4826 x MAD / median (0 with fewer than 3 repetitions).
  double spread() const {
    if (repetitions.size() < 3 || !(median > 0.0)) return 0.0;
    return robust_sigma(repetitions) / median;
  }
};

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
    p.write_allocate.push_back(counter(e, "bytes_per_second_write_allocate", -1.0));
    if (p.benchmark.empty()) p.benchmark = entry_name(e);
  }
  for (const char* aggregate : {"median", "max"}) {
    for (const json& e : benchmark_entries(results, "bandwidth", aggregate)) {
      if (!key_of(e, key)) continue;
      Point& p = points[key];
      p.bytes = std::get<2>(key);
      const bool median = std::string(aggregate) == "median";
      (median ? p.median : p.best) = counter(e, "bytes_per_second");
      (median ? p.median_write_allocate : p.best_write_allocate) = counter(e, "bytes_per_second_write_allocate", -1.0);
      if (p.benchmark.empty()) p.benchmark = entry_name(e);
    }
  }
  for (auto& [k, p] : points) {
    if (p.median < 0.0 && !p.repetitions.empty()) p.median = median(p.repetitions);
    if (p.best < 0.0 && !p.repetitions.empty()) {
      const auto it = std::max_element(p.repetitions.begin(), p.repetitions.end());
      p.best = *it;
      p.best_write_allocate = p.write_allocate[static_cast<std::size_t>(it - p.repetitions.begin())];
    }
    if (p.best < 0.0) p.best = p.median;
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

std::string implausible_cache(int level, double size, int cores_per_instance, double previous_bytes, double seen_bytes) {
  // The largest per-core share of a cache level any CPU has had: L1d 192 KiB (Apple; x86 48 KiB), L2 4 MiB,
  // L3 32 MiB (AMD EPYC 9175F: 512 MiB over 16 cores, one per CCD). A guest that reports its host's whole L3 as
  // its own (508 MiB per core on a Zen 5 VM, 150 MiB per core on an Emerald Rapids one) exceeds them.
  static const double kLargestShare[] = {0.0, 256.0 * 1024, 8.0 * 1024 * 1024, 64.0 * 1024 * 1024};
  const double share = size / std::max(cores_per_instance, 1);
  if (level >= 1 && level <= 3 && share > kLargestShare[level]) {
    return fmt::format("L{} reported as {} per instance shared by {} core{} ({} per core, more than any CPU has, e.g. "
                       "a VM passing on its host's cache): the size is no prior for the levels, the curve alone "
                       "places L{}.", level, format_bytes(size), std::max(cores_per_instance, 1),
                       cores_per_instance > 1 ? "s" : "", format_bytes(share), level);
  }
  if (previous_bytes > 0.0 && seen_bytes <= previous_bytes) {
    return fmt::format("L{} reported as {} for these threads, no larger than the level before it ({}): the size is "
                       "no prior for the levels.", level, format_bytes(seen_bytes), format_bytes(previous_bytes));
  }
  return "";
}

std::vector<ReportedLevel> reported_levels(const json& machine, int threads, const std::string& policy) {
  return reported_levels(host_facts_from_machine(machine), threads, policy);
}

std::vector<ReportedLevel> reported_levels(const HostFacts& host, int threads, const std::string& policy) {
  std::vector<ReportedLevel> out;
  for (int level = 1; level <= 3; ++level) {
    for (const CacheFacts& c : host.caches) {
      if (c.level.value_or(0) != level || c.type == "instruction") continue;
      const double size = c.size_bytes;
      if (size <= 0.0) continue;
      int per_instance = static_cast<int>(c.cores_per_instance.value_or(0));
      if (per_instance <= 0) per_instance = level <= 2 ? 1 : 1 << 20;  // unknown: L1/L2 per core, L3 shared
      const int instances = static_cast<int>(c.instances.value_or(0));
      int used = policy == "spread" ? threads : (threads + per_instance - 1) / per_instance;
      if (instances > 0) used = std::min(used, instances);
      ReportedLevel r{fmt::format("L{}", level), size * std::max(used, 1)};
      const std::string why = implausible_cache(level, size, per_instance, out.empty() ? 0.0 : out.back().bytes,
                                                size * std::max(used, 1));
      if (!why.empty()) {
        r.plausible = false;
        r.why = why;
      }
      out.push_back(std::move(r));
      break;
    }
  }
  return out;
}

namespace {

using KernelPoints = std::map<std::string, std::vector<const Point*>>;  // kernel -> its sizes

struct Range {
  std::string level;
  double lo, hi;
  std::string source;
  std::string warning = {};  // a named warning (plateaus.hpp), "" when none
};

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
std::set<std::string> streaming_kernels(const json& results) {
  std::set<std::string> out;
  const json& context = results["context"];
  if (!context.contains("suites") || !context["suites"].is_object()) return out;
  const json& bandwidth = context["suites"].value("bandwidth", json::object());
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

// The levels at one thread count, appended to out["memory_levels"] and out["notes"]; returns their ranges.
std::vector<Range> levels_for(int threads, const KernelPoints& kernels, const std::vector<ReportedLevel>& reported,
                              const std::set<std::string>& streaming, json& out) {
  std::vector<std::string> left_out;
  const std::vector<std::string> swept = swept_kernels_of(kernels, streaming, left_out);
  const std::string& reference = swept.front();
  const std::string prefix = fmt::format("{} thread{}: ", threads, threads == 1 ? "" : "s");
  if (!left_out.empty()) {
    out["notes"].push_back(prefix + fmt::format("{} (streaming stores, which bypass the caches, so their curves do "
                                                "not step where a cache ends) do not vote on the levels.",
                                                fmt::join(left_out, ", ")));
  }
  std::vector<std::vector<CurvePoint>> curves;
  for (const std::string& k : swept) curves.push_back(curve_of(kernels.at(k)));
  // As many levels as the machine reports caches (an implausible size is still a level that exists), + DRAM.
  PlateauOptions options;
  options.max_levels = (reported.empty() ? 3 : reported.size()) + 1;
  for (const ReportedLevel& r : reported) {
    if (!r.plausible) out["notes"].push_back(prefix + r.why);
  }
  const LevelDetection d = detect_levels(curves, reported, options);
  // Say when the repetitions scatter so much that the plateaus are a guess (a shared machine under load).
  std::vector<double> spreads;
  for (const CurvePoint& p : d.curve) spreads.push_back(p.spread);
  if (!spreads.empty() && median(spreads) > 0.1) {
    out["notes"].push_back(prefix + fmt::format("the repetitions scatter by {:.0f}% (median robust spread): the "
                                                "machine was busy, and the levels below may be misplaced; "
                                                "measure again on a quiet machine.", 100.0 * median(spreads)));
  }
  std::vector<Range> ranges;
  if (!d.plateaus.empty()) {
    for (const LevelLabel& l : d.labels.levels) {
      ranges.push_back({l.level, l.min_bytes, l.max_bytes, l.source, l.warning});
      // The level's bandwidth: the reference kernel's median over its plateau (the combined curve only finds
      // it; a stray plateau folded into the level widens its range, not its bandwidth).
      const Plateau& core = d.plateaus[l.plateau];
      std::vector<double> inside;
      for (const Point* p : kernels.at(reference)) {
        if (in_range(p->bytes, core.min_bytes, core.max_bytes)) inside.push_back(p->median);
      }
      out["memory_levels"].push_back({{"threads", threads},
                                      {"level", l.level},
                                      {"reference_kernel", reference},
                                      {"detected_from", swept},
                                      {"min_bytes", bytes_or_null(l.min_bytes)},
                                      {"max_bytes", bytes_or_null(l.max_bytes)},
                                      {"bandwidth", inside.empty() ? l.bandwidth : median(inside)},
                                      {"inferred_bytes", bytes_or_null(l.inferred_bytes)},
                                      {"reported_bytes", bytes_or_null(l.reported_bytes)},
                                      {"agreement", l.agreement},
                                      {"source", l.source}});
      if (!l.warning.empty()) out["memory_levels"].back()["warning"] = l.warning;
    }
    for (const std::string& n : d.labels.notes) out["notes"].push_back(prefix + n);
  } else if (std::any_of(reported.begin(), reported.end(), [](const ReportedLevel& r) { return r.plausible; })) {
    out["notes"].push_back(prefix + fmt::format("the '{}' curve has too few sizes for plateaus ({}); levels come "
                                                "from the plausible reported cache sizes only.", reference,
                                                d.curve.size()));
    double lo = 0.0;
    const ReportedLevel* last = nullptr;
    for (const ReportedLevel& r : reported) {
      if (!r.plausible) continue;
      last = &r;
      ranges.push_back({r.name, lo, r.bytes, "reported"});
      out["memory_levels"].push_back({{"threads", threads}, {"level", r.name}, {"reference_kernel", reference},
                                      {"min_bytes", bytes_or_null(lo)}, {"max_bytes", bytes_or_null(r.bytes)},
                                      {"bandwidth", nullptr}, {"inferred_bytes", nullptr},
                                      {"reported_bytes", bytes_or_null(r.bytes)}, {"agreement", "unchecked"},
                                      {"source", "reported"}});
      lo = r.bytes * 1.03;  // just above, so in_range's slack does not put one size in two levels
    }
    ranges.push_back({"DRAM", 2.0 * last->bytes, 1e30, "reported"});
  } else {
    out["notes"].push_back(prefix + "too few sizes for plateaus and no reported cache sizes: no memory levels.");
  }
  return ranges;
}

// Each kernel's best repetition inside each level's range; a level seen twice keeps the better one. Both
// byte counts: value (STREAM's) and value_write_allocate (null when the file predates that counter).
// plateau_median, the median over the level's sizes of each size's median, is the level's typical
// bandwidth: it does not jump when one size bumps or the level's edge moves by a size between runs, so the
// CI gate judges it (key_figures.cpp) while the roof stays the best repetition.
// The first size of a level past a knee is often still partly served by the level before it, and the ceiling
// (the best repetition inside the level) would take the knee's help for the level's bandwidth (a synthetic step
// from 100 to 24 GB/s over an octave puts a size at 27 GB/s just past the knee). So a level after the first one
// leaves out of its ceiling a leading size whose median lies above every other size's of the level by more than
// 7.5%, unless its own repetitions scatter by more (twice its noise: noise, not the knee). The level's range
// stays the segmentation's; a sawtooth does not trigger it (its high sizes are no higher than the level's others).
const Point* knee_size(const std::vector<const Point*>& pts, const Range& r) {
  std::vector<const Point*> inside;
  for (const Point* p : pts) {
    if (in_range(p->bytes, r.lo, r.hi)) inside.push_back(p);
  }
  if (inside.size() < 3) return nullptr;
  std::sort(inside.begin(), inside.end(), [](const Point* a, const Point* b) { return a->bytes < b->bytes; });
  double rest = 0.0;
  for (std::size_t i = 1; i < inside.size(); ++i) rest = std::max(rest, inside[i]->median);
  const Point* first = inside.front();
  const double noise = 2.0 * 1.25 * first->spread() / std::sqrt(std::max<double>(first->repetitions.size(), 1.0));
  const bool above = rest > 0.0 && std::log(first->median / rest) > std::max(std::log(1.075), noise);
  return above ? first : nullptr;
}

void ceilings_for(int threads, const KernelPoints& kernels, const std::vector<Range>& ranges,
                  std::vector<json>& ceilings) {
  for (const auto& [kernel, pts] : kernels) {
    std::map<std::string, json> best_by_level;
    for (std::size_t ri = 0; ri < ranges.size(); ++ri) {
      const Range& r = ranges[ri];
      const Point* knee = ri > 0 ? knee_size(pts, r) : nullptr;
      const Point* best = nullptr;
      double lo = 0.0, hi = 0.0;
      int count = 0;
      std::vector<double> medians;  // each size's median: their median is the plateau's typical bandwidth
      for (const Point* p : pts) {
        if (!in_range(p->bytes, r.lo, r.hi) || p == knee) continue;
        if (best == nullptr || p->best > best->best) best = p;
        medians.push_back(p->median);
        lo = count == 0 ? p->bytes : std::min(lo, p->bytes);
        hi = count == 0 ? p->bytes : std::max(hi, p->bytes);
        ++count;
      }
      if (best == nullptr) continue;
      const auto rate_or_null = [](double v) { return v >= 0.0 ? json(v) : json(nullptr); };
      json c = {{"level", r.level},     {"kernel", kernel},       {"threads", threads},
                {"value", best->best},  {"unit", "B/s"},          {"min_bytes", static_cast<std::uint64_t>(lo)},
                {"max_bytes", static_cast<std::uint64_t>(hi)},   {"median", best->median},
                {"plateau_median", median(medians)},
                {"value_write_allocate", rate_or_null(best->best_write_allocate)},
                {"median_write_allocate", rate_or_null(best->median_write_allocate)},
                {"points", count},      {"benchmark", best->benchmark}, {"source", r.source}};
      if (!r.warning.empty()) c["warning"] = r.warning;
      auto it = best_by_level.find(r.level);
      if (it == best_by_level.end() || it->second["value"].get<double>() < best->best) best_by_level[r.level] = c;
    }
    for (auto& [level, c] : best_by_level) ceilings.push_back(std::move(c));
  }
}

// Says where thread counts found different sets of levels (the hardware is the same; the sweep was not).
void check_consistency(const std::map<int, std::vector<Range>>& by_threads, json& notes) {
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

// ---- Page sizes (issue 24), apart from the level detection: the main sweep's DRAM rows say the pages they
// asked for and got; the suite "bandwidth_pages" (read and triad at DRAM sizes on 4 KiB pages) gives
// page_size_ceilings, in the DRAM range the main sweep found.

// Whether a share of huge pages means the request was granted: whole arrays round to 2 MiB, so a granted
// request is all but its mapping's last pages.
const char* huge_page_grant(double fraction) {
  if (fraction >= 0.95) return "granted";
  return fraction <= 0.05 ? "not granted" : "partly granted";
}

// Each iteration entry's huge-page share (huge_page_bytes / resident_bytes) by benchmark name, where the run
// recorded its pages.
std::map<std::string, double> huge_fractions(const json& results) {
  std::map<std::string, double> out;
  for (const char* suite : {"bandwidth", "bandwidth_pages"}) {
    for (const json& e : benchmark_entries(results, suite)) {
      const double resident = counter(e, "resident_bytes", -1.0), huge = counter(e, "huge_page_bytes", -1.0);
      if (resident > 0.0 && huge >= 0.0) out.emplace(entry_name(e), huge / resident);
    }
  }
  return out;
}

json fraction_or_null(const std::map<std::string, double>& fractions, const json& row) {
  const auto it = fractions.find(row.value("benchmark", std::string()));
  return it == fractions.end() ? json(nullptr) : json(it->second);
}

// The 4 KiB-page points as the main collection reads them: the suite's entries relabelled "bandwidth".
std::map<Key, Point> small_page_points(const json& results) {
  json doc = {{"context", results["context"]}, {"benchmarks", json::array()}};
  if (!results.contains("benchmarks") || !results["benchmarks"].is_array()) return {};
  for (const json& e : results["benchmarks"]) {
    if (!e.is_object() || !e.contains("labels") || !e["labels"].is_object()) continue;
    const json& l = e["labels"];
    if (l.value("suite", std::string()) != "bandwidth_pages" || l.value("pages", std::string()) != "4K") continue;
    json copy = e;
    copy["labels"]["suite"] = "bandwidth";
    doc["benchmarks"].push_back(std::move(copy));
  }
  return collect_points(doc);
}

// page_size_ceilings: each kernel's best 4 KiB-page repetition from the smallest DRAM size of the main
// sweep at its thread count up; a thread count without a DRAM level gets none, and a note.
json small_page_ceilings(const json& results, const json& main_ceilings, const std::map<std::string, double>& fractions,
                         json& notes) {
  std::map<int, KernelPoints> by_threads;
  const std::map<Key, Point> points = small_page_points(results);
  for (const auto& [key, p] : points) by_threads[std::get<0>(key)][std::get<1>(key)].push_back(&p);
  json out = json::array();
  for (const auto& [threads, kernels] : by_threads) {
    Range dram{"DRAM", 0.0, 1e30, ""};
    for (const json& c : main_ceilings) {
      if (c.value("level", "") != "DRAM" || c.value("threads", 0) != threads) continue;
      const double lo = c.value("min_bytes", 0.0);
      if (dram.source.empty() || lo < dram.lo) dram = {"DRAM", lo, 1e30, c.value("source", "curve")};
    }
    if (dram.source.empty()) {
      notes.push_back(fmt::format("{} thread{}: read and triad ran on 4 KiB pages, but the main sweep found no DRAM "
                                  "level there: no 4 KiB-page ceiling.", threads, threads == 1 ? "" : "s"));
      continue;
    }
    std::vector<json> rows;
    ceilings_for(threads, kernels, {dram}, rows);
    if (rows.empty()) {
      notes.push_back(fmt::format("{} thread{}: read and triad ran on 4 KiB pages below the DRAM range of the "
                                  "main sweep (from {}): no 4 KiB-page ceiling.", threads, threads == 1 ? "" : "s",
                                  format_bytes(dram.lo)));
    }
    for (json& r : rows) {
      r["pages"] = "4K";
      r["huge_page_fraction"] = fraction_or_null(fractions, r);
      out.push_back(std::move(r));
    }
  }
  return out;
}

// A DRAM row's figure at `threads` for `kernel`, or 0.
double dram_value(const json& rows, int threads, const std::string& kernel) {
  for (const json& r : rows) {
    if (r.value("level", "") == "DRAM" && r.value("threads", 0) == threads && r.value("kernel", "") == kernel) {
      return r.value("value", 0.0);
    }
  }
  return 0.0;
}

// The THP mode the run recorded, for notes ("" when the file has none).
std::string thp_mode(const HostFacts& host) {
  if (!host.thp_present) return "";
  if (host.thp.empty()) return fmt::format(" ({})", host.thp_source);
  return fmt::format(" (transparent huge pages: {}, defrag: {})", host.thp, host.thp_defrag);
}

// Notes: a page request not granted, and the 4 KiB-page figures beside the huge-page ones.
void page_notes(const HostFacts& host, const json& main_ceilings, const json& small, json& notes) {
  std::map<std::pair<int, std::string>, double> worst;  // (threads, pages) -> the lowest share of a DRAM row
  for (const json* rows : {&main_ceilings, &small}) {
    for (const json& r : *rows) {
      if (r.value("level", "") != "DRAM" || !r.contains("huge_page_fraction") || !r["huge_page_fraction"].is_number()) continue;
      const auto key = std::make_pair(r.value("threads", 0), r.value("pages", std::string("2M")));
      const double f = r["huge_page_fraction"].get<double>();
      const auto [it, inserted] = worst.emplace(key, f);
      if (!inserted) it->second = std::min(it->second, f);
    }
  }
  for (const auto& [key, f] : worst) {
    const auto& [threads, pages] = key;
    const std::string who = fmt::format("{} thread{}", threads, threads == 1 ? "" : "s");
    if (pages == "2M" && f < 0.95) {
      notes.push_back(fmt::format("{}: the DRAM arrays asked for 2 MiB pages were {}: {:.0f}% of their resident bytes "
                                  "on huge pages{}; their DRAM figures are {}on 4 KiB pages.", who, huge_page_grant(f),
                                  100.0 * f, thp_mode(host), f <= 0.05 ? "" : "partly "));
    } else if (pages == "4K" && f > 0.05) {
      notes.push_back(fmt::format("{}: the 4 KiB-page arrays (MADV_NOHUGEPAGE) were {:.0f}% on huge pages anyway{}.",
                                  who, 100.0 * f, thp_mode(host)));
    }
  }
  if (small.empty()) return;
  std::vector<std::string> ratios;
  for (const json& r : small) {
    if (r.value("kernel", "") != "read") continue;
    const int threads = r.value("threads", 0);
    const double huge = dram_value(main_ceilings, threads, "read");
    if (huge > 0.0) ratios.push_back(fmt::format("{:.2f} at {} thread{}", r.value("value", 0.0) / huge, threads, threads == 1 ? "" : "s"));
  }
  notes.push_back(fmt::format(
      "DRAM read and triad were also measured on 4 KiB pages (page_size_ceilings, pages \"4K\": madvise(MADV_NOHUGEPAGE), "
      "as likwid-bench and STREAM allocate){}. The DRAM roof is the better of the two, and says which pages. Page "
      "records cover the CPU's arrays; OpenCL/CUDA host buffers will carry the same record when those targets exist "
      "(pinned host memory is page-locked).",
      ratios.empty() ? "" : fmt::format("; read on 4 KiB pages / read on 2 MiB pages: {}", fmt::join(ratios, ", "))));
}

// Adds page sizes to `out` (derive_memory_ceilings'): "pages" and "huge_page_fraction" on the DRAM rows,
// the page_size_ceilings list (empty when the run measured none) and the notes.
void add_page_sizes(const json& results, const HostFacts& host, json& out) {
  const std::map<std::string, double> fractions = huge_fractions(results);
  for (json& c : out["memory_ceilings"]) {
    if (c.value("level", "") != "DRAM") continue;
    c["pages"] = "2M";
    c["huge_page_fraction"] = fraction_or_null(fractions, c);
  }
  out["page_size_ceilings"] = small_page_ceilings(results, out["memory_ceilings"], fractions, out["notes"]);
  page_notes(host, out["memory_ceilings"], out["page_size_ceilings"], out["notes"]);
}

}  // namespace

std::pair<double, int> plateau_median_over(const ResultsView& view, int threads, const std::string& kernel, double lo,
                                           double hi) {
  const json& results = view.target_document(kCpuTargetId);
  if (!results.is_object() || !results.contains("context")) return {0.0, 0};
  std::vector<double> medians;
  for (const auto& [key, p] : collect_points(results)) {
    if (std::get<0>(key) == threads && std::get<1>(key) == kernel && in_range(p.bytes, lo, hi)) medians.push_back(p.median);
  }
  return {medians.empty() ? 0.0 : median(medians), static_cast<int>(medians.size())};
}

json derive_memory_ceilings(const json& results) {
  const ResultsView view(results);
  return derive_memory_ceilings(view);
}

json derive_memory_ceilings(const ResultsView& view) {
  const json& results = view.target_document(kCpuTargetId);
  json out = {{"memory_ceilings", json::array()}, {"memory_levels", json::array()}, {"notes", json::array()}};
  if (!results.is_object() || !results.contains("context")) return out;
  const std::map<Key, Point> points = collect_points(results);
  if (points.empty()) return out;
  const std::string policy = binding_policy(results);
  const std::set<std::string> streaming = streaming_kernels(results);

  std::map<int, KernelPoints> by_threads;
  for (const auto& [key, p] : points) by_threads[std::get<0>(key)][std::get<1>(key)].push_back(&p);

  std::vector<json> ceilings;
  std::map<int, std::vector<Range>> ranges_by_threads;
  for (const auto& [threads, kernels] : by_threads) {
    const std::vector<Range> ranges =
        levels_for(threads, kernels, reported_levels(view.host(), threads, policy), streaming, out);
    ceilings_for(threads, kernels, ranges, ceilings);
    ranges_by_threads[threads] = ranges;
  }
  check_consistency(ranges_by_threads, out["notes"]);
  warn_superlinear_levels(ceilings, out["memory_levels"], out["notes"]);
  std::sort(ceilings.begin(), ceilings.end(), [](const json& a, const json& b) {
    const auto key = [](const json& c) {
      return std::make_tuple(c["threads"].get<int>(), level_rank(c["level"].get<std::string>()),
                             kernel_rank(c["kernel"].get<std::string>()), c["kernel"].get<std::string>());
    };
    return key(a) < key(b);
  });
  for (json& c : ceilings) out["memory_ceilings"].push_back(std::move(c));
  add_page_sizes(results, view.host(), out);
  out["notes"].push_back(
      "Bandwidth is given in two byte counts: STREAM's (value, bytes_per_second: the words a kernel names) and "
      "with write-allocate (value_write_allocate, bytes_per_second_write_allocate: each cached store also reads "
      "its line, so copy/scale move 3 words per element, add/triad 4, write 2; the _nt kernels' streaming "
      "stores do not, so theirs equal STREAM's). Roofs and placements use STREAM's count.");
  out["notes"].push_back("Memory levels come from the plateaus of every swept kernel's bandwidth curve combined "
                         "(medians of the repetitions, their spread widening the flatness test); a ceiling is the "
                         "best repetition inside a level's range.");
  return out;
}

}  // namespace roofline
