// The two-sided Mann-Whitney U test, as scipy.stats.mannwhitneyu(x, y, alternative='two-sided') computes
// it with its default method='auto' (the call Google Benchmark's tools/compare.py makes), so that our
// p-values agree with compare.py's on the same files.
//
// scipy's rules (scipy/stats/_mannwhitneyu.py, 1.7 .. 1.10):
//   - method: 'exact' when at least one sample has <= 8 values and there are no ties at all; else
//     'asymptotic'.
//   - exact: p = 2 * P(U <= n1*n2 - max(U1, U2)) under the null distribution of U, clipped to 1.
//   - asymptotic: z = (max(U1, U2) - n1*n2/2 - 0.5) / s with the tie-corrected
//     s = sqrt(n1*n2/12 * ((n+1) - sum(t^3 - t) / (n*(n-1)))), p = 2 * normal_sf(z), clipped to 1.
#pragma once

#include <span>

namespace roofline {

enum class UTestMethod { exact, asymptotic };

struct MannWhitneyResult {
  double u1 = 0.0;       // U of the first sample (scipy's `statistic`)
  double p_value = 1.0;  // two-sided
  UTestMethod method = UTestMethod::exact;
};

// Both samples must be non-empty and free of NaN (std::invalid_argument otherwise: callers filter input).
MannWhitneyResult mann_whitney_u(std::span<const double> x, std::span<const double> y);

// Repetition counts as in Google Benchmark's compare.py: below the minimum no test is made; below the
// optimal count compare.py warns that the result is unreliable.
inline constexpr int kUTestMinRepetitions = 2;
inline constexpr int kUTestOptimalRepetitions = 9;
// compare.py's default significance level (--alpha).
inline constexpr double kUTestDefaultAlpha = 0.05;

}  // namespace roofline
