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

// Whether two neighbouring runs within tolerance are still two levels: both long, the second lower by at
// least min_long_step, and that step beyond 4 standard errors of the difference of their medians (the
// larger of the two runs' robust sigma of log(bandwidth), the curve's noise, over the square roots of
// their size counts). A small step between two short runs is noise as likely as a level; between two long
// ones, noise would have to persist over octaves.
bool clearly_two_levels(const Segment& a, const Segment& b, const std::vector<CurvePoint>& curve,
                        const PlateauOptions& options) {
  const auto is_long = [&](const Segment& s) {
    return s.members.size() >= options.min_long_points && s.octaves(curve) >= options.long_octaves - 1e-9;
  };
  if (!is_long(a) || !is_long(b)) return false;
  const double step = safe_log(a.level(curve)) - safe_log(b.level(curve));
  if (step < std::log1p(options.min_long_step)) return false;
  const auto sigma = [&](const Segment& s) {
    std::vector<double> logs;
    for (std::size_t i : s.members) logs.push_back(safe_log(curve[i].value));
    return robust_sigma(logs);
  };
  const double noise = std::max(sigma(a), sigma(b));
  const double n_a = static_cast<double>(a.members.size()), n_b = static_cast<double>(b.members.size());
  return step >= 4.0 * noise * std::sqrt(1.0 / n_a + 1.0 / n_b);
}

// Log of bandwidth lost per octave along a run (positive when falling): the Theil-Sen slope, the median of
// the slopes between every two of its sizes, so that one outlier does not tilt it.
double fall_per_octave(const Segment& s, const std::vector<CurvePoint>& curve) {
  std::vector<double> slopes;
  for (std::size_t a = 0; a < s.members.size(); ++a) {
    for (std::size_t b = a + 1; b < s.members.size(); ++b) {
      const CurvePoint& p = curve[s.members[a]];
      const CurvePoint& q = curve[s.members[b]];
      const double octaves = std::log2(q.bytes / p.bytes);
      if (octaves > 0.0) slopes.push_back((safe_log(p.value) - safe_log(q.value)) / octaves);
    }
  }
  return slopes.empty() ? 0.0 : median(slopes);
}

// Drops the runs that fall along the transition between the plateaus on either side (see
// PlateauOptions::transition_slope), the one steepest relative to that transition first, since dropping it
// changes its neighbours' surroundings.
void drop_transitions(std::vector<Segment>& kept, const std::vector<CurvePoint>& curve,
                      const PlateauOptions& options) {
  for (;;) {
    std::size_t steepest = 0;
    double steepest_share = 0.0;
    for (std::size_t j = 1; j + 1 < kept.size(); ++j) {
      const double before = kept[j - 1].level(curve), here = kept[j].level(curve), after = kept[j + 1].level(curve);
      const double octaves =
          std::log2(curve[kept[j + 1].members.front()].bytes / curve[kept[j - 1].members.back()].bytes);
      if (!(before > here && here > after && octaves > 0.0)) continue;
      const double descent = std::log(before / after) / octaves;  // the transition's average fall per octave
      const double fall = fall_per_octave(kept[j], curve);
      if (fall < options.transition_slope || fall < options.transition_share * descent) continue;
      if (fall / descent > steepest_share) {
        steepest_share = fall / descent;
        steepest = j;
      }
    }
    if (steepest == 0) return;
    kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(steepest));
  }
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
      if (clearly_two_levels(kept[j], kept[j + 1], curve, options)) continue;
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

// Trims plateau edges that are still on a knee's slope (within tolerance of the median, but not of its
// level). The last size before a knee may lie half the tolerance below the level. The first size past a
// knee is often partly served by the level before and would inflate a ceiling (the best repetition inside
// the level), so it may lie at most half the tolerance, and a quarter of the step from the plateau before,
// above the level: between levels only 1.2x apart, a size 7% above the lower one is a third of the way up
// the knee.
void trim_knees(std::vector<Segment>& kept, const std::vector<CurvePoint>& curve, const PlateauOptions& options) {
  std::vector<double> levels;
  for (const Segment& s : kept) levels.push_back(s.level(curve));
  const double half = options.tolerance / 2.0;
  for (std::size_t j = 0; j < kept.size(); ++j) {
    const double level = levels[j];
    std::vector<std::size_t>& m = kept[j].members;
    if (j > 0 && levels[j - 1] > level) {  // no knee before the first plateau: its high sizes are its own
      const double above = std::min(half, std::pow(levels[j - 1] / level, 0.25) - 1.0);  // a fraction of the level
      while (m.size() > options.min_points && curve[m.front()].value > level * (1.0 + above)) m.erase(m.begin());
    }
    while (m.size() > options.min_points && curve[m.back()].value < level * (1.0 - half)) m.pop_back();
  }
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
  drop_transitions(kept, curve, options);
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
  trim_knees(kept, curve, options);
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
