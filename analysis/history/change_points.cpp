// E-divisive means over one series (change_points.hpp says why this method): the energy statistic's best split
// of an interval in O(n^2), its permutation p-value with a generator whose every draw the standard specifies, the
// hierarchical bisection, and the pruning of changes below the minimum size.
#include "roofline/history/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>

#include "roofline/common/statistics.hpp"

namespace roofline {
namespace {

struct Split {
  std::size_t tau = 0;  // the first index of the right side, within the interval
  double q = 0.0;       // its scaled statistic q-hat
};

// The split of z that maximizes q-hat = m k / (m + k) * E-hat(X, Y), X = z[0, tau), Y = z[tau, n), m and k their sizes
// (at least `min_segment` each), E-hat = 2/(m k) sum|x - y| - sum_{i<j}|x_i - x_j| / C(m, 2) - sum_{i<j}|y_i - y_j| / C(k, 2)
// (alpha = 1). Y runs to the interval's end, as in Otava and MongoDB's implementation, not to every right end kappa
// as Matteson & James also search: on this noise, the search over kappa lets a permutation's chance cluster of
// outliers pass for a short segment, which inflates the null statistic and costs power on the common case, one step
// (60 series with a 10% step at run 20 of 40, tests/analysis/history/test_change_points.cpp's noise: 52 found at
// 20 +- 1 alone, 50 with the search; 0 of 100 series without a step flagged, 1 with it). What the search is better
// at, a step down and back up a few runs later, is found here when each side is searched again, less often.
// Every pair's distance is taken once: `left[t]` sums t's distances to the values before it, `right[t]` to those
// after it, so the within-sums of each side are running sums of them and the cross sum is the total less both: O(n^2).
Split best_split(const std::vector<double>& z, std::size_t min_segment) {
  const std::size_t n = z.size();
  std::vector<double> left(n, 0.0), right(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      const double d = std::fabs(z[i] - z[j]);
      left[j] += d;
      right[i] += d;
    }
  }
  const double total = std::accumulate(left.begin(), left.end(), 0.0);
  std::vector<double> within_right(n + 1, 0.0);  // within_right[t]: the pairs among z[t, n)
  for (std::size_t t = n; t-- > 0;) within_right[t] = within_right[t + 1] + right[t];
  Split best;
  double within_left = 0.0;  // the pairs among z[0, tau)
  for (std::size_t tau = 1; tau < n; ++tau) {
    within_left += left[tau - 1];
    if (tau < min_segment || n - tau < min_segment) continue;
    const double m = static_cast<double>(tau), k = static_cast<double>(n - tau);
    const double cross = total - within_left - within_right[tau];
    const double e = 2.0 * cross / (m * k) - within_left / (m * (m - 1.0) / 2.0) - within_right[tau] / (k * (k - 1.0) / 2.0);
    const double q = m * k / (m + k) * e;
    if (best.tau == 0 || q > best.q) best = {tau, q};
  }
  return best;
}

// A uniform integer in [0, n) from the generator's raw 32-bit draws (rejection of the short last block): unlike
// std::uniform_int_distribution and std::shuffle, whose algorithms each standard library chooses, this gives the
// same permutations everywhere.
std::uint32_t draw_below(std::mt19937& generator, std::uint32_t n) {
  const std::uint64_t range = std::uint64_t{1} << 32;
  const std::uint64_t limit = range - range % n;
  for (;;) {
    const std::uint64_t x = generator();
    if (x < limit) return static_cast<std::uint32_t>(x % n);
  }
}

// The share of permutations of z whose best split is at least as strong as the observed one (the observed order
// counted among them: (count + 1) / (permutations + 1)). Each interval has its own stream, seeded from the seed and
// the interval, so a split's p-value does not depend on the order in which the bisection reached it.
double permutation_p_value(std::vector<double> z, double observed, std::size_t first, const ChangePointOptions& options) {
  std::seed_seq seq{options.seed, static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(z.size())};
  std::mt19937 generator(seq);
  // Ties (a constant stretch gives q = 0 in every order) count as "at least as strong".
  const double bar = observed - 1e-12 * std::fabs(observed);
  int at_least = 0;
  for (int r = 0; r < options.permutations; ++r) {
    for (std::size_t i = z.size() - 1; i > 0; --i) {  // Fisher-Yates
      std::swap(z[i], z[draw_below(generator, static_cast<std::uint32_t>(i + 1))]);
    }
    if (best_split(z, options.min_segment).q >= bar) ++at_least;
  }
  return static_cast<double>(at_least + 1) / static_cast<double>(options.permutations + 1);
}

// Splits z[first, last) at its best significant split and searches both sides again.
void bisect(const std::vector<double>& z, std::size_t first, std::size_t last, const ChangePointOptions& options,
            std::vector<ChangePoint>& out) {
  if (last - first < 2 * options.min_segment) return;
  const std::vector<double> part(z.begin() + static_cast<long>(first), z.begin() + static_cast<long>(last));
  const Split split = best_split(part, options.min_segment);
  if (split.tau == 0 || !(split.q > 0.0)) return;
  const double p = permutation_p_value(part, split.q, first, options);
  if (p > options.alpha) return;
  ChangePoint c;
  c.index = first + split.tau;
  c.p_value = p;
  out.push_back(c);
  bisect(z, first, c.index, options, out);
  bisect(z, c.index, last, options, out);
}

// Each change's medians and size over the segments between its neighbours.
void measure_sizes(const std::vector<double>& values, std::vector<ChangePoint>& changes) {
  auto median_of = [&](std::size_t first, std::size_t last) {
    return median(std::vector<double>(values.begin() + static_cast<long>(first), values.begin() + static_cast<long>(last)));
  };
  for (std::size_t i = 0; i < changes.size(); ++i) {
    const std::size_t first = i == 0 ? 0 : changes[i - 1].index;
    const std::size_t last = i + 1 == changes.size() ? values.size() : changes[i + 1].index;
    changes[i].median_before = median_of(first, changes[i].index);
    changes[i].median_after = median_of(changes[i].index, last);
    changes[i].size = changes[i].median_after / changes[i].median_before - 1.0;
  }
}

}  // namespace

