// The report's tables of the roofline section's derived tables: the typed ones (roof violations, memory levels,
// crossovers) and the counting conventions, an object the typed model keeps as JSON in the section's `extra`.
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "report_roofs.hpp"
#include "roofline/report/report_facts.hpp"
#include "roofline/report/report_tables.hpp"
#include "roofline/common/units.hpp"
#include "section_tables.hpp"
#include "table_cells.hpp"
#include "typed_fields.hpp"

namespace roofline {
using nlohmann::json;
using namespace report_detail;

// Points above 110% of their roof: the tool's invariant on itself, shown loudly (never hidden or clamped).
ReportTable roof_violations_table(const ResultsDocument& results) {
  ReportTable t{"table-roof-violations", "A point beats its roof: a ceiling is missing or a count is wrong",
                {"backend", "precision", "threads", "batch", "measured", "attainable", "% of roof", "roof", "why"},
                {false, false, true, true, true, true, true, false, false}, {}, ""};
  static const PlacementRoof kNoRoof;
  for (const RoofViolationRecord& v : records_of(section_of(results).roof_violations)) {
    const std::string unit = rate_unit_of(v);
    const PlacementRoof& roof = v.roof ? *v.roof : kNoRoof;
    t.rows.push_back({cell(ROOFLINE_FIELD(v, backend)), cell(ROOFLINE_FIELD(v, precision)), cell(ROOFLINE_FIELD(v, threads), "-"),
                      cell(ROOFLINE_FIELD(v, batch)), rate_or_na(amount(ROOFLINE_FIELD(v, value)), unit),
                      rate_or_na(amount(ROOFLINE_FIELD(v, attainable)), unit), percent(amount(ROOFLINE_FIELD(v, efficiency))),
                      fmt::format("{}/{}", cell(ROOFLINE_FIELD(roof, engine), "vector"), cell(ROOFLINE_FIELD(roof, level), "none")),
                      written(ROOFLINE_FIELD(roof, engine_missing)) ? "ran on the matrix engine; no matrix roof was measured"
                                                                    : "a ceiling is missing or a count is wrong"});
  }
  return t;
}

ReportTable conventions_table(const ResultsDocument& results) {
  ReportTable t{"table-conventions", "Counting conventions", {"what", "convention"}, {false, false}, {}, ""};
  const RooflineSection& section = section_of(results);
  if (section.conventions) {
    for (const auto& [what, convention] : *section.conventions) t.rows.push_back({what, convention});
  } else {  // a convention the file wrote as something else than a sentence: the lenient reader kept them all as JSON
    const json& c = object_at(section.extra, "conventions");
    for (auto it = c.begin(); it != c.end(); ++it) {
      t.rows.push_back({it.key(), it.value().is_string() ? it.value().get<std::string>() : it.value().dump()});
    }
  }
  if (t.rows.empty()) t.note = "This file does not state its counting conventions.";
  return t;
}

namespace report_detail {

// Cache levels as the curve shows them beside what the machine facts report: where they disagree, the
// curve is used, and this table is where a reader sees both.
ReportTable memory_levels_table(const ResultsDocument& results, const RecordedTarget& target) {
  ReportTable t{"table-memory-levels", "Memory levels (reported vs inferred)",
                {"threads", "level", "plateau (working sets)", "bandwidth", "curve leaves at", "reported size",
                 "agreement", "source"},
                {true, false, false, true, true, true, false, false}, {}, ""};
  // A size, or n/a where the row has no number there (null: the curve did not say).
  auto bytes_or_na = [](const auto& member, const DetectedLevelRecord& r, const char* key) {
    const double b = amount(member, r, key, std::numeric_limits<double>::quiet_NaN());
    return std::isnan(b) ? std::string("n/a") : format_bytes(b);
  };
  for (const DetectedLevelRecord& r : records_of(section_of(results).memory_levels)) {
    t.rows.push_back({cell(ROOFLINE_FIELD(r, threads), "-"), cell(ROOFLINE_FIELD(r, level)),
                      fmt::format("{} .. {}", bytes_or_na(ROOFLINE_FIELD(r, min_bytes)), bytes_or_na(ROOFLINE_FIELD(r, max_bytes))),
                      rate_or_na(amount(ROOFLINE_FIELD(r, bandwidth)), "B/s"), bytes_or_na(ROOFLINE_FIELD(r, inferred_bytes)),
                      bytes_or_na(ROOFLINE_FIELD(r, reported_bytes)), cell(ROOFLINE_FIELD(r, agreement)),
                      cell(ROOFLINE_FIELD(r, source))});
  }
  if (!t.rows.empty()) {
    t.note = fmt::format("bandwidth: the plateau's median for the reference (read) kernel; reported: {}; the curve decides "
                         "when they disagree.", target.caches.empty() ? "the capacity the target's facts list"
                                                                       : "the machine facts' cache capacity for these threads");
  }
  return t;
}

// Predicted crossover beside the measured knee, per sweep: the comparison the roofline exists to make.
ReportTable crossovers_table(const ResultsDocument& results, const std::string& main_memory) {
  ReportTable t{"table-crossovers", "Crossovers: predicted vs measured knee",
                {"backend", "precision", "threads", "shape MxK", "ridge AI", "predicted batch", "measured knee",
                 "batches measured"},
                {false, false, true, false, true, true, true, false}, {}, ""};
  constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  // A batch (NaN: none), and the first measured batch at or past it where the row has one.
  auto batch_or_na = [](double exact, std::optional<long long> first) {
    if (std::isnan(exact)) return std::string("n/a");
    std::string s = fmt::format("{:.3g}", exact);
    if (first) s += fmt::format(" (first measured: {})", *first);
    return s;
  };
  for (const CrossoverRecord& r : records_of(section_of(results).crossovers)) {
    std::string batches;
    std::size_t measured = 0;
    for (const long long b : r.batches.value_or(std::vector<long long>{})) {
      if (!batches.empty()) batches += ',';  // (not `"," + ...`: GCC 12 -Wrestrict false positive)
      batches += fmt::format("{}", b);
      ++measured;
    }
    // A knee read off two or three batches is an extrapolation, not a measurement: shown only from four.
    const std::string knee = measured >= 4 ? batch_or_na(amount(ROOFLINE_FIELD(r, knee_batch), kNone),
                                                         whole(ROOFLINE_FIELD(r, knee_first_batch)))
                                           : "n/a";
    const double ridge = amount(ROOFLINE_FIELD(r, ridge_ai), kNone);
    t.rows.push_back({cell(ROOFLINE_FIELD(r, backend)), cell(ROOFLINE_FIELD(r, precision)), cell(ROOFLINE_FIELD(r, threads), "-"),
                      fmt::format("{}x{}", cell(ROOFLINE_FIELD(r, m)), cell(ROOFLINE_FIELD(r, k))),
                      std::isnan(ridge) ? "n/a" : fmt::format("{:.3g}", ridge),
                      batch_or_na(amount(ROOFLINE_FIELD(r, predicted_batch), kNone),
                                  whole(ROOFLINE_FIELD(r, predicted_first_batch))),
                      knee, batches});
  }
  if (t.rows.empty()) t.note = "No GEMM sweeps in this file.";
  else t.note = fmt::format("predicted: the batch whose AI reaches the {} ridge; measured knee: where attained FLOP/s stops "
                            "growing with the batch (n/a: fewer than four batches measured, or no knee yet).",
                            main_memory.empty() ? "main memory's" : main_memory);
  return t;
}

}  // namespace report_detail

}  // namespace roofline
