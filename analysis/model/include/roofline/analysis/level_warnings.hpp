// Named warnings on memory levels across thread counts (issue 46): a T-thread level faster than T times the same
// level at 1 thread, beyond both figures' noise, is not one level at both thread counts (a 2-thread "DRAM" at 5.8x
// the 1-thread DRAM was an L3 the 2-thread sweep never left). Its rows get `warning: superlinear` (plateaus.hpp),
// a note names it, and the gate does not trust it (key_figures.hpp).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/analysis/plateaus.hpp"
#include "roofline/analysis/results_view.hpp"

namespace roofline {

// `ceilings`: memory_ceilings rows of every thread count (level, kernel, threads, value, median, plateau_median);
// the read kernel's plateau medians decide. Marks the warned rows of `ceilings` and `levels` and adds to `notes`.
void warn_superlinear_levels(std::vector<nlohmann::json>& ceilings, nlohmann::json& levels, nlohmann::json& notes);

// The name of a device target's last plateau `p` (issue 46, as the CPU's DRAM rule, target-blind): its main memory
// when the plateau starts beyond every cache its facts size; else the innermost sized cache holding its start, with
// `warning` set to dram_not_reached and a note in `section` (the sweep ended before main memory). Facts that size no
// cache (a driver that reports none) leave the last plateau main memory, as before.
std::string last_level_name(const TargetView& t, const Plateau& p, std::string& warning, nlohmann::json& section);

}  // namespace roofline
