// Change points in one key figure's series of runs (`roofline history changes`, the history chart's markers):
// where the level of the series moved, found over the whole series, so that a slow drift or a step that no single
// pair of runs shows (the gate compares pairs) is still seen. A pure function over values; history.hpp maps it
// onto the runs of one machine and configuration.
//
// Method: E-divisive means (Matteson & James 2014, "A nonparametric approach for multiple change point analysis of
// multivariate data", JASA 109; the detector of MongoDB's performance CI and of Apache Otava, formerly Hunter).
// Why this one: it is nonparametric. The energy statistic (alpha = 1) compares whole distributions of the runs on
// either side of a split, and its significance comes from permutations of the runs themselves, so it needs no noise
// model. The noise of a shared cloud VM is heavy-tailed and often bimodal (the host moves a guest between memory
// states: DRAM at 2 threads 50 or 90 GB/s), which breaks the Gaussian likelihood a PELT or binary segmentation
// with a BIC penalty assumes, and whose penalty would have to be tuned per figure and host.
//
// Steps: on log values (a step is a ratio, the same for a 20 GB/s and a 400 GB/s figure), the split of an interval
// that maximizes the scaled statistic q-hat = m n / (m + n) * E-hat(X, Y), with at least `min_segment` runs on each
// side; its p-value is the share of permutations of the interval's values whose best q-hat is at least as large
// (fixed seed: the same input gives the same output, on every platform); a split with p <= alpha is kept and both
// sides are searched again (hierarchical bisection) until none is significant. Then the changes smaller than
// `min_change` (the ratio of the medians of the segments either side, minus 1) are dropped, the smallest first,
// merging its two segments before the sizes of its neighbours are taken again: the gate's floor is 5%, and smaller
// steps are noise on these hosts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace roofline {

struct ChangePointOptions {
  double alpha = 0.05;          // a split is significant when its permutation p-value is at most this
  int permutations = 199;       // permutations per tested split: the smallest p-value is 1 / (permutations + 1)
  std::size_t min_segment = 3;  // runs on each side of a split, at least (2 at least: the statistic needs pairs)
  double min_change = 0.05;     // changes smaller than this (|after / before - 1|) are dropped
  std::uint32_t seed = 59;      // of the permutations: fixed, so that two calls give the same answer
};

struct ChangePoint {
  std::size_t index = 0;       // the first value after the change (0-based)
  double size = 0.0;           // median after / median before - 1, over the segments either side
  double p_value = 1.0;        // the permutation p-value of the split when it was found
  double median_before = 0.0;  // the medians of the segments either side (the values' own units)
  double median_after = 0.0;
};

// The change points of `values` (positive and finite: rates or times; std::invalid_argument otherwise), in order of
// index. A series shorter than twice the minimum segment has none.
std::vector<ChangePoint> find_change_points(const std::vector<double>& values, const ChangePointOptions& options = {});

}  // namespace roofline
