// The report's tables: see report_tables.hpp. Values are formatted for people with their units; the
// numbers themselves are the file's, never adjusted. The machine's table is report_machine.cpp's, the tables
// whose columns are not fixed generic_table.cpp's, the way one cell is written table_cells.hpp's.
#include "roofline/analysis/report_tables.hpp"
#include "roofline/analysis/results_view.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/analysis/roof_now.hpp"

#include "roofline/analysis/report_facts.hpp"
#include "roofline/analysis/roofline_section.hpp"
#include "roofline/analysis/spec.hpp"
#include "roofline/common/units.hpp"
#include "table_cells.hpp"

namespace roofline {
using nlohmann::json;
using namespace report_detail;

ReportTable compute_table(const json& results) {
  ReportTable t{"table-compute", "Compute ceilings",
                {"precision", "engine", "ISA", "width", "threads", "measured", "theoretical", "% of theoretical"},
                {false, false, false, true, true, true, true, true}, {}, ""};
  const json& table = roofline_array(results, "compute_table");
  const json& rows = table.empty() ? roofline_array(results, "compute_ceilings") : table;
  for (const json& r : rows) {
    // Tile rows that did not run are said once, in the note ("no matrix-unit roofs because ..."), so a
    // machine without AMX gets the table it always had.
    if (str(r, "engine") == "matrix" && str(r, "status") == "not supported") continue;
    const std::string unit = rate_unit_of(r);
    const double value = num(r, "value"), theo = num(r, "theoretical");
    std::string measured = rate_or_na(value, unit);
    if (r.contains("value") && r["value"].is_null()) measured = str(r, "reason", "not supported");
    const double ratio = num(r, "percent", -1) >= 0 ? num(r, "percent") / 100.0 : (theo > 0 && value > 0 ? value / theo : 0);
    const std::string engine = str(r, "engine", "vector");
    // A tile is a 16 x 64-byte register, not a vector width.
    const std::string width = engine == "matrix" ? "tile" : num(r, "vector_bits") > 0 ? str(r, "vector_bits") + " bit" : "";
    t.rows.push_back({str(r, "precision"), engine, str(r, "isa"), width, str(r, "threads"), measured,
                      rate_or_na(theo, unit), percent(ratio)});
  }
  if (t.rows.empty()) {
    t.note = "No compute ceilings in this file.";
    return t;
  }
  t.note = "Theoretical = threads x measured clock x operations per cycle per core (matrix engine: 1024 FLOP bf16/fp16 "
           "or 2048 OP int8 per cycle per core).";
  const json& matrix = object_at(roofline_of(results), "matrix_engine");
  for (const json& line : matrix.value("lines", json::array())) {
    if (line.is_string()) t.note += "\n  " + line.get<std::string>();
  }
  return t;
}

namespace {
// A DRAM row's page size ("2M" when the file predates the field), the share of its arrays on huge pages when
// recorded, and "roof" on the row that is the DRAM roof; empty for cache levels, which no page size bounds.
std::string pages_text(const json& row, const json* roof) {
  if (str(row, "level") != "DRAM") return "";
  std::string text = str(row, "pages", "2M");
  if (row.contains("huge_page_fraction") && row["huge_page_fraction"].is_number()) {
    text += fmt::format(" ({:.0f}% huge)", 100.0 * row["huge_page_fraction"].get<double>());
  }
  return roof == &row ? text + ", roof" : text;
}

std::vector<std::string> memory_row(const json& r, const json* roof) {
  const double lo = num(r, "min_bytes"), hi = num(r, "max_bytes");
  return {str(r, "level"), str(r, "kernel"), str(r, "threads"), pages_text(r, roof), rate_or_na(num(r, "value"), "B/s"),
          rate_or_na(num(r, "value_write_allocate"), "B/s"),
          lo > 0 || hi > 0 ? fmt::format("{} .. {}", format_bytes(lo), format_bytes(hi)) : "n/a"};
}
}  // namespace

ReportTable memory_table(const json& results) {
  ReportTable t{"table-memory", "Memory ceilings",
                {"level", "kernel", "threads", "pages", "bandwidth (STREAM bytes)", "bandwidth (with write-allocate)",
                 "working sets"},
                {false, false, true, false, true, true, false}, {}, ""};
  const json& section = roofline_of(results);
  const json& small = roofline_array(results, "page_size_ceilings");
  for (const json& r : roofline_array(results, "memory_ceilings")) {
    const json* roof = memory_roof(section, str(r, "level"), static_cast<int>(num(r, "threads")));
    t.rows.push_back(memory_row(r, roof));
    // The same kernel on 4 KiB pages, right below its huge-page row.
    for (const json& s : small) {
      if (str(s, "level") == str(r, "level") && str(s, "kernel") == str(r, "kernel") && num(s, "threads") == num(r, "threads")) {
        t.rows.push_back(memory_row(s, roof));
      }
    }
  }
  static const std::string byte_counts =
      "STREAM bytes: the words a kernel names (copy 2 per element, triad 3). With write-allocate: each cached "
      "store also reads its line first (copy 3, triad 4, write 2; the _nt kernels' streaming stores do not, so "
      "they equal STREAM's). n/a: the file predates that counter.";
  static const std::string pages =
      "\nPages (DRAM): 2M = arrays asked for 2 MiB transparent huge pages, 4K = 4 KiB pages (MADV_NOHUGEPAGE, as "
      "likwid-bench and STREAM get); (N% huge) = the share of the arrays' resident bytes the kernel put on huge "
      "pages, when recorded; roof = the DRAM roof, the better of the two.";
  t.note = t.rows.empty() ? std::string("No memory ceilings in this file.") : byte_counts + pages;
  return t;
}

ReportTable placements_table(const json& results) {
  ReportTable t{"table-placements", "GEMV/GEMM placements",
                {"backend", "precision", "threads", "batch", "AI (FLOP/B)", "measured", "latency/call", "attainable",
                 "bound", "roof", "% of roof"},
                {false, false, true, true, true, true, true, true, false, false, true}, {}, ""};
  // The roof-now columns only where a point was probed (files before issue 33 keep their table).
  bool any_now = false, any_moved = false;
  for (const json& r : roofline_array(results, "placements")) any_now = any_now || !object_at(r, "roof_now").empty();
  if (any_now) {
    t.columns.insert(t.columns.end(), {"roof now", "% of roof now"});
    t.right_aligned.insert(t.right_aligned.end(), {true, true});
  }
  for (const json& r : roofline_array(results, "placements")) {
    const std::string unit = rate_unit_of(r);
    const json& roof = object_at(r, "roof");
    // engine/level placed against; "matrix?" marks a matrix point placed on the vector roof for want of one.
    std::string roof_text = roof.empty() ? "vector/DRAM"
                                         : fmt::format("{}/{}", str(roof, "engine", "vector"), str(roof, "level", "none"));
    if (roof.contains("engine_missing")) roof_text += " (no matrix roof)";
    std::string pct = percent(num(r, "efficiency"));
    if (r.value("beats_roof", false)) pct += " !";
    // The roof now: the read probes around the point (roof_now.hpp); "moved" when they disagree.
    std::string now_bw = "-", now_pct = "-";
    const json& now = object_at(r, "roof_now");
    if (!now.empty()) {
      now_bw = rate_or_na(num(now, "bandwidth"), "B/s");
      now_pct = percent(num(now, "efficiency"));
      if (num(now, "efficiency") > 1.10) now_pct += " !";
      if (now.value("moved", false)) {
        now_pct += " (memory moved while measuring)";
        any_moved = true;
      }
    }
    t.rows.push_back({str(r, "backend"), str(r, "precision"), str(r, "threads"), str(r, "batch"),
                      fmt::format("{:.3g}", num(r, "ai")), rate_or_na(num(r, "value"), unit),
                      seconds(num(r, "latency_seconds")), rate_or_na(num(r, "attainable"), unit), str(r, "bound"),
                      roof_text, pct});
    if (any_now) t.rows.back().insert(t.rows.back().end(), {now_bw, now_pct});
  }
  if (t.rows.empty()) {
    t.note = "No GEMV/GEMM placements in this file.";
    return t;
  }
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
  return t;
}

// Points above 110% of their roof: the tool's invariant on itself, shown loudly (never hidden or clamped).
ReportTable roof_violations_table(const json& results) {
  ReportTable t{"table-roof-violations", "A point beats its roof: a ceiling is missing or a count is wrong",
                {"backend", "precision", "threads", "batch", "measured", "attainable", "% of roof", "roof", "why"},
                {false, false, true, true, true, true, true, false, false}, {}, ""};
  for (const json& v : roofline_array(results, "roof_violations")) {
    const std::string unit = rate_unit_of(v);
    const json& roof = object_at(v, "roof");
    t.rows.push_back({str(v, "backend"), str(v, "precision"), str(v, "threads"), str(v, "batch"),
                      rate_or_na(num(v, "value"), unit), rate_or_na(num(v, "attainable"), unit),
                      percent(num(v, "efficiency")),
                      fmt::format("{}/{}", str(roof, "engine", "vector"), str(roof, "level", "none")),
                      roof.contains("engine_missing") ? "ran on the matrix engine; no matrix roof was measured"
                                                      : "a ceiling is missing or a count is wrong"});
  }
  return t;
}

ReportTable notes_table(const json& results) {
  ReportTable t{"table-notes", "Notes", {"from", "note"}, {false, false}, {}, ""};
  auto add = [&](const char* from, const json& arr) {
    if (!arr.is_array()) return;
    for (const json& n : arr) {
      if (n.is_string()) t.rows.push_back({from, n.get<std::string>()});
    }
  };
  const json& ctx = object_at(results, "context");
  add("machine", json(ResultsView(results).host().notes));
  add("run", ctx.value("notes", json::array()));
  add("analysis", roofline_of(results).value("notes", json::array()));
  if (t.rows.empty()) t.note = "No notes.";
  return t;
}

ReportTable conventions_table(const json& results) {
  ReportTable t{"table-conventions", "Counting conventions", {"what", "convention"}, {false, false}, {}, ""};
  const json& c = object_at(roofline_of(results), "conventions");
  for (auto it = c.begin(); it != c.end(); ++it) {
    t.rows.push_back({it.key(), it.value().is_string() ? it.value().get<std::string>() : it.value().dump()});
  }
  if (t.rows.empty()) t.note = "This file does not state its counting conventions.";
  return t;
}

ReportTable advertised_table(const AdvertisedComparison& cmp) {
  ReportTable t{"table-advertised", fmt::format("Advertised vs measured: {}", cmp.spec_name),
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

// Cache levels as the curve shows them beside what the machine facts report: where they disagree, the
// curve is used, and this table is where a reader sees both.
ReportTable memory_levels_table(const json& results) {
  ReportTable t{"table-memory-levels", "Memory levels (reported vs inferred)",
                {"threads", "level", "plateau (working sets)", "bandwidth", "curve leaves at", "reported size",
                 "agreement", "source"},
                {true, false, false, true, true, true, false, false}, {}, ""};
  auto bytes_or_na = [](const json& r, const char* key) {
    return r.contains(key) && r[key].is_number() ? format_bytes(r[key].get<double>()) : std::string("n/a");
  };
  for (const json& r : roofline_array(results, "memory_levels")) {
    t.rows.push_back({str(r, "threads"), str(r, "level"),
                      fmt::format("{} .. {}", bytes_or_na(r, "min_bytes"), bytes_or_na(r, "max_bytes")),
                      rate_or_na(num(r, "bandwidth"), "B/s"), bytes_or_na(r, "inferred_bytes"),
                      bytes_or_na(r, "reported_bytes"), str(r, "agreement"), str(r, "source")});
  }
  if (!t.rows.empty()) {
    t.note = "bandwidth: the plateau's median for the reference (read) kernel; reported: the machine facts' cache "
             "capacity for these threads; the curve decides when they disagree.";
  }
  return t;
}

// Predicted crossover beside the measured knee, per sweep: the comparison the roofline exists to make.
ReportTable crossovers_table(const json& results) {
  ReportTable t{"table-crossovers", "Crossovers: predicted vs measured knee",
                {"backend", "precision", "threads", "shape MxK", "ridge AI", "predicted batch", "measured knee",
                 "batches measured"},
                {false, false, true, false, true, true, true, false}, {}, ""};
  auto batch_or_na = [](const json& r, const char* exact, const char* first) {
    if (!r.contains(exact) || !r[exact].is_number()) return std::string("n/a");
    std::string s = fmt::format("{:.3g}", r[exact].get<double>());
    if (r.contains(first) && r[first].is_number()) s += fmt::format(" (first measured: {})", r[first].get<long long>());
    return s;
  };
  for (const json& r : roofline_array(results, "crossovers")) {
    std::string batches;
    const json measured = r.value("batches", json::array());
    for (const json& b : measured) {
      if (!batches.empty()) batches += ',';  // (not `"," + dump()`: GCC 12 -Wrestrict false positive)
      batches += b.dump();
    }
    // A knee read off two or three batches is an extrapolation, not a measurement: shown only from four.
    const std::string knee = measured.size() >= 4 ? batch_or_na(r, "knee_batch", "knee_first_batch") : "n/a";
    t.rows.push_back({str(r, "backend"), str(r, "precision"), str(r, "threads"),
                      fmt::format("{}x{}", str(r, "m"), str(r, "k")),
                      r.contains("ridge_ai") && r["ridge_ai"].is_number() ? fmt::format("{:.3g}", num(r, "ridge_ai")) : "n/a",
                      batch_or_na(r, "predicted_batch", "predicted_first_batch"),
                      knee, batches});
  }
  if (t.rows.empty()) t.note = "No GEMM sweeps in this file.";
  else t.note = "predicted: the batch whose AI reaches the DRAM ridge; measured knee: where attained FLOP/s stops growing with the batch (n/a: fewer than four batches measured, or no knee yet).";
  return t;
}

std::vector<ReportTable> report_tables(const json& document, const json& spec) {
  // The CPU's tables from its entries alone (a file of the CPU only: the file itself), then each other target's.
  const ResultsView view(document);
  const json& results = view.host_document();
  std::vector<ReportTable> out{machine_table(results), compute_table(results), memory_table(results)};
  const json& r = roofline_of(results);
  if (r.contains("dequant_table")) out.insert(out.begin() + 2, dequant_table(results));
  if (!roofline_array(results, "dequant_placements").empty()) out.insert(out.begin() + 3, dequant_placements_table(results));
  if (r.contains("memory_levels")) out.push_back(memory_levels_table(results));
  out.push_back(placements_table(results));
  if (!roofline_array(results, "roof_violations").empty()) out.push_back(roof_violations_table(results));
  if (r.contains("crossovers")) out.push_back(crossovers_table(results));
  if (r.contains("best_backends")) out.push_back(generic_table("table-best-backends", "Best backend per batch and precision", r["best_backends"]));
  if (spec.is_object()) out.push_back(advertised_table(compare_to_spec(results, parse_spec(spec, str(spec, "file", "spec")))));
  for (const TargetView& target : view.devices()) {
    if (view.entries(target.id).empty()) continue;
    for (ReportTable& t : target_tables(view, target)) out.push_back(std::move(t));
  }
  out.push_back(notes_table(results));
  out.push_back(conventions_table(results));
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
