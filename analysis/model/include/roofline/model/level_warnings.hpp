// Named warnings on memory levels across thread counts (issue 46): a T-thread level faster than T times the same
// level at 1 thread, beyond both figures' noise, is not one level at both thread counts (a 2-thread "DRAM" at 5.8x
// the 1-thread DRAM was an L3 the 2-thread sweep never left). Its rows get `warning: superlinear` (plateaus.hpp),
// a note names it, and the gate does not trust it (key_figures.hpp).
#pragma once

#include <string>
#include <vector>

#include "roofline/model/plateaus.hpp"
#include "roofline/model/results_document.hpp"

namespace roofline {

// `ceilings`: the typed memory_ceilings rows of every thread count (level, kernel, threads, value, median,
// plateau_median); the read kernel's plateau medians decide. Marks the warned rows of `ceilings` and `levels` (issue
// 61: typed, as memory_ceilings.cpp builds them) and adds a note each to `notes`.
void warn_superlinear_levels(std::vector<MemoryCeilingRecord>& ceilings, std::vector<DetectedLevelRecord>& levels,
                             std::vector<std::string>& notes);

}  // namespace roofline
