// The report's tables as data (title, columns, rows of text), built once from a results file and rendered
// by both the terminal summary and the HTML page, so the two always show the same numbers. Missing
// sections give a table with no rows and a short note instead of an error.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/analysis/results_view.hpp"

#include "roofline/analysis/advertised.hpp"

namespace roofline {

struct ReportTable {
  std::string id;     // HTML id, e.g. "table-compute"
  std::string title;  // e.g. "Compute ceilings"
  std::vector<std::string> columns;
  std::vector<bool> right_aligned;  // per column: numbers are right-aligned
  std::vector<std::vector<std::string>> rows;
  std::string note;   // a sentence under the table (what is missing, what was chosen)
};

ReportTable machine_table(const nlohmann::json& results);
ReportTable compute_table(const nlohmann::json& results);
ReportTable memory_table(const nlohmann::json& results);
// The dequant-dot rows (roofline.dequant_table, report_dequant.cpp); the report lists it only when present.
ReportTable dequant_table(const nlohmann::json& results);
// The quantized GEMVs on their roofs (roofline.dequant_placements); listed only when present.
ReportTable dequant_placements_table(const nlohmann::json& results);
ReportTable placements_table(const nlohmann::json& results);
// Placements above 110% of their roof (roofline.roof_violations); no rows when there are none.
ReportTable roof_violations_table(const nlohmann::json& results);
ReportTable notes_table(const nlohmann::json& results);
ReportTable conventions_table(const nlohmann::json& results);
ReportTable advertised_table(const AdvertisedComparison& comparison);

// A table from an array of objects whose keys are not fixed (memory_levels, crossovers, best_backends):
// columns are the union of keys in first-seen order; values are formatted by key (…_bytes as sizes, …_hz
// as clocks, value/attainable with the row's unit, efficiency and percent as %).
ReportTable generic_table(const std::string& id, const std::string& title, const nlohmann::json& array);
// The tables of a target other than the CPU: its facts, compute and memory ceilings, placements, transfers,
// launch latency (report_targets.cpp). report_tables() appends them after the CPU's, per target.
std::vector<ReportTable> target_tables(const ResultsView& view, const TargetView& target);

// All tables in report order; `spec` may be null.
std::vector<ReportTable> report_tables(const nlohmann::json& results, const nlohmann::json& spec);

// Aligned plain text: title, header, rule, rows, note.
std::string render_table_text(const ReportTable& table);

// An HTML <table> with caption and note, every cell escaped (the report's and the fleet report's tables).
std::string render_table_html(const ReportTable& table);

// The report page's inline CSS.
std::string_view report_css();

}  // namespace roofline
