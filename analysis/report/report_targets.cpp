// One target's tables (issue 47: every target through the same table functions). The host CPU's come first, after the
// machine's table, which is its facts; any other target's after them, one block per target in the file's order,
// headed by its facts and with the target named in each table's id and title. What a table shows follows its rows
// (report_tables.cpp): columns a target's rows have nothing for are left out, and the notes say what its facts say
// (the compute table's theoretical peak by the peak model they name, a level's reported size by what they list).
#include <fmt/format.h>

#include "report_roofs.hpp"
#include "roofline/report/report_tables.hpp"
#include "roofline/common/units.hpp"
#include "section_tables.hpp"
#include "table_cells.hpp"
#include "typed_fields.hpp"

namespace roofline {
using nlohmann::json;
using namespace report_detail;

namespace {

ReportTable facts_table(const RecordedTarget& t) {
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
  for (const TargetLevel& l : t.memory_levels) {
    levels += (levels.empty() ? "" : ", ") + l.name + (l.capacity_bytes > 0 ? " (" + format_bytes(l.capacity_bytes) + ")" : "");
  }
  add("memory levels", levels);
  add("peak model", t.peak_model.empty() ? "none (theoretical peaks unknown)" : t.peak_model);
  for (const std::string& n : t.notes) add("note", n);
  if (table.rows.empty()) table.note = "No facts for this target in the file (context.targets lacks it).";
  return table;
}

// A table's records with every field they hold (the records' writer gives each row as the file wrote it): a target's
// host-device transfers and launch latency, whose columns differ by target.
template <class Row>
ReportTable records_table(const std::optional<std::vector<Row>>& rows, const char* id, const char* title) {
  json written = json::array();
  for (const Row& r : records_of(rows)) written.push_back(to_json(r));
  return generic_table(id, title, written);
}

// A table of a target other than the host's: the target named in its id and title.
void name_target(ReportTable& t, const RecordedTarget& target) {
  const std::string base = t.id.rfind("table-", 0) == 0 ? t.id.substr(6) : t.id;
  t.id = fmt::format("table-target-{}-{}", target.id, base);
  t.title = fmt::format("{}, {}", t.title, target.id);
}

}  // namespace

std::vector<ReportTable> target_tables(const ResultsDocument& doc, const RecordedTarget& target, bool host) {
  std::vector<ReportTable> out{compute_table(doc, target)};
  if (written(ROOFLINE_FIELD(section_of(doc), dequant_table))) out.push_back(dequant_table(doc));
  if (!records_of(section_of(doc).dequant_placements).empty()) out.push_back(dequant_placements_table(doc));
  out.push_back(memory_table(doc));
  if (written(ROOFLINE_FIELD(section_of(doc), memory_levels))) out.push_back(memory_levels_table(doc, target));
  if (!records_of(section_of(doc).core_kind_ceilings).empty()) out.push_back(core_kinds_table(doc));  // a hybrid CPU's
  out.push_back(placements_table(doc));
  const RooflineSection& section = section_of(doc);
  if (!records_of(section.roof_violations).empty()) out.push_back(roof_violations_table(doc));
  if (written(ROOFLINE_FIELD(section, crossovers))) out.push_back(crossovers_table(doc, target.main_memory()));
  if (written(ROOFLINE_FIELD(section, best_backends))) {  // every field its rows hold, as the records' writer writes them
    json rows = json::array();
    for (const BestBackendRecord& r : records_of(section.best_backends)) rows.push_back(to_json(r));
    out.push_back(generic_table("table-best-backends", "Best backend per batch and precision", rows));
  }
  if (!records_of(section.transfer_ceilings).empty()) {
    out.push_back(records_table(section.transfer_ceilings, "table-transfer_ceilings", "Host-device transfers"));
  }
  if (!records_of(section.launch_latency).empty()) {
    out.push_back(records_table(section.launch_latency, "table-launch_latency", "Kernel launch latency"));
  }
  if (host) return out;  // the host's facts are the machine's table, the report's first
  for (ReportTable& t : out) name_target(t, target);
  out.insert(out.begin(), facts_table(target));
  return out;
}

}  // namespace roofline