std::vector<ChangePoint> find_change_points(const std::vector<double>& values, const ChangePointOptions& options_in) {
  ChangePointOptions options = options_in;
  options.min_segment = std::max<std::size_t>(options.min_segment, 2);
  if (!(options.alpha > 0.0 && options.alpha < 1.0)) throw std::invalid_argument("change points: alpha must be in (0, 1)");
  if (options.permutations < 1) throw std::invalid_argument("change points: at least one permutation");
  if (!(options.min_change >= 0.0)) throw std::invalid_argument("change points: min_change must be at least 0");
  std::vector<double> z;
  z.reserve(values.size());
  for (const double v : values) {
    if (!(std::isfinite(v) && v > 0.0)) throw std::invalid_argument("change points: values must be positive and finite");
    z.push_back(std::log(v));
  }
  std::vector<ChangePoint> changes;
  bisect(z, 0, z.size(), options, changes);
  std::sort(changes.begin(), changes.end(), [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
  measure_sizes(values, changes);
  // Drop the smallest change below the minimum, merge its segments, measure again; until every change is large enough.
  for (;;) {
    auto smallest = changes.end();
    for (auto it = changes.begin(); it != changes.end(); ++it) {
      if (std::fabs(it->size) < options.min_change && (smallest == changes.end() || std::fabs(it->size) < std::fabs(smallest->size))) {
        smallest = it;
      }
    }
    if (smallest == changes.end()) break;
    changes.erase(smallest);
    measure_sizes(values, changes);
  }
  return changes;
}

}  // namespace roofline
