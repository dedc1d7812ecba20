// Plateau and knee detection on bandwidth-vs-size curves, and level labelling: see plateaus.hpp.
#include "roofline/analysis/plateaus.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/common/units.hpp"

namespace roofline {

namespace {

double median_of(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 == 1 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

bool within(double value, double reference, double tolerance) {
  return reference > 0.0 && std::fabs(value / reference - 1.0) <= tolerance;
}

struct Segment {
  std::vector<std::size_t> members;
  double level(const std::vector<CurvePoint>& curve) const {
    std::vector<double> v;
    for (std::size_t i : members) v.push_back(curve[i].value);
    return median_of(v);
  }
};

Plateau to_plateau(const Segment& s, const std::vector<CurvePoint>& curve) {
  Plateau p;
  p.first = s.members.front();
  p.last = s.members.back();
  p.points = s.members.size();
  p.min_bytes = curve[p.first].bytes;
  p.max_bytes = curve[p.last].bytes;
  p.level = s.level(curve);
  return p;
}

}  // namespace

std::vector<Plateau> find_plateaus(std::vector<CurvePoint>& curve, const PlateauOptions& options) {
  std::sort(curve.begin(), curve.end(), [](const CurvePoint& a, const CurvePoint& b) { return a.bytes < b.bytes; });
  // Greedy pass: extend the current segment while points stay near its median.
  std::vector<Segment> segments;
  for (std::size_t i = 0; i < curve.size(); ++i) {
    if (!segments.empty() && within(curve[i].value, segments.back().level(curve), options.tolerance)) {
      segments.back().members.push_back(i);
    } else {
      segments.push_back({{i}});
    }
  }
  // Short segments are transitions (or outliers); drop them, then merge neighbours at the same level
  // (a plateau interrupted by one noisy point).
  std::vector<Segment> kept;
  for (const Segment& s : segments) {
    if (s.members.size() >= options.min_points) kept.push_back(s);
  }
  for (bool merged = true; merged;) {
    merged = false;
    for (std::size_t j = 0; j + 1 < kept.size(); ++j) {
      if (within(kept[j + 1].level(curve), kept[j].level(curve), options.tolerance)) {
        kept[j].members.insert(kept[j].members.end(), kept[j + 1].members.begin(), kept[j + 1].members.end());
        kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(j) + 1);
        merged = true;
        break;
      }
    }
  }
  // Only now, with noisy neighbours merged, drop runs too short in size to be a level (see min_octaves).
  kept.erase(std::remove_if(kept.begin(), kept.end(),
                            [&](const Segment& s) {
                              const double first = curve[s.members.front()].bytes;
                              const double last = curve[s.members.back()].bytes;
                              const double octaves = first > 0.0 ? std::log2(last / first) : 0.0;
                              return octaves < options.min_octaves - 1e-9;
                            }),
             kept.end());
  // Bandwidth only falls as the working set outgrows a level; a plateau below its successor is where
  // per-call overhead dominated (tiny sizes), not a memory level.
  for (std::size_t j = 0; j + 1 < kept.size();) {
    if (kept[j].level(curve) < kept[j + 1].level(curve) * (1.0 - options.tolerance)) {
      kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(j));
      j = j > 0 ? j - 1 : 0;
    } else {
      ++j;
    }
  }
  // Trim edges that are still on a knee's slope (within tolerance of the median, but not of its level):
  // the first size past a knee is often partly served by the level before and would inflate a ceiling.
  for (Segment& s : kept) {
    const double level = s.level(curve);
    const double edge = options.tolerance / 2.0;
    while (s.members.size() > options.min_points && !within(curve[s.members.front()].value, level, edge)) {
      s.members.erase(s.members.begin());
    }
    while (s.members.size() > options.min_points && !within(curve[s.members.back()].value, level, edge)) {
      s.members.pop_back();
    }
  }
  std::vector<Plateau> out;
  for (const Segment& s : kept) out.push_back(to_plateau(s, curve));
  return out;
}

double plateau_octaves(const Plateau& p) {
  return p.min_bytes > 0.0 ? std::log2(p.max_bytes / p.min_bytes) : 0.0;
}

bool flat_after_last_knee(const std::vector<CurvePoint>& sorted_curve, const std::vector<Plateau>& plateaus,
                          double octaves) {
  if (plateaus.size() < 2 || sorted_curve.empty()) return false;
  const Plateau& last = plateaus.back();
  return last.last + 1 == sorted_curve.size() && plateau_octaves(last) >= octaves - 1e-9;
}

std::string level_from_reported(double bytes, const std::vector<ReportedLevel>& reported) {
  std::string last_name;
  double last_bytes = 0.0;
  for (const ReportedLevel& r : reported) {
    if (r.bytes <= 0.0) continue;
    if (bytes <= r.bytes) return r.name;
    last_name = r.name;
    last_bytes = r.bytes;
  }
  if (last_bytes > 0.0 && bytes >= 2.0 * last_bytes) return "DRAM";
  return "";  // nothing reported, or between the last level and twice its size: not decidable
}

