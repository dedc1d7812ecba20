// The report's tables of the roofline section's derived tables (memory_levels, typed; crossovers, best_backends,
// JSON in the section's `extra`: report_section_tables.cpp, generic_table.cpp), and of a target's
// records shown with every field they hold. Private to roofline::report.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "roofline/report/report_tables.hpp"

namespace roofline::report_detail {

// A table from an array of objects whose keys are not fixed (crossovers, best_backends, a target's
// records): columns are the union of keys in first-seen order; values are formatted by key (…_bytes as sizes, …_hz
// as clocks, value/attainable/compute_ceiling with the row's unit, memory_ceiling as B/s, efficiency and percent as %).
ReportTable generic_table(const std::string& id, const std::string& title, const nlohmann::json& array);

// Memory levels as the curve shows them beside what the target's facts report (roofline.memory_levels): the cache
// topology's capacity at the run's threads where its facts give one (the CPU's), else the capacity they list.
ReportTable memory_levels_table(const ResultsDocument& results, const RecordedTarget& target);
// Predicted crossover beside the measured knee, per sweep (roofline.crossovers); `main_memory`: the level whose ridge
// the prediction solves for (the target's main memory: DRAM, HBM, global).
ReportTable crossovers_table(const ResultsDocument& results, const std::string& main_memory);

}  // namespace roofline::report_detail
