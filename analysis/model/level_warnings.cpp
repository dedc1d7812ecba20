// Warnings on memory levels across thread counts: see level_warnings.hpp.
#include "roofline/model/level_warnings.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "roofline/model/plateaus.hpp"
#include "roofline/model/record_fields.hpp"
#include "roofline/common/units.hpp"

namespace roofline {

namespace {

// The least margin beyond T x: two quiet runs of one level agree within a few percent.
constexpr double kMinMargin = 0.05;

// A figure's own noise, relative: how far its best repetition lies above its median.
double noise_of(const MemoryCeilingRecord& row) {
  const double median = fields::amount(ROOFLINE_FIELD(row, median));
  return median > 0.0 ? std::max(0.0, fields::amount(ROOFLINE_FIELD(row, value)) / median - 1.0) : 0.0;
}

template <class Row>
int threads_of(const Row& row) {
  return static_cast<int>(fields::whole(ROOFLINE_FIELD(row, threads)).value_or(0));
}

}  // namespace

void warn_superlinear_levels(std::vector<MemoryCeilingRecord>& ceilings, std::vector<DetectedLevelRecord>& levels,
                             std::vector<std::string>& notes) {
  std::map<std::string, const MemoryCeilingRecord*> one_thread;  // level -> its read row at 1 thread
  for (const MemoryCeilingRecord& c : ceilings) {
    if (c.kernel.value_or("") == "read" && threads_of(c) == 1) one_thread[c.level.value_or("")] = &c;
  }
  std::map<std::pair<int, std::string>, std::string> warned;  // (threads, level) -> why
  for (const MemoryCeilingRecord& c : ceilings) {
    const int threads = threads_of(c);
    const std::string level = c.level.value_or("");
    if (threads <= 1 || c.kernel.value_or("") != "read" || one_thread.count(level) == 0) continue;
    const MemoryCeilingRecord& base = *one_thread.at(level);
    const double one = fields::amount(ROOFLINE_FIELD(base, plateau_median));
    const double many = fields::amount(ROOFLINE_FIELD(c, plateau_median));
    if (!(one > 0.0) || !(many > 0.0)) continue;
    const double margin = std::max(kMinMargin, noise_of(base) + noise_of(c));
    const double ratio = many / one;
    if (ratio <= threads * (1.0 + margin)) continue;
    warned[{threads, level}] = fmt::format(
        "{}: {} threads' {} read ({:.1f} GB/s) is {:.1f}x the 1-thread {} ({:.1f} GB/s), beyond {}x and both figures' "
        "noise ({:.0f}%): not one level at both thread counts (a cache the sweep had not left?); the gate does not "
        "trust it.", kWarningSuperlinear, threads, level, many / 1e9, ratio, level, one / 1e9, threads, 100.0 * margin);
  }
  for (const auto& [key, why] : warned) notes.push_back(why);
  const auto mark = [&](auto& row) {
    if (warned.count({threads_of(row), row.level.value_or("")}) > 0 && !fields::written(ROOFLINE_FIELD(row, warning))) {
      row.warning = std::string(kWarningSuperlinear);
    }
  };
  for (MemoryCeilingRecord& c : ceilings) mark(c);
  for (DetectedLevelRecord& l : levels) mark(l);
}

}  // namespace roofline
