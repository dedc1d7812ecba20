// The statistics every layer uses, defined once (in the spirit of google/benchmark's single
// statistics.cc): median, quantiles, the median absolute deviation and the robust sigma built on it.
// Each takes its sample by value (it sorts a copy) and throws std::invalid_argument on an empty sample, so
// that a missing measurement is never silently read as 0.
#pragma once

#include <vector>

namespace roofline {

// The middle value; the mean of the two middle values for an even count.
double median(std::vector<double> values);

// The q-quantile (0 <= q <= 1) with linear interpolation between order statistics (type 7, the default
// of R and numpy). quantile(v, 0.5) == median(v).
double quantile(std::vector<double> values, double q);

// Median absolute deviation from the median, unscaled.
double mad(std::vector<double> values);

// 1.4826 x MAD: a robust estimate of the standard deviation (equal to it for normal data).
double robust_sigma(std::vector<double> values);

// The largest and smallest value.
double max_of(const std::vector<double>& values);
double min_of(const std::vector<double>& values);

// How far apart workers' rates were: the fastest's work per second over the slowest's, minus 1 (0 when equal).
// `work[i]` and `seconds[i]` are worker i's; workers with no work or no time are left out; 0 with fewer than two.
double rate_spread(const std::vector<double>& work, const std::vector<double>& seconds);

}  // namespace roofline
