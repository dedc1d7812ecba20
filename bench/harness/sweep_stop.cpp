// The bandwidth sweep's end from the curve: see sweep_stop.hpp.
#include "roofline/bench/sweep_stop.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "roofline/common/statistics.hpp"
#include "roofline/common/units.hpp"

namespace roofline {

DramVerdict dram_reached(std::vector<SweepPoint> points, std::uint64_t min_end_bytes) {
  points.erase(std::remove_if(points.begin(), points.end(), [](const SweepPoint& p) { return p.bandwidths.empty(); }),
               points.end());
  std::sort(points.begin(), points.end(), [](const SweepPoint& a, const SweepPoint& b) { return a.bytes < b.bytes; });
  DramVerdict v;
  if (points.size() < 3) {
    v.why = "fewer than 3 sizes measured";
    return v;
  }
  const double last = static_cast<double>(points.back().bytes);
  if (points.back().bytes < min_end_bytes) {
    v.why = fmt::format("{} is below the sweep's least end, {}", format_bytes(last), format_bytes(double(min_end_bytes)));
    return v;
  }
  // The window: from the largest point at or below S/2 (2% slack for rounding to whole steps) to S.
  std::size_t first = points.size();
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    if (static_cast<double>(points[i].bytes) <= last / 2.0 * 1.02) first = i;
  }
  if (first == points.size() || static_cast<double>(points[first].bytes) < last / 2.0 * 0.9) {
    v.why = "no size half an octave below the last one";
    return v;
  }
  std::vector<double> medians;
  double band_lo = 1e300, band_hi = 0.0, noise = 0.0;
  for (std::size_t i = first; i < points.size(); ++i) {
    const std::vector<double>& b = points[i].bandwidths;
    medians.push_back(median(b));
    band_lo = std::min(band_lo, min_of(b));
    band_hi = std::max(band_hi, max_of(b));
    noise = std::max(noise, max_of(b) - min_of(b));
  }
  double mean = 0.0;
  for (double m : medians) mean += m / static_cast<double>(medians.size());
  const double spread = max_of(medians) - min_of(medians);
  const double allowed = std::max(noise, kFlatTolerance * mean);
  const std::string range = fmt::format("{} to {}", format_bytes(double(points[first].bytes)), format_bytes(last));
  if (spread > allowed) {
    v.why = fmt::format("read from {} not flat: its medians spread {:.1f}% (noise {:.1f}%)", range,
                        100.0 * spread / mean, 100.0 * allowed / mean);
    return v;
  }
  // The last point before the window clearly above it: the cache plateau (or its slope) the curve fell from.
  std::size_t above = points.size();
  for (std::size_t i = first; i-- > 0;) {
    if (median(points[i].bandwidths) > band_hi * (1.0 + kFlatTolerance)) {
      above = i;
      break;
    }
  }
  if (above == points.size()) {
    v.why = fmt::format("read from {} is flat but has not fallen below any earlier size", range);
    return v;
  }
  std::size_t from = first;
  while (from > above + 1) {
    const double m = median(points[from - 1].bandwidths);
    if (m < band_lo || m > band_hi) break;
    --from;
  }
  v.reached = true;
  v.from_bytes = points[from].bytes;
  v.cache_end_bytes = points[above].bytes;
  v.why = fmt::format("read from {} flat within the noise of its repetitions ({:.1f}%), below {:.1f} GB/s at {}",
                      range, 100.0 * allowed / mean, median(points[above].bandwidths) / 1e9,
                      format_bytes(double(points[above].bytes)));
  return v;
}

}  // namespace roofline
