// The memory levels of a bandwidth-vs-size curve as one optimal segmentation (see PlateauOptions), and the
// combined curve of several kernels: see plateaus.hpp. Level labelling is in level_labels.cpp.
#include "roofline/model/plateaus.hpp"
#include "roofline/common/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace roofline {

namespace {

double safe_log(double v) { return std::log(std::max(v, 1e-300)); }

// The curve as the segmentation sees it: log bandwidth and each point's noise in log units.
struct LogCurve {
  std::vector<double> y, sigma, octave;  // octave: log2 of the size
};

LogCurve log_curve(const std::vector<CurvePoint>& curve, const PlateauOptions& options) {
  LogCurve c;
  for (const CurvePoint& p : curve) {
    const double of_median = 1.25 * p.spread / std::sqrt(std::max(p.repetitions, 1.0));
    c.y.push_back(safe_log(p.value));
    c.sigma.push_back(std::sqrt(options.noise_floor * options.noise_floor + of_median * of_median));
    c.octave.push_back(std::log2(std::max(p.bytes, 1.0)));
  }
  return c;
}

// One candidate level: points [begin, end) of the curve, its fitted log bandwidth and its cost.
struct Fit {
  double cost = std::numeric_limits<double>::infinity();
  double y = 0.0;
};

// The level's fit over [begin, end): start at the median, then twice the weighted mean of the points within
// the cap (the outliers do not pull it), and the capped cost at that fit.
Fit fit_level(const LogCurve& c, std::size_t begin, std::size_t end, const PlateauOptions& options) {
  Fit f;
  if (end <= begin || end > c.y.size()) return f;
  // Sizes of one level come from a sweep: two sizes octaves apart with nothing between (a --sizes list) are
  // no evidence that the bandwidth stayed flat between them.
  for (std::size_t i = begin + 1; i < end; ++i) {
    if (c.octave[i] - c.octave[i - 1] > options.max_gap_octaves) return f;
  }
  std::vector<double> piece;
  for (std::size_t i = begin; i < end; ++i) piece.push_back(c.y[i]);
  f.y = median(piece);
  const auto z2 = [&](std::size_t i, double y) { return std::pow((c.y[i] - y) / c.sigma[i], 2.0); };
  for (int round = 0; round < 2; ++round) {
    double sum = 0.0, weights = 0.0;
    for (std::size_t i = begin; i < end; ++i) {
      if (z2(i, f.y) >= options.outlier_cap) continue;
      const double w = 1.0 / (c.sigma[i] * c.sigma[i]);
      sum += w * c.y[i];
      weights += w;
    }
    if (weights <= 0.0) break;
    f.y = sum / weights;
  }
  // A level is flat: a piece whose inliers fall along a line by more than max_level_fall from its first size to
  // its last is a transition (the L3-to-DRAM slope of a VM over an octave or two), not a level, whatever its fit.
  double sw = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
  std::size_t inliers = 0;
  for (std::size_t i = begin; i < end; ++i) {
    if (z2(i, f.y) >= options.outlier_cap) continue;
    ++inliers;
    const double w = 1.0 / (c.sigma[i] * c.sigma[i]);
    sw += w;
    sx += w * c.octave[i];
    sy += w * c.y[i];
    sxx += w * c.octave[i] * c.octave[i];
    sxy += w * c.octave[i] * c.y[i];
  }
  if (inliers < options.min_points) return Fit{};  // a level is its sizes that agree, not its outliers
  const double denominator = sw * sxx - sx * sx;
  if (denominator > 0.0) {
    const double slope = (sw * sxy - sx * sy) / denominator;  // log bandwidth per octave
    if (-slope * (c.octave[end - 1] - c.octave[begin]) > options.max_level_fall) return Fit{};
  }
  // Bandwidth only falls with size, so a size above its level in the level's later half is a bump of that level
  // (the L2 of a Zen 5 reads 17-35% faster at 512 KiB), never the way out of it: the transition to the next,
  // slower level lies below. It costs at most bump_cap, less than a transition, so the level keeps it and its
  // end does not move with the bump's height (issue 46: one run's 1-thread L2 ended at 1 MiB, the next's at
  // 256 KiB, with 512 KiB 35% above the plateau). In the first half, a size above is the previous level's tail.
  const double middle = (c.octave[begin] + c.octave[end - 1]) / 2.0;
  f.cost = 0.0;
  for (std::size_t i = begin; i < end; ++i) {
    const bool bump = c.octave[i] > middle && c.y[i] > f.y;
    f.cost += std::min(z2(i, f.y), bump ? options.bump_cap : options.outlier_cap);
  }
  return f;
}

struct Piece {
  std::size_t first = 0, last = 0;  // inclusive
  double y = 0.0;
};

// The optimal segmentation of points [from, n) into at most options.max_levels levels and transitions, the
// last point inside the last level (see PlateauOptions). best[k][e]: the least cost of the first e points
// with k levels, point e-1 in a transition or ending a level.
std::vector<Piece> optimal_levels(const LogCurve& c, std::size_t from, const PlateauOptions& options) {
  const std::size_t n = c.y.size(), kmax = std::max<std::size_t>(options.max_levels, 1);
  // A curve is a few dozen sizes; the bound also tells the compiler that n + 1 cannot overflow.
  if (n < from + options.min_points || n > 4096) return {};
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<Fit>> fits(n);
  for (std::vector<Fit>& row : fits) row.resize(n + 1);
  for (std::size_t a = from; a < n; ++a) {
    for (std::size_t e = a + options.min_points; e <= n; ++e) {
      if (c.octave[e - 1] - c.octave[a] >= options.min_octaves - 1e-9) fits[a][e] = fit_level(c, a, e, options);
    }
  }
  struct Step {
    bool level = false;
    std::size_t begin = 0;
  };
  std::vector<std::vector<double>> best(kmax + 1, std::vector<double>(n + 1, inf));
  std::vector<std::vector<Step>> back(kmax + 1, std::vector<Step>(n + 1));
  best[0][from] = 0.0;
  // The level ending at e with k levels in all, its best start (inf when none).
  const auto level_ending = [&](std::size_t k, std::size_t e, std::size_t& begin) {
    double v = inf;
    for (std::size_t a = from; a + options.min_points <= e; ++a) {
      const double prior = best[k - 1][a];
      if (prior == inf || fits[a][e].cost == inf) continue;
      const double total = prior + options.level_penalty + fits[a][e].cost;
      if (total < v) {
        v = total;
        begin = a;
      }
    }
    return v;
  };
  for (std::size_t e = from + 1; e <= n; ++e) {
    for (std::size_t k = 0; k <= kmax; ++k) {
      if (best[k][e - 1] + options.transition_cost < best[k][e]) {
        best[k][e] = best[k][e - 1] + options.transition_cost;
        back[k][e] = {false, e - 1};
      }
      if (k == 0) continue;
      std::size_t begin = 0;
      const double v = level_ending(k, e, begin);
      if (v < best[k][e]) {
        best[k][e] = v;
        back[k][e] = {true, begin};
      }
    }
  }
  // The sweep ends inside its last level: its last size is never a transition (the sweep stops in main memory,
  // or in the level where its stop rule found the curve flat).
  double total = inf;
  std::size_t k_end = 0, begin_end = 0, end_end = n;
  for (std::size_t k = 1; k <= kmax; ++k) {
    std::size_t begin = 0;
    const double v = level_ending(k, n, begin);
    if (v < total) {
      total = v;
      k_end = k;
      begin_end = begin;
    }
  }
  if (total == inf) return {};
  std::vector<Piece> out = {{begin_end, end_end - 1, fits[begin_end][end_end].y}};
  std::size_t k = k_end - 1;
  for (std::size_t e = begin_end; e > from;) {
    const Step s = back[k][e];
    if (!s.level) {
      e = s.begin;
      continue;
    }
    out.push_back({s.begin, e - 1, fits[s.begin][e].y});
    e = s.begin;
    --k;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

Plateau to_plateau(const Piece& p, const std::vector<CurvePoint>& curve) {
  Plateau out;
  out.first = p.first;
  out.last = p.last;
  out.points = p.last - p.first + 1;
  out.min_bytes = curve[p.first].bytes;
  out.max_bytes = curve[p.last].bytes;
  // The level's bandwidth as people read a plateau: the median of its sizes' values (the fit only finds it).
  std::vector<double> values;
  for (std::size_t i = p.first; i <= p.last; ++i) values.push_back(curve[i].value);
  out.level = median(values);
  return out;
}

}  // namespace

std::vector<Plateau> find_plateaus(std::vector<CurvePoint>& curve, const PlateauOptions& options) {
  std::sort(curve.begin(), curve.end(), [](const CurvePoint& a, const CurvePoint& b) { return a.bytes < b.bytes; });
  if (curve.empty()) return {};
  const LogCurve c = log_curve(curve, options);
  // One more level than the target has, for a rising stretch at tiny sizes (per-call overhead): when the
  // first level is below the second by more than its noise, it is dropped and the rest segmented again.
  PlateauOptions wider = options;
  wider.max_levels = options.max_levels + 1;
  std::vector<Piece> pieces = optimal_levels(c, 0, wider);
  for (std::size_t guard = 0; pieces.size() >= 2 && guard < curve.size(); ++guard) {
    const double step = pieces[1].y - pieces[0].y;
    if (step <= c.sigma[pieces[0].first]) break;
    pieces = optimal_levels(c, pieces[1].first, options);
  }
  if (pieces.size() > options.max_levels) pieces = optimal_levels(c, pieces.front().first, options);
  // Two neighbouring levels the wrong way round are one level with a bump.
  for (bool merged = true; merged;) {
    merged = false;
    for (std::size_t j = 0; j + 1 < pieces.size(); ++j) {
      if (pieces[j].y >= pieces[j + 1].y) continue;
      const Fit both = fit_level(c, pieces[j].first, pieces[j + 1].last + 1, options);
      pieces[j] = {pieces[j].first, pieces[j + 1].last, std::isfinite(both.cost) ? both.y : (pieces[j].y + pieces[j + 1].y) / 2};
      pieces.erase(pieces.begin() + static_cast<std::ptrdiff_t>(j) + 1);
      merged = true;
      break;
    }
  }
  std::vector<Plateau> out;
  for (const Piece& p : pieces) out.push_back(to_plateau(p, curve));
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
    out.push_back({r.bytes, count > 0 ? scale * std::exp(log_sum / count) : r.value, spread, r.repetitions});
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
  if (last.last + 1 != sorted_curve.size() || plateau_octaves(last) < octaves - 1e-9) return false;
  // The last level always holds the last size (the segmentation's rule), so "flat" also asks that every size of
  // its last `octaves` octaves lies within 10% of its level: a sweep that ends on a slope is not flat there.
  const double from = sorted_curve.back().bytes / std::pow(2.0, octaves);
  for (std::size_t i = last.first; i <= last.last; ++i) {
    if (sorted_curve[i].bytes >= from && std::fabs(std::log(sorted_curve[i].value / last.level)) > std::log(1.1)) return false;
  }
  return true;
}

double plateau_figure(std::vector<std::pair<double, double>> sizes, bool starts_curve) {
  if (sizes.empty()) return 0.0;
  std::sort(sizes.begin(), sizes.end());
  double middle = 0.0;  // keeps every size
  if (starts_curve && sizes.size() >= 3) middle = std::sqrt(sizes.front().first * sizes.back().first);
  std::vector<double> medians;
  for (const auto& [bytes, m] : sizes) {
    if (bytes >= middle * (1.0 - 1e-9)) medians.push_back(m);
  }
  return median(medians);
}

}  // namespace roofline
