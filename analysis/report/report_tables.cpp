// The report's tables: see report_tables.hpp. Values are formatted for people with their units; the
// numbers themselves are the file's, never adjusted. The machine's table is report_machine.cpp's, the tables
// of the section's parts the model keeps as JSON report_section_tables.cpp's, those whose columns are not fixed
// generic_table.cpp's, the way one cell is written table_cells.hpp's and typed_fields.hpp's.
#include "roofline/report/report_tables.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "report_roofs.hpp"
#include "roofline/model/results_targets.hpp"
#include "roofline/report/report_facts.hpp"
#include "roofline/model/roof_now.hpp"
#include "roofline/common/units.hpp"
#include "section_tables.hpp"
#include "table_cells.hpp"
#include "typed_fields.hpp"

namespace roofline {
using nlohmann::json;
using namespace report_detail;

namespace {

// One row of the compute table, from a typed ceiling or from a roofline.compute_table row, which adds the tile rows
// that did not run with their status and reason.
struct ComputeRow {
  std::string precision, engine, isa, bits, threads, unit, status, reason, clock_source;
  bool value_null = false;  // the row says it was not measured (value: null), and why
  double value = 0.0, theoretical = 0.0, percent = -1.0, vector_bits = 0.0, clock_hz = 0.0;
};

// The ISA cell: an ARM64 matrix multiply (kernel mmla) names its instruction, since its row shares precision, ISA
// and width with the dot product beside it ("neon" for SDOT, "neon (smmla v.4s)").
std::string isa_cell(const ComputeRowRecord& r) {
  const std::string isa = cell(ROOFLINE_FIELD(r, isa));
  if (cell(ROOFLINE_FIELD(r, kernel)) != "mmla") return isa;
  const std::string instruction = cell(ROOFLINE_FIELD(r, instruction));
  return isa + " (" + (instruction.empty() ? std::string("mmla") : instruction) + ")";
}

ComputeRow compute_row(const ComputeRowRecord& r) {
  const std::string unit = cell(ROOFLINE_FIELD(r, unit));  // else its precision's
  const auto value = r.extra.find("value");              // a row not measured: its value null
  return {cell(ROOFLINE_FIELD(r, precision)), cell(ROOFLINE_FIELD(r, engine), "vector"), isa_cell(r),
          cell(ROOFLINE_FIELD(r, vector_bits)), cell(ROOFLINE_FIELD(r, threads), "-"),
          unit.empty() ? rate_unit(cell(ROOFLINE_FIELD(r, precision))) : unit, cell(ROOFLINE_FIELD(r, status)),
          cell(ROOFLINE_FIELD(r, reason), "not supported"), cell(ROOFLINE_FIELD(r, clock_source)),
          value != r.extra.end() && value->is_null(), amount(ROOFLINE_FIELD(r, value)),
          amount(ROOFLINE_FIELD(r, theoretical)), amount(ROOFLINE_FIELD(r, percent), -1),
          amount(ROOFLINE_FIELD(r, vector_bits)), amount(ROOFLINE_FIELD(r, clock_hz))};
}

ComputeRow compute_row(const ComputeCeilingRecord& r) {
  const json& extra = r.extra;  // what the typed ceiling does not hold: a status, a reason, a null value
  return {cell(ROOFLINE_FIELD(r, precision)), cell(ROOFLINE_FIELD(r, engine), "vector"), cell(ROOFLINE_FIELD(r, isa)),
          cell(ROOFLINE_FIELD(r, vector_bits)), cell(ROOFLINE_FIELD(r, threads), "-"), rate_unit_of(r), str(extra, "status"),
          str(extra, "reason", "not supported"), cell(ROOFLINE_FIELD(r, clock_source)),
          extra.contains("value") && extra["value"].is_null(), amount(ROOFLINE_FIELD(r, value)),
          amount(ROOFLINE_FIELD(r, theoretical)), amount(ROOFLINE_FIELD(r, percent), -1), amount(ROOFLINE_FIELD(r, vector_bits)),
          amount(ROOFLINE_FIELD(r, clock_hz))};
}

std::vector<std::string> compute_cells(const ComputeRow& r) {
  std::string measured = r.value_null ? r.reason : rate_or_na(r.value, r.unit);
  const double theo = r.theoretical, value = r.value;
  const double ratio = r.percent >= 0 ? r.percent / 100.0 : (theo > 0 && value > 0 ? value / theo : 0);
  // A tile is a 16 x 64-byte register, not a vector width.
  const std::string width = r.engine == "matrix" ? "tile" : r.vector_bits > 0 ? r.bits + " bit" : "";
  const std::string clock = r.clock_hz > 0 ? fmt::format("{} ({})", format_si(r.clock_hz, "Hz"), r.clock_source) : "n/a";
  return {r.precision, r.engine, r.isa, width, r.threads, measured, clock, rate_or_na(theo, r.unit), percent(ratio)};
}

// Whether any row has text in column `c`.
bool any_cell(const ReportTable& t, std::size_t c) {
  return std::any_of(t.rows.begin(), t.rows.end(), [c](const auto& row) { return c < row.size() && !row[c].empty(); });
}

// How the theoretical column was computed: the peak model the target's facts name (compute_ceilings.cpp applies it).
std::string theoretical_note(const RecordedTarget& target) {
  if (target.peak_model == "x86_pipes") {
    return "Theoretical = threads x measured clock x operations per cycle per core (matrix engine: 1024 FLOP bf16/fp16 "
           "or 2048 OP int8 per cycle per core).";
  }
  if (target.peak_model == "units_clock") {
    return "Theoretical = compute units x clock x operations per unit per clock (its facts' ops_per_unit_per_clock, peak "
           "model units_clock), at the clock the clock column gives: measured beside the kernel, or the one its facts "
           "report.";
  }
  if (target.peak_model.empty()) return "Theoretical: unknown (the target's facts name no peak model).";
  return fmt::format("Theoretical: from its facts' peak model {}.", target.peak_model);
}

}  // namespace

ReportTable compute_table(const ResultsDocument& results) {
  return compute_table(target_document(results, kCpuTargetId), recorded_targets(results).front());
}

ReportTable compute_table(const ResultsDocument& results, const RecordedTarget& target) {
  ReportTable t{"table-compute", "Compute ceilings",
                {"precision", "engine", "ISA", "width", "threads", "measured", "clock", "theoretical", "% of theoretical"},
                {false, false, false, true, true, true, true, true, true}, {}, ""};
  std::vector<ComputeRow> rows;
  for (const ComputeRowRecord& r : records_of(section_of(results).compute_table)) rows.push_back(compute_row(r));
  if (rows.empty()) {
    for (const ComputeCeilingRecord& r : records_of(section_of(results).compute_ceilings)) rows.push_back(compute_row(r));
  }
  bool any_clock_source = false;  // the clock column where the rows say where their clock came from (a device's)
  for (const ComputeRow& r : rows) {
    // Tile rows that did not run are said once, in the note ("no matrix-unit roofs because ..."), so a
    // machine without AMX gets the table it always had.
    if (r.engine == "matrix" && r.status == "not supported") continue;
    t.rows.push_back(compute_cells(r));
    any_clock_source = any_clock_source || !r.clock_source.empty();
  }
  // The columns a target's rows have nothing for are left out: the clock where no row says where it came from (the
  // x86 model's clock is the machine's, in its table), the ISA and width where its kernels name none (a device's).
  if (t.rows.empty()) {
    t.note = "No compute ceilings in this file.";
    return t;
  }
  if (!any_clock_source) drop_column(t, 6);
  for (const std::size_t c : {3u, 2u}) {
    if (!any_cell(t, c)) drop_column(t, c);
  }
  t.note = theoretical_note(target);
  if (target.peak_model != "x86_pipes") return t;
  // The matrix engine's summary is the x86 model's (compute_ceilings.cpp derives it with that model alone).
  if (const auto& matrix = section_of(results).matrix_engine) {
    for (const std::string& line : words(ROOFLINE_FIELD(*matrix, lines))) t.note += "\n  " + line;
  }
  return t;
}

ReportTable core_kinds_table(const ResultsDocument& results) {
  ReportTable t{"table-core-kinds", "Per core kind (hybrid CPU: one thread on a PU of each kind)",
                {"core kind", "figure", "precision / level", "ISA / kernel", "width", "measured", "clock", "theoretical",
                 "% of theoretical"},
                {false, false, false, false, true, true, true, true, true}, {}, ""};
  for (const CoreKindCeilingRecord& r : records_of(section_of(results).core_kind_ceilings)) {
    const std::string unit = cell(ROOFLINE_FIELD(r, unit));
    const double value = amount(ROOFLINE_FIELD(r, value)), theoretical = amount(ROOFLINE_FIELD(r, theoretical));
    const double clock = amount(ROOFLINE_FIELD(r, clock_hz));
    if (r.figure.value_or("") == "compute") {
      const double bits = amount(ROOFLINE_FIELD(r, vector_bits));
      const std::string width = r.engine.value_or("") == "matrix" ? "tile" : bits > 0 ? fmt::format("{} bit", bits) : "";
      t.rows.push_back({cell(ROOFLINE_FIELD(r, core_kind)), "compute", cell(ROOFLINE_FIELD(r, precision)),
                        cell(ROOFLINE_FIELD(r, isa)), width, rate_or_na(value, unit),
                        clock > 0 ? format_si(clock, "Hz") : "n/a", rate_or_na(theoretical, unit),
                        percent(theoretical > 0 && value > 0 ? value / theoretical : 0.0)});
    } else {
      t.rows.push_back({cell(ROOFLINE_FIELD(r, core_kind)), "memory", cell(ROOFLINE_FIELD(r, level)),
                        cell(ROOFLINE_FIELD(r, kernel)), "", rate_or_na(value, unit), "", "", ""});
    }
  }
  t.note = "Each kind's clock and peak rows and its read sweep, at 1 thread bound to one PU of the kind (the compute and "
           "memory ceilings above are the run's, as on a machine of one kind). Theoretical = 1 thread x the clock "
           "measured on that PU x operations per cycle per core.";
  return t;
}

namespace {
// A DRAM row's page size ("2M" when the file predates the field), the share of its arrays on huge pages when
// recorded, and "roof" on the row that is the DRAM roof; empty for cache levels, which no page size bounds, and for
// a target whose rows name no pages (a device's memory is not the host's DRAM).
// R: a memory ceiling or a page-size ceiling.
template <class R>
std::string pages_text(const R& row, bool is_roof) {
  if (cell(ROOFLINE_FIELD(row, level)) != "DRAM") return "";
  std::string text = cell(ROOFLINE_FIELD(row, pages), "2M");
  if (row.huge_page_fraction) text += fmt::format(" ({:.0f}% huge)", 100.0 * *row.huge_page_fraction);
  return is_roof ? text + ", roof" : text;
}

// A memory ceiling's vector width where its target's kernels ran in several (an OpenCL device's), else "".
std::string width_text(const MemoryCeilingRecord& r) { return cell(ROOFLINE_FIELD(r, width)); }
std::string width_text(const PageSizeCeilingRecord&) { return ""; }

template <class R>
std::vector<std::string> memory_row(const R& r, bool is_roof) {
  const double lo = amount(ROOFLINE_FIELD(r, min_bytes)), hi = amount(ROOFLINE_FIELD(r, max_bytes));
  return {cell(ROOFLINE_FIELD(r, level)), cell(ROOFLINE_FIELD(r, kernel)), width_text(r), cell(ROOFLINE_FIELD(r, threads), "-"),
          pages_text(r, is_roof), rate_or_na(amount(ROOFLINE_FIELD(r, value)), "B/s"),
          rate_or_na(amount(ROOFLINE_FIELD(r, value_write_allocate)), "B/s"),
          lo > 0 || hi > 0 ? fmt::format("{} .. {}", format_bytes(lo), format_bytes(hi)) : "n/a"};
}

}  // namespace

ReportTable memory_table(const ResultsDocument& results) {
  ReportTable t{"table-memory", "Memory ceilings",
                {"level", "kernel", "width", "threads", "pages", "bandwidth (STREAM bytes)", "bandwidth (with write-allocate)",
                 "working sets"},
                {false, false, true, true, false, true, true, false}, {}, ""};
  const RooflineSection& section = section_of(results);
  bool write_allocate = false;  // whether the entries carried the counter (bench's CPU kernels do)
  for (const MemoryCeilingRecord& r : records_of(section.memory_ceilings)) {
    const std::string level = cell(ROOFLINE_FIELD(r, level)), kernel = cell(ROOFLINE_FIELD(r, kernel));
    const double threads = amount(ROOFLINE_FIELD(r, threads));
    const MemoryRoof roof = memory_roof(section, level, static_cast<int>(threads));
    t.rows.push_back(memory_row(r, roof.ceiling == &r));
    write_allocate = write_allocate || r.value_write_allocate.has_value();
    // The same kernel on 4 KiB pages, right below its huge-page row.
    for (const PageSizeCeilingRecord& s : records_of(section.page_size_ceilings)) {
      if (cell(ROOFLINE_FIELD(s, level)) == level && cell(ROOFLINE_FIELD(s, kernel)) == kernel &&
          amount(ROOFLINE_FIELD(s, threads)) == threads) {
        t.rows.push_back(memory_row(s, roof.pages == &s));
      }
    }
  }
  // The columns only where the rows have them: pages on a DRAM, write-allocate where the entries counted it (files
  // before that counter, and devices, did not), widths where the kernels ran in several.
  const bool pages = any_cell(t, 4);
  if (!t.rows.empty()) {
    if (!write_allocate) drop_column(t, 6);
    if (!pages) drop_column(t, 4);
    if (!any_cell(t, 2)) drop_column(t, 2);
  }
  static const std::string stream_bytes = "STREAM bytes: the words a kernel names (copy 2 per element, triad 3).";
  static const std::string with_write_allocate =
      " With write-allocate: each cached store also reads its line first (copy 3, triad 4, write 2; the _nt kernels' "
      "streaming stores do not, so they equal STREAM's). n/a: the file predates that counter.";
  static const std::string pages_note =
      "\nPages (DRAM): 2M = arrays asked for 2 MiB transparent huge pages, 4K = 4 KiB pages (MADV_NOHUGEPAGE, as "
      "likwid-bench and STREAM get); (N% huge) = the share of the arrays' resident bytes the kernel put on huge "
      "pages, when recorded; roof = the DRAM roof, the better of the two.";
  if (t.rows.empty()) {
    t.note = "No memory ceilings in this file.";
  } else {
    t.note = stream_bytes + (write_allocate ? with_write_allocate : "") + (pages ? pages_note : "");
  }
  return t;
}

namespace {

// engine/level placed against; "matrix?" marks a matrix point placed on the vector roof for want of one.
std::string roof_text(const PlacementRecord& r) {
  if (!r.roof) return "vector/DRAM";
  const PlacementRoof& roof = *r.roof;
  std::string text = fmt::format("{}/{}", cell(ROOFLINE_FIELD(roof, engine), "vector"), cell(ROOFLINE_FIELD(roof, level), "none"));
  if (written(ROOFLINE_FIELD(roof, engine_missing))) text += " (no matrix roof)";
  return text;
}

// The roof now: the read probes around the point (roof_now.hpp), "moved" when they disagree; "-" when not probed.
std::pair<std::string, std::string> roof_now_cells(const PlacementRecord& r, bool& any_moved) {
  if (!r.roof_now) return {"-", "-"};
  const PlacementRoofNow& now = *r.roof_now;
  const double efficiency = amount(ROOFLINE_FIELD(now, efficiency));
  std::string now_pct = percent(efficiency);
  if (efficiency > 1.10) now_pct += " !";
  if (now.moved.value_or(false)) {
    now_pct += " (memory moved while measuring)";
    any_moved = true;
  }
  return {rate_or_na(amount(ROOFLINE_FIELD(now, bandwidth)), "B/s"), now_pct};
}

// The roof of a point offloaded with its operands on every call: its attainable and what bounds it ("-": none).
std::string offload_text(const PlacementRecord& r, const std::string& unit) {
  if (!r.offload) return "-";
  const PlacementOffload& o = *r.offload;
  return fmt::format("{} ({}, {})", rate_or_na(amount(ROOFLINE_FIELD(o, attainable)), unit),
                     cell(ROOFLINE_FIELD(o, bound), "?"), cell(ROOFLINE_FIELD(o, memory), "?"));
}

void placements_note(ReportTable& t, bool any_now, bool any_moved) {
  t.note = "attainable = min(compute ceiling of the engine that ran, roof of the level the operands fit x AI); "
           "% of roof = measured / attainable; ! = above 110% of its roof (a ceiling is missing or a count is wrong).";
  if (any_now) {
    t.note += " roof now = the mean of two read probes of the operands' size taken right before and right after the "
              "point's repetitions; % of roof now = measured / min(compute ceiling, roof now x AI): the same point "
              "against the memory speed it had (- : not memory-bound, not probed).";
  }
  if (any_moved) {
    t.note += fmt::format(" (memory moved while measuring) = the two probes differ by more than {:.0f}% and their own "
                          "noise: the memory state changed during the point.", 100.0 * kRoofNowMovedFloor);
  }
}

}  // namespace

ReportTable placements_table(const ResultsDocument& results) {
  ReportTable t{"table-placements", "GEMV/GEMM placements",
                {"backend", "precision", "threads", "batch", "AI (FLOP/B)", "measured", "latency/call", "attainable",
                 "bound", "roof", "% of roof"},
                {false, false, true, true, true, true, true, true, false, false, true}, {}, ""};
  const std::vector<PlacementRecord>& placements = records_of(section_of(results).placements);
  // The roof-now columns only where a point was probed (files before issue 33 keep their table).
  const bool any_now = std::any_of(placements.begin(), placements.end(), [](const PlacementRecord& r) { return r.roof_now.has_value(); });
  bool any_moved = false;
  if (any_now) {
    t.columns.insert(t.columns.end(), {"roof now", "% of roof now"});
    t.right_aligned.insert(t.right_aligned.end(), {true, true});
  }
  // The offload roof where the target has a host link (a device's points; the CPU's have none).
  const bool any_offload = std::any_of(placements.begin(), placements.end(), [](const PlacementRecord& r) { return r.offload.has_value(); });
  if (any_offload) {
    t.columns.emplace_back("offloaded");
    t.right_aligned.push_back(true);
  }
  for (const PlacementRecord& r : placements) {
    const std::string unit = rate_unit_of(r);
    std::string pct = percent(amount(ROOFLINE_FIELD(r, efficiency)));
    if (r.beats_roof.value_or(false)) pct += " !";
    const auto [now_bw, now_pct] = roof_now_cells(r, any_moved);
    t.rows.push_back({cell(ROOFLINE_FIELD(r, backend)), cell(ROOFLINE_FIELD(r, precision)), cell(ROOFLINE_FIELD(r, threads), "-"),
                      cell(ROOFLINE_FIELD(r, batch)), fmt::format("{:.3g}", amount(ROOFLINE_FIELD(r, ai))),
                      rate_or_na(amount(ROOFLINE_FIELD(r, value)), unit), seconds(amount(ROOFLINE_FIELD(r, latency_seconds))),
                      rate_or_na(amount(ROOFLINE_FIELD(r, attainable)), unit), cell(ROOFLINE_FIELD(r, bound)), roof_text(r), pct});
    if (any_now) t.rows.back().insert(t.rows.back().end(), {now_bw, now_pct});
    if (any_offload) t.rows.back().push_back(offload_text(r, unit));
  }
  if (t.rows.empty()) {
    t.note = "No GEMV/GEMM placements in this file.";
    return t;
  }
  placements_note(t, any_now, any_moved);
  if (any_offload) {
    t.note += " offloaded = the roof were the operands sent from the host on every call (min(compute ceiling, best "
              "host-to-device transfer x AI)), what bounds it, and the host memory it was sent from; - : no transfer "
              "measured. threads - : the target's points name none (it runs each kernel on all of itself).";
  }
  return t;
}

ReportTable notes_table(const ResultsDocument& results) {
  ReportTable t{"table-notes", "Notes", {"from", "note"}, {false, false}, {}, ""};
  auto add = [&](const char* from, const std::vector<std::string>& notes) {
    for (const std::string& n : notes) t.rows.push_back({from, n});
  };
  add("machine", host_facts(results.context).notes);
  add("run", records_of(results.context.notes));
  add("analysis", records_of(section_of(results).notes));
  if (t.rows.empty()) t.note = "No notes.";
  return t;
}

ReportTable advertised_table(const AdvertisedComparison& cmp) {
  ReportTable t{"table-advertised",
                cmp.host ? fmt::format("Advertised vs measured: {}", cmp.spec_name)
                                                                  : fmt::format("Advertised vs measured: {}, {}", cmp.spec_name, cmp.target),
                {"what", "advertised (stated)", "advertised (this run)", "theoretical @ measured clock", "measured ceiling",
                 "best GEMM", "measured/advertised", "GEMM/advertised (MFU)", "verdict"},
                {false, true, true, true, true, true, true, true, false}, {}, cmp.basis};
  for (const AdvertisedRow& r : cmp.rows) {
    t.rows.push_back({r.what, r.stated + (r.sparse ? " (sparse)" : ""), rate_or_na(r.advertised, r.unit),
                      rate_or_na(r.theoretical, r.unit), rate_or_na(r.measured, r.unit), rate_or_na(r.best_gemm, r.unit),
                      percent(r.measured_ratio()), percent(r.gemm_ratio()), r.verdict});
  }
  return t;
}

std::vector<ReportTable> report_tables(const ResultsDocument& document, const std::optional<Spec>& spec) {
  // The machine's table, then every target's by the same functions (target_tables), the host CPU's first (its part of
  // the file: the file itself when it holds the CPU alone) and always, any other only where it has entries.
  const std::vector<RecordedTarget> targets = recorded_targets(document);
  const ResultsDocument host = target_document(document, targets.front().id);
  std::vector<ReportTable> out{machine_table(host)};
  // The datasheet after the tables of the target it describes (compare_to_spec: the host CPU, or the accelerator it
  // names).
  const std::optional<AdvertisedComparison> advertised =
      spec ? std::optional<AdvertisedComparison>(compare_to_spec(document, *spec)) : std::nullopt;
  for (const RecordedTarget& target : targets) {
    const bool is_host = &target == &targets.front();
    if (!is_host && !has_entries(document, target.id)) continue;
    const ResultsDocument part = is_host ? host : target_document(document, target.id);
    for (ReportTable& t : target_tables(part, target, is_host)) out.push_back(std::move(t));
    if (advertised && advertised->target == target.id) out.push_back(advertised_table(*advertised));
  }
  out.push_back(notes_table(host));
  out.push_back(conventions_table(host));
  return out;
}

std::string render_table_text(const ReportTable& t) {
  std::string s = t.title + "\n";
  if (!t.rows.empty() && !t.columns.empty()) {
    std::vector<std::size_t> width(t.columns.size(), 0);
    for (std::size_t c = 0; c < t.columns.size(); ++c) width[c] = t.columns[c].size();
    for (const auto& row : t.rows) {
      for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) width[c] = std::max(width[c], row[c].size());
    }
    auto line = [&](const std::vector<std::string>& cells) {
      std::string l = " ";
      for (std::size_t c = 0; c < width.size(); ++c) {
        const std::string cell = c < cells.size() ? cells[c] : "";
        const bool right = c < t.right_aligned.size() && t.right_aligned[c];
        const bool last = c + 1 == width.size();
        l += " " + (right ? fmt::format("{:>{}}", cell, width[c]) : last ? cell : fmt::format("{:<{}}", cell, width[c]));
      }
      while (!l.empty() && l.back() == ' ') l.pop_back();
      return l + "\n";
    };
    s += line(t.columns);
    std::size_t total = 1;
    for (std::size_t w : width) total += w + 1;
    s += "  " + std::string(total - 1, '-') + "\n";
    for (const auto& row : t.rows) s += line(row);
  }
  if (!t.note.empty()) s += "  " + t.note + "\n";
  return s;
}

}  // namespace roofline
