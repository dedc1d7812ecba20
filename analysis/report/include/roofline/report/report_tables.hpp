// The report's tables as data (title, columns, rows of text), built once from a results file and rendered
// by both the terminal summary and the HTML page, so the two always show the same numbers. Missing
// sections give a table with no rows and a short note instead of an error.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/report/advertised.hpp"
#include "roofline/model/results_document.hpp"
#include "roofline/model/results_targets.hpp"  // RecordedTarget
#include "roofline/report/spec.hpp"

namespace roofline {

struct ReportTable {
  std::string id;     // HTML id, e.g. "table-compute"
  std::string title;  // e.g. "Compute ceilings"
  std::vector<std::string> columns;
  std::vector<bool> right_aligned;  // per column: numbers are right-aligned
  std::vector<std::vector<std::string>> rows;
  std::string note;   // a sentence under the table (what is missing, what was chosen)
};

// Each table of one results document (typed, results_document.hpp), one target's: report_tables() passes each
// target's part of the file (the file itself when it holds the CPU alone), every target through the same functions.
ReportTable machine_table(const ResultsDocument& results);
// The compute ceilings of `target`, its theoretical column explained by the peak model its facts name; the one-argument
// form takes the document's host CPU (its part of the file).
ReportTable compute_table(const ResultsDocument& results, const RecordedTarget& target);
// A hybrid CPU's figures per core kind (roofline.core_kind_ceilings, issue 62): compute peaks and memory levels, each
// row naming its kind.
ReportTable core_kinds_table(const ResultsDocument& results);
ReportTable compute_table(const ResultsDocument& results);
ReportTable memory_table(const ResultsDocument& results);
// The dequant-dot rows (roofline.dequant_table, report_dequant.cpp); the report lists it only when present.
ReportTable dequant_table(const ResultsDocument& results);
// The quantized GEMVs on their roofs (roofline.dequant_placements); listed only when present.
ReportTable dequant_placements_table(const ResultsDocument& results);
ReportTable placements_table(const ResultsDocument& results);
// Placements above 110% of their roof (roofline.roof_violations); no rows when there are none.
ReportTable roof_violations_table(const ResultsDocument& results);
ReportTable notes_table(const ResultsDocument& results);
ReportTable conventions_table(const ResultsDocument& results);
ReportTable advertised_table(const AdvertisedComparison& comparison);

// One target's tables (report_targets.cpp), every target's by the same functions from `target_document`, the document
// as if it held only that target: its compute ceilings, dequant-dot rows, memory ceilings and levels, placements, roof
// violations, crossovers and best backends, and its host-device transfers and launch latency where it has them. The
// host's (`host`: the file's CPU) are the report's first tables, after the machine's; any other target's come after
// them, headed by its facts, each table's id and title naming the target.
std::vector<ReportTable> target_tables(const ResultsDocument& target_document, const RecordedTarget& target, bool host);

// All tables in report order; with a spec (load_spec), advertised vs measured too.
std::vector<ReportTable> report_tables(const ResultsDocument& results, const std::optional<Spec>& spec = std::nullopt);

// Aligned plain text: title, header, rule, rows, note.
std::string render_table_text(const ReportTable& table);

// An HTML <table> with caption and note, every cell escaped (the report's and the fleet report's tables).
std::string render_table_html(const ReportTable& table);

// The report page's inline CSS.
std::string_view report_css();

}  // namespace roofline
