// The report's tables of a target other than the host CPU (issue 21): its facts, then its ceilings, transfers and
// launch latency as its roofline entries give them, and its placements in the table the CPU's get (one placement
// for every target, issue 47). The CPU's tables are the report's usual ones; a target's come after them, one block
// per target, in the file's order.
#include <fmt/format.h>

#include "roofline/analysis/report_tables.hpp"
#include "roofline/common/units.hpp"
#include "section_tables.hpp"

namespace roofline {
using nlohmann::json;

namespace {

ReportTable facts_table(const TargetView& t) {
  ReportTable table{fmt::format("table-target-{}", t.id), fmt::format("Target {}", t.id), {"fact", "value"}, {false, false}, {}, ""};
  const auto add = [&](const std::string& fact, const std::string& value) {
    if (!value.empty()) table.rows.push_back({fact, value});
  };
  add("name", t.name);
  add("kind / API", fmt::format("{} / {}", t.kind.empty() ? "?" : t.kind, t.api.empty() ? "?" : t.api));
  add("vendor", t.vendor);
  add("driver", t.driver);
  if (t.compute_units > 0) add("compute units", fmt::format("{}", t.compute_units));
  if (t.clock_hz > 0) add("clock (reported)", format_si(t.clock_hz, "Hz"));
  if (t.memory_total_bytes > 0) {
    add("memory", fmt::format("{} total, {} available", format_bytes(t.memory_total_bytes), format_bytes(t.memory_available_bytes)));
  }
  std::string levels;
  for (const TargetLevelView& l : t.memory_levels) {
    levels += (levels.empty() ? "" : ", ") + l.name + (l.capacity_bytes > 0 ? " (" + format_bytes(l.capacity_bytes) + ")" : "");
  }
  add("memory levels", levels);
  add("peak model", t.peak_model.empty() ? "none (theoretical peaks unknown)" : t.peak_model);
  for (const std::string& n : t.notes) add("note", n);
  if (table.rows.empty()) table.note = "No facts for this target in the file (context.targets lacks it).";
  return table;
}

}  // namespace

std::vector<ReportTable> target_tables(const ResultsDocument& target_document, const TargetView& target) {
  // A target's records are shown with every field they hold (generic_table's columns are their keys): the model's
  // writer gives them, typed members and what `extra` keeps alike, as the file wrote them.
  const json section = target_document.roofline ? to_json(*target_document.roofline) : json::object();
  std::vector<ReportTable> out{facts_table(target)};
  const auto add = [&](const char* key, const char* what) {
    const json& rows = section.contains(key) ? section[key] : json::array();
    ReportTable t = report_detail::generic_table(fmt::format("table-target-{}-{}", target.id, key), fmt::format("{}, {}", what, target.id), rows);
    if (t.rows.empty()) t.note = fmt::format("None measured on {}.", target.id);
    out.push_back(std::move(t));
  };
  add("compute_ceilings", "Compute ceilings");
  add("memory_ceilings", "Memory ceilings");
  // A target's points in the table the CPU's get (one placement, one table): its threads "-", its offload roof.
  ReportTable placed = placements_table(target_document);
  placed.id = fmt::format("table-target-{}-placements", target.id);
  placed.title = fmt::format("GEMV/GEMM placements, {}", target.id);
  if (placed.rows.empty()) placed.note = fmt::format("None measured on {}.", target.id);
  out.push_back(std::move(placed));
  add("transfer_ceilings", "Host-device transfers");
  add("launch_latency", "Kernel launch latency");
  return out;
}

}  // namespace roofline