LevelLabels label_levels(const std::vector<CurvePoint>& curve, const std::vector<Plateau>& plateaus,
                         const std::vector<ReportedLevel>& reported) {
  LevelLabels out;
  if (plateaus.empty()) return out;
  // Reported capacities by level number (1..3); cache_count is the deepest reported level.
  double known[5] = {0, 0, 0, 0, 0};
  int cache_count = 0;
  for (const ReportedLevel& r : reported) {
    if (r.bytes <= 0.0 || r.name.size() != 2 || r.name[0] != 'L') continue;
    const int k = r.name[1] - '0';
    if (k < 1 || k > 3) continue;
    known[k] = r.bytes;
    cache_count = std::max(cache_count, k);
  }
  const int dram_level = cache_count > 0 ? cache_count + 1 : 4;
  const auto name = [&](int k) { return k >= dram_level ? std::string("DRAM") : fmt::format("L{}", k); };
  const auto knee_matches = [&](std::size_t j, int k) {
    const double lo = plateaus[j].max_bytes;
    const double hi = plateaus[j + 1].min_bytes;
    return k >= 1 && k <= 3 && known[k] > 0.0 && known[k] >= lo / 2.0 && known[k] <= hi * 2.0;
  };

  // Level of the first plateau: the first reported level its middle fits in (L1 when nothing is known).
  int cur = 1;
  if (cache_count > 0) {
    const double centre = std::sqrt(plateaus[0].min_bytes * plateaus[0].max_bytes);
    cur = dram_level;
    for (int k = 1; k <= cache_count; ++k) {
      if (known[k] > 0.0 && known[k] >= centre) {
        cur = k;
        break;
      }
    }
  }

  const std::size_t m = plateaus.size();
  std::vector<int> label(m, 0);
  bool previous_matched = true;
  for (std::size_t j = 0; j + 1 < m; ++j) {
    int match = 0;
    const int from = previous_matched ? cur : std::max(1, cur - 1);
    for (int k = from; k <= cache_count; ++k) {
      if (knee_matches(j, k)) {
        match = k;
        break;
      }
    }
    label[j] = match > 0 ? match : std::min(cur, dram_level);
    previous_matched = match > 0;
    cur = label[j] + 1;
  }
  // The last plateau: DRAM, or the cache level the sweep ended in.
  const Plateau& last = plateaus.back();
  int last_label = std::min(cur, dram_level);
  if (last_label < dram_level) {
    const bool beyond_reported = cache_count > 0 && known[cache_count] > 0.0 &&
                                 last.min_bytes >= 2.0 * known[cache_count];
    const bool flat_unknown = cache_count == 0 && m >= 2 && plateau_octaves(last) >= 2.0 - 1e-9;
    if (beyond_reported || flat_unknown) last_label = dram_level;
  }
  label[m - 1] = last_label;

  for (std::size_t j = 0; j < m; ++j) {
    LevelLabel l;
    l.level = name(label[j]);
    l.plateau = j;
    l.min_bytes = plateaus[j].min_bytes;
    l.max_bytes = plateaus[j].max_bytes;
    l.source = "curve";
    const bool is_cache = label[j] < dram_level;
    l.reported_bytes = is_cache ? known[label[j]] : 0.0;
    if (j + 1 < m) {
      const double lo = plateaus[j].max_bytes;
      const double hi = plateaus[j + 1].min_bytes;
      l.inferred_bytes = std::sqrt(lo * hi);
      if (!is_cache || l.reported_bytes <= 0.0) {
        l.agreement = "unchecked";
      } else if (knee_matches(j, label[j])) {
        l.agreement = "agrees";
      } else {
        l.agreement = "disagrees";
        out.notes.push_back(fmt::format(
            "{}: reported {} per the machine facts, but the curve leaves this plateau at about {} (between {} "
            "and {}); the curve is used.",
            l.level, format_bytes(l.reported_bytes), format_bytes(l.inferred_bytes), format_bytes(lo),
            format_bytes(hi)));
      }
    } else {
      l.agreement = "unchecked";
      if (is_cache) {
        out.notes.push_back(fmt::format("The sweep ended on the {} plateau at {}: no DRAM plateau was reached.",
                                        l.level, format_bytes(curve.empty() ? l.max_bytes : curve.back().bytes)));
      }
    }
    if (j > 0 && label[j] == label[j - 1]) {
      out.notes.push_back(fmt::format("{} shows two plateaus ({}..{} and {}..{}); its ceiling is the better one.",
                                      l.level, format_bytes(plateaus[j - 1].min_bytes),
                                      format_bytes(plateaus[j - 1].max_bytes), format_bytes(l.min_bytes),
                                      format_bytes(l.max_bytes)));
    }
    out.levels.push_back(l);
  }
  // Reported levels the curve shows no plateau for (their knee coincides with another level's).
  for (int k = 1; k <= cache_count; ++k) {
    if (known[k] <= 0.0 || k < label[0]) continue;
    if (std::find(label.begin(), label.end(), k) == label.end() && k < last_label) {
      out.notes.push_back(fmt::format("L{} (reported {}) has no plateau of its own in the curve.", k,
                                      format_bytes(known[k])));
    }
  }
  return out;
}

}  // namespace roofline
