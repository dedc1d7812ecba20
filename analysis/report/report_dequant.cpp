// The report's dequant-dot table (issue 38): each block format's dot-product kernel per ISA, level and
// thread count in weights/s, the equivalent FLOP/s (2 per weight) and that as a share of the fp32 FMA peak
// at the same thread count, so a reader sees how far below the vector units' FMA rate the unpacking keeps a
// quantized GEMV. Rows from the typed roofline.dequant_table (dequant_ceilings.hpp), and the quantized GEMVs from the
// typed roofline.dequant_placements.
#include <fmt/format.h>

#include "report_roofs.hpp"
#include "roofline/report/report_tables.hpp"
#include "roofline/common/units.hpp"
#include "table_cells.hpp"
#include "typed_fields.hpp"

namespace roofline {
using nlohmann::json;
using namespace report_detail;

ReportTable dequant_table(const ResultsDocument& results) {
  ReportTable t{"table-dequant", "Dequant-dot ceilings (quantized weights x quantized activations)",
                {"format", "ISA", "level", "threads", "weights/s", "equiv. FLOP/s", "fp32 FMA peak", "% of FMA peak",
                 "activations"},
                {false, false, false, true, true, true, true, true, false}, {}, ""};
  for (const DequantRowRecord& r : records_of(section_of(results).dequant_table)) {
    const std::string status = cell(ROOFLINE_FIELD(r, status));
    const double value = amount(ROOFLINE_FIELD(r, value)), peak = amount(ROOFLINE_FIELD(r, fp32_fma_peak));
    const std::string measured = status == "measured" ? format_si(value, "weights/s") : cell(ROOFLINE_FIELD(r, reason), status);
    const std::string flops = status == "measured" ? format_si(2.0 * value, "FLOP/s") : "";
    const std::string share = status == "measured" && peak > 0.0 ? fmt::format("{:.1f}%", 100.0 * 2.0 * value / peak) : "";
    t.rows.push_back({cell(ROOFLINE_FIELD(r, format)), cell(ROOFLINE_FIELD(r, isa)), cell(ROOFLINE_FIELD(r, level)),
                      cell(ROOFLINE_FIELD(r, threads)), measured, flops, peak > 0.0 ? format_si(peak, "FLOP/s") : "n/a", share,
                      cell(ROOFLINE_FIELD(r, activations))});
  }
  t.note = "A GEMV of weights in the block format times one activation vector, weights in L1/L2 (compute-bound); "
           "a weight times its activation counts one multiply-add = 2 FLOP, the unpacking uncounted. The best row per "
           "format and thread count is its ceiling (roofline.dequant_ceilings), the one `roofline llm --weights` uses.";
  return t;
}

ReportTable dequant_placements_table(const ResultsDocument& results) {
  ReportTable t{"table-dequant-gemv", "Quantized GEMV on the format's own roof (weights in DRAM)",
                {"format", "ISA", "batch", "threads", "measured", "weights/s", "attainable", "bound", "efficiency"},
                {false, false, true, true, true, true, true, false, true}, {}, ""};
  for (const DequantPlacementRecord& p : records_of(section_of(results).dequant_placements)) {
    const double attainable = amount(ROOFLINE_FIELD(p, attainable));
    t.rows.push_back({cell(ROOFLINE_FIELD(p, format)), cell(ROOFLINE_FIELD(p, isa)), cell(ROOFLINE_FIELD(p, batch)),
                      cell(ROOFLINE_FIELD(p, threads)), format_si(amount(ROOFLINE_FIELD(p, value)), "FLOP/s"),
                      format_si(amount(ROOFLINE_FIELD(p, weights_per_second)), "weights/s"),
                      attainable > 0.0 ? format_si(attainable, "FLOP/s") : "n/a", cell(ROOFLINE_FIELD(p, bound), "n/a"),
                      attainable > 0.0 ? fmt::format("{:.0f}%", 100.0 * amount(ROOFLINE_FIELD(p, efficiency))) : "n/a"});
  }
  t.note = "attainable = min(DRAM roof x arithmetic intensity, the format's dequant-dot ceiling x 2 FLOP per weight); one "
           "activation column after another over each chunk of rows (ggml's vec_dot path), so the unpacking is redone "
           "for every column and the dequant roof is flat in the batch: bound says whether the DRAM or the unpacking binds.";
  return t;
}

}  // namespace roofline
