// The bandwidth sweep's points and each kernel's ceilings over a level's range: see memory_points.hpp.
#include "memory_points.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>

#include "roofline/model/plateaus.hpp"
#include "roofline/model/record_fields.hpp"
#include "roofline/model/results.hpp"

namespace roofline::memory_detail {

std::string entry_name(const BenchmarkEntry& e) { return e.run_name ? *e.run_name : e.name.value_or(""); }

namespace {

using Variant = std::pair<long long, std::string>;  // width, pattern
using VariantKey = std::tuple<int, std::string, Variant, double>;

VariantKey variant_key_of(const SweepSample& s) {
  return VariantKey{s.threads, s.kernel, Variant{s.width, s.pattern}, s.bytes};
}

// A sample of one typed entry: false where it has no kernel, no positive size or no rate (variant_key_of's rules);
// a field the lenient reader kept in `extra` (written in another kind) reads as a reader of the file's JSON read it
// (record_fields.hpp).
bool typed_sample(const BenchmarkEntry& e, const std::string& aggregate, SweepSample& s) {
  if (!e.labels || !e.labels->kernel) return false;
  const EntryLabels& l = *e.labels;
  s.bytes = fields::amount(ROOFLINE_FIELD(e, working_set_bytes), 0.0);
  s.rate = fields::amount(ROOFLINE_FIELD(e, bytes_per_second), -1.0);
  if (s.bytes <= 0.0 || s.rate < 0.0) return false;
  s.aggregate = aggregate;
  s.threads = static_cast<int>(fields::whole(l.threads, l, "threads").value_or(0));
  s.kernel = *l.kernel;
  s.width = fields::whole(l.width, l, "width").value_or(0);
  // labels.pattern (a device's access pattern) is no field of the catalogue yet: the lenient reader keeps it in `extra`.
  const auto pattern = l.extra.find("pattern");
  s.pattern = pattern != l.extra.end() && pattern->is_string() ? pattern->get<std::string>() : "";
  s.write_allocate = fields::amount(ROOFLINE_FIELD(e, bytes_per_second_write_allocate), -1.0);
  s.name = entry_name(e);
  return true;
}

// Every variant's points, by (threads, kernel, variant, bytes).
std::map<VariantKey, Point> variant_points(const std::vector<SweepSample>& samples) {
  std::map<VariantKey, Point> points;
  std::map<VariantKey, std::pair<double, std::string>> best_repetition;  // its value and name
  for (const SweepSample& s : samples) {
    if (!s.aggregate.empty()) continue;
    const VariantKey key = variant_key_of(s);
    Point& p = points[key];
    p.bytes = s.bytes;
    p.repetitions.push_back(s.rate);
    auto& [best_value, best_name] = best_repetition[key];
    if (best_name.empty() || p.repetitions.back() > best_value) std::tie(best_value, best_name) = std::make_pair(s.rate, s.name);
    p.write_allocate.push_back(s.write_allocate);
    if (p.benchmark.empty()) p.benchmark = s.name;
  }
  for (const char* aggregate : {"median", "max"}) {
    for (const SweepSample& s : samples) {
      if (s.aggregate != aggregate) continue;
      Point& p = points[variant_key_of(s)];
      p.bytes = s.bytes;
      const bool median = std::string(aggregate) == "median";
      (median ? p.median : p.best) = s.rate;
      (median ? p.median_write_allocate : p.best_write_allocate) = s.write_allocate;
      if (p.benchmark.empty()) p.benchmark = s.name;
    }
  }
  for (auto& [k, p] : points) {
    std::tie(p.width, p.pattern) = std::get<2>(k);
    if (p.median < 0.0 && !p.repetitions.empty()) p.median = median(p.repetitions);
    if (p.best < 0.0 && !p.repetitions.empty()) {
      const auto it = std::max_element(p.repetitions.begin(), p.repetitions.end());
      p.best = *it;
      p.best_write_allocate = p.write_allocate[static_cast<std::size_t>(it - p.repetitions.begin())];
      // The best repetition's own name, where repetitions of one point carry several (a device's entries).
      p.benchmark = best_repetition.at(k).second;
    }
    if (p.best < 0.0) p.best = p.median;
  }
  return points;
}

// The variant kept for each (threads, kernel): see collect_points.
std::map<std::pair<int, std::string>, Variant> kept_variants(const std::map<VariantKey, Point>& points) {
  std::map<std::pair<int, std::string>, std::map<Variant, std::map<double, double>>> medians;
  for (const auto& [k, p] : points) medians[{std::get<0>(k), std::get<1>(k)}][std::get<2>(k)][p.bytes] = p.median;
  std::map<std::pair<int, std::string>, Variant> out;
  for (const auto& [kernel, variants] : medians) {
    std::map<double, std::size_t> seen;
    for (const auto& [v, curve] : variants) {
      for (const auto& [bytes, m] : curve) ++seen[bytes];
    }
    double best_score = -1e300;
    for (const auto& [v, curve] : variants) {
      double score = 0.0;
      for (const auto& [bytes, m] : curve) {
        if (seen[bytes] == variants.size()) score += std::log(std::max(m, 1e-300));
      }
      if (score > best_score) std::tie(best_score, out[kernel]) = std::make_pair(score, v);
    }
  }
  return out;
}

}  // namespace

std::vector<SweepSample> sweep_samples(const ResultsDocument& results, const std::string& suite) {
  std::vector<SweepSample> out;
  SweepSample s;
  for (const char* aggregate : {"", "median", "max"}) {
    for (const BenchmarkEntry* e : benchmark_entries(results, suite, aggregate)) {
      if (typed_sample(*e, aggregate, s)) out.push_back(s);
    }
  }
  return out;
}

std::map<Key, Point> collect_points(const std::vector<SweepSample>& samples) {
  const std::map<VariantKey, Point> all = variant_points(samples);
  const auto kept = kept_variants(all);
  std::map<Key, Point> points;
  for (const auto& [k, p] : all) {
    if (kept.at({std::get<0>(k), std::get<1>(k)}) == std::get<2>(k)) points[Key{std::get<0>(k), std::get<1>(k), std::get<3>(k)}] = p;
  }
  return points;
}

namespace {

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

// Each kernel's best repetition inside each level's range; a level seen twice keeps the better one. Both
// byte counts: value (STREAM's) and value_write_allocate (null where a size lacks it; absent where none of the
// target's entries carry that counter: a file from before it, a device's kernels).
// plateau_median, the median over the level's sizes of each size's median (plateau_figure), is the level's typical
// bandwidth: it does not jump when one size bumps or the level's edge moves by a size between runs, so the
// CI gate judges it (key_figures.cpp) while the roof stays the best repetition. `Row`: a memory_ceilings or a
// page_size_ceilings row.
template <class Row>
void level_ceilings(int threads, const KernelPoints& kernels, const std::vector<Range>& ranges,
                    bool with_write_allocate, std::vector<Row>& ceilings) {
  for (const auto& [kernel, pts] : kernels) {
    std::map<std::string, Row> best_by_level;
    double smallest = 0.0;
    for (const Point* p : pts) smallest = smallest == 0.0 ? p->bytes : std::min(smallest, p->bytes);
    for (std::size_t ri = 0; ri < ranges.size(); ++ri) {
      const Range& r = ranges[ri];
      const Point* knee = ri > 0 ? knee_size(pts, r) : nullptr;
      const Point* best = nullptr;
      double lo = 0.0, hi = 0.0;
      int count = 0;
      std::vector<std::pair<double, double>> medians;  // each size's median: the plateau figure (plateaus.hpp)
      bool starts_curve = false;                      // holds the kernel's smallest size
      for (const Point* p : pts) {
        if (!in_range(p->bytes, r.lo, r.hi) || p == knee) continue;
        if (best == nullptr || p->best > best->best) best = p;
        if (p->bytes == smallest) starts_curve = true;
        medians.emplace_back(p->bytes, p->median);
        lo = count == 0 ? p->bytes : std::min(lo, p->bytes);
        hi = count == 0 ? p->bytes : std::max(hi, p->bytes);
        ++count;
      }
      if (best == nullptr) continue;
      const auto rate_or_null = [](double v) { return v >= 0.0 ? std::optional<double>(v) : std::nullopt; };
      Row c;
      c.level = r.level;
      c.kernel = kernel;
      c.value = best->best;
      c.unit = "B/s";
      set_whole(ROOFLINE_FIELD(c, min_bytes), static_cast<long long>(static_cast<std::uint64_t>(lo)));
      set_whole(ROOFLINE_FIELD(c, max_bytes), static_cast<long long>(static_cast<std::uint64_t>(hi)));
      c.median = best->median;
      c.plateau_median = plateau_figure(medians, starts_curve);
      c.points = count;
      c.benchmark = best->benchmark;
      c.source = r.source;
      // A page-size row has no warning, width or pattern of its own: kept in `extra`, as the reader keeps them.
      if (!r.warning.empty()) {
        if constexpr (requires { c.warning; }) c.warning = r.warning;
        else c.extra["warning"] = r.warning;
      }
      if (with_write_allocate) {
        fields::set(ROOFLINE_FIELD(c, value_write_allocate), rate_or_null(best->best_write_allocate));
        fields::set(ROOFLINE_FIELD(c, median_write_allocate), rate_or_null(best->median_write_allocate));
      }
      if (threads > 0) c.threads = threads;  // where the entries name a thread count
      if (best->width > 0) {
        if constexpr (requires { c.width; }) c.width = best->width;
        else c.extra["width"] = best->width;
      }
      if (!best->pattern.empty()) {
        if constexpr (requires { c.pattern; }) c.pattern = nlohmann::json(best->pattern);
        else c.extra["pattern"] = best->pattern;
      }
      auto it = best_by_level.find(r.level);
      if (it == best_by_level.end() || it->second.value.value_or(0.0) < best->best) best_by_level[r.level] = c;
    }
    for (auto& [level, c] : best_by_level) ceilings.push_back(std::move(c));
  }
}

}  // namespace

void ceilings_for(int threads, const KernelPoints& kernels, const std::vector<Range>& ranges,
                  bool with_write_allocate, std::vector<MemoryCeilingRecord>& ceilings) {
  level_ceilings(threads, kernels, ranges, with_write_allocate, ceilings);
}
void ceilings_for(int threads, const KernelPoints& kernels, const std::vector<Range>& ranges,
                  bool with_write_allocate, std::vector<PageSizeCeilingRecord>& ceilings) {
  level_ceilings(threads, kernels, ranges, with_write_allocate, ceilings);
}

}  // namespace roofline::memory_detail
