// Plateau detection on bandwidth-vs-size curves (segmentation, merging, trimming) and the combined curve
// of several kernels: see plateaus.hpp. Level labelling is in level_labels.cpp.
#include "roofline/analysis/plateaus.hpp"
#include "roofline/common/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace roofline {

namespace {

bool within(double value, double reference, double tolerance) {
  return reference > 0.0 && std::fabs(value / reference - 1.0) <= tolerance;
}

double safe_log(double v) { return std::log(std::max(v, 1e-300)); }

struct Segment {
  std::vector<std::size_t> members;
  double level(const std::vector<CurvePoint>& curve) const {
    std::vector<double> v;
    for (std::size_t i : members) v.push_back(curve[i].value);
    return median(v);
  }
  double spread(const std::vector<CurvePoint>& curve) const {
    std::vector<double> v;
    for (std::size_t i : members) v.push_back(curve[i].spread);
    return median(v);
  }
  double octaves(const std::vector<CurvePoint>& curve) const {
    const double first = curve[members.front()].bytes;
    return first > 0.0 ? std::log2(curve[members.back()].bytes / first) : 0.0;
  }
};

// Optimal partition of x[0..n) into contiguous pieces minimizing sum |x_i - median(piece)| + penalty per
// piece (dynamic programming; n is a few dozen sizes, so the cubic cost is negligible).
std::vector<Segment> segment(const std::vector<double>& x, double penalty) {
  const std::size_t n = x.size();
  std::vector<double> best(n + 1, std::numeric_limits<double>::infinity());
  std::vector<std::size_t> cut(n + 1, 0);
  best[0] = 0.0;
  for (std::size_t end = 1; end <= n; ++end) {
    for (std::size_t begin = 0; begin < end; ++begin) {
      const std::vector<double> piece(x.begin() + static_cast<std::ptrdiff_t>(begin),
                                      x.begin() + static_cast<std::ptrdiff_t>(end));
      const double m = median(piece);
      double cost = penalty;
      for (double v : piece) cost += std::fabs(v - m);
      if (best[begin] + cost < best[end]) {
        best[end] = best[begin] + cost;
        cut[end] = begin;
      }
    }
  }
  std::vector<Segment> out;
  for (std::size_t end = n; end > 0; end = cut[end]) {
    Segment s;
    for (std::size_t i = cut[end]; i < end; ++i) s.members.push_back(i);
    out.push_back(std::move(s));
  }
  std::reverse(out.begin(), out.end());
  return out;
}

double merge_tolerance(const Segment& a, const Segment& b, const std::vector<CurvePoint>& curve,
                       const PlateauOptions& options) {
  const double noise = 3.0 * std::max(a.spread(curve), b.spread(curve));
  return std::min(options.max_tolerance, std::max(options.tolerance, noise));
}

// Merges neighbouring plateaus at the same level (one level cut by a noisy stretch or a sawtooth); the
// transition points between them join when they are within tolerance of the merged level.
void merge_neighbours(std::vector<Segment>& kept, const std::vector<CurvePoint>& curve,
                      const PlateauOptions& options) {
  for (bool merged = true; merged;) {
    merged = false;
    for (std::size_t j = 0; j + 1 < kept.size(); ++j) {
      const double tol = merge_tolerance(kept[j], kept[j + 1], curve, options);
      if (!within(kept[j + 1].level(curve), kept[j].level(curve), tol)) continue;
      Segment joined;
      joined.members = kept[j].members;
      joined.members.insert(joined.members.end(), kept[j + 1].members.begin(), kept[j + 1].members.end());
      const double level = joined.level(curve);
      for (std::size_t i = kept[j].members.back() + 1; i < kept[j + 1].members.front(); ++i) {
        if (within(curve[i].value, level, tol)) joined.members.push_back(i);
      }
      std::sort(joined.members.begin(), joined.members.end());
      kept[j] = std::move(joined);
      kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(j) + 1);
      merged = true;
      break;
    }
  }
}

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
  if (curve.empty()) return {};
  std::vector<double> x;
  for (const CurvePoint& p : curve) x.push_back(safe_log(p.value));
  // Pieces too short in points or in size are transitions (or outliers): a level spans at least half an
  // octave, and at 4 sizes per octave the slope between two levels holds short runs that are not levels.
  // A piece is flat: members off its median by more than the tolerance (a sawtooth's low points, or the
  // ends of a piece the segmentation laid on a slope) are transitions too.
  std::vector<Segment> kept;
  for (Segment& s : segment(x, options.segment_penalty)) {
    const double level = s.level(curve);
    const double tol = merge_tolerance(s, s, curve, options);
    Segment flat;
    for (std::size_t i : s.members) {
      if (within(curve[i].value, level, tol)) flat.members.push_back(i);
    }
    if (flat.members.size() >= options.min_points && flat.octaves(curve) >= options.min_octaves - 1e-9) {
      kept.push_back(std::move(flat));
    }
  }
  merge_neighbours(kept, curve, options);
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
  merge_neighbours(kept, curve, options);
  // Trim edges that are still on a knee's slope (within tolerance of the median, but not of its level):
  // the first size past a knee is often partly served by the level before and would inflate a ceiling.
  for (Segment& s : kept) {
    const double level = s.level(curve);
    const double edge = options.tolerance / 2.0;
    while (s.members.size() > options.min_points && !within(curve[s.members.front()].value, level, edge) &&
           curve[s.members.front()].value > level) {
      s.members.erase(s.members.begin());
    }
    while (s.members.size() > options.min_points && !within(curve[s.members.back()].value, level, edge) &&
           curve[s.members.back()].value < level) {
      s.members.pop_back();
    }
  }
  std::vector<Plateau> out;
  for (const Segment& s : kept) out.push_back(to_plateau(s, curve));
  return out;
}

std::vector<CurvePoint> combined_curve(const std::vector<std::vector<CurvePoint>>& curves) {
  if (curves.empty()) return {};
  std::vector<CurvePoint> reference = curves.front();
  std::sort(reference.begin(), reference.end(),
            [](const CurvePoint& a, const CurvePoint& b) { return a.bytes < b.bytes; });
  const auto best_of = [](const std::vector<CurvePoint>& c) {
    double best = 0.0;
    for (const CurvePoint& p : c) best = std::max(best, p.value);
    return best;
  };
  const double scale = best_of(reference);
  std::vector<CurvePoint> out;
  for (const CurvePoint& r : reference) {
    double log_sum = 0.0, spread = 0.0;
    int count = 0;
    for (const std::vector<CurvePoint>& c : curves) {
      const double best = best_of(c);
      const CurvePoint* near = nullptr;
      for (const CurvePoint& p : c) {
        const double d = std::fabs(std::log2(p.bytes / r.bytes));
        if (d <= 0.25 && (near == nullptr || d < std::fabs(std::log2(near->bytes / r.bytes)))) near = &p;
      }
      if (near == nullptr || !(best > 0.0) || !(near->value > 0.0)) continue;
      log_sum += std::log(near->value / best);
      spread = std::max(spread, near->spread);
      ++count;
    }
    out.push_back({r.bytes, count > 0 ? scale * std::exp(log_sum / count) : r.value, spread});
  }
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

}  // namespace roofline
