// Warnings on memory levels across thread counts: see level_warnings.hpp.
#include "roofline/model/level_warnings.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "roofline/model/plateaus.hpp"
#include "roofline/model/roofline_section.hpp"
#include "roofline/common/units.hpp"

namespace roofline {
using nlohmann::json;

namespace {

// The least margin beyond T x: two quiet runs of one level agree within a few percent.
constexpr double kMinMargin = 0.05;

double number(const json& row, const char* key) {
  return row.contains(key) && row[key].is_number() ? row[key].get<double>() : 0.0;
}

// A figure's own noise, relative: how far its best repetition lies above its median.
double noise_of(const json& row) {
  const double median = number(row, "median");
  return median > 0.0 ? std::max(0.0, number(row, "value") / median - 1.0) : 0.0;
}

}  // namespace

void warn_superlinear_levels(std::vector<json>& ceilings, json& levels, json& notes) {
  std::map<std::string, const json*> one_thread;  // level -> its read row at 1 thread
  for (const json& c : ceilings) {
    if (c.value("kernel", "") == "read" && c.value("threads", 0) == 1) one_thread[c.value("level", "")] = &c;
  }
  std::map<std::pair<int, std::string>, std::string> warned;  // (threads, level) -> why
  for (const json& c : ceilings) {
    const int threads = c.value("threads", 0);
    const std::string level = c.value("level", "");
    if (threads <= 1 || c.value("kernel", "") != "read" || one_thread.count(level) == 0) continue;
    const json& base = *one_thread.at(level);
    const double one = number(base, "plateau_median"), many = number(c, "plateau_median");
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
  const auto mark = [&](json& row) {
    if (warned.count({row.value("threads", 0), row.value("level", "")}) > 0 && !row.contains("warning")) {
      row["warning"] = kWarningSuperlinear;
    }
  };
  for (json& c : ceilings) mark(c);
  for (json& l : levels) mark(l);
}

}  // namespace roofline
