// Dequant-dot ceilings (issue 38): from the compute suite's dequant_dot entries (labels.suite "dequant_dot":
// a GEMV of weights in a block format, q8_0 .. q6_k and int4-g128, times quantized activations, per ISA,
// with the weights in L1 and in L2), the rate each format's weights can be unpacked and multiplied at:
//   roofline.dequant_table     every format x ISA x level x threads row, measured, failed or not supported,
//                              with the fp32 FMA peak at its thread count beside it
//   roofline.dequant_ceilings  per format and thread count the best row (weights/s; flop_per_second = 2 FLOP
//                              per weight, one multiply-add), what `roofline llm` bounds a quantized step by
//   roofline.dequant_placements  the quantized GEMVs (batch 1..16, weights in DRAM) on that roof and DRAM's
// A ceiling is the best repetition's best call, as for the compute ceilings. Key figures:
// dequant/<format>/threads:T (weights/s).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/model/key_figures.hpp"
#include "roofline/model/results_targets.hpp"

namespace roofline {

// The counting convention of the dequant-dot rows, for the section's conventions.
std::string dequant_counting_convention();

// {"dequant_table": [...], "dequant_ceilings": [...], "dequant_placements": [...], "notes": [...]} of one target's
// typed entries (its target_document; the CPU's today, the only target with dequant-dot kernels), as the typed part of
// the section, its rows built typed (issue 61); `section` is that
// target's typed section so far (its compute_ceilings give the fp32 FMA peak beside each row, its main memory's roof
// the placements'). An empty part when the target has no dequant_dot entries (files from before issue 38), so their
// sections stay as they were.
RooflineSection derive_dequant_ceilings(const ResultsDocument& part, const RecordedTarget& target,
                                        const RooflineSection& section);

// The key figures of the typed section's dequant_ceilings (appended to `out`); throws InputError on a mistyped entry.
void add_dequant_key_figures(const RooflineSection& roofline, std::vector<KeyFigure>& out);

// The best of the dequant ceilings of `format` ("q8_0", ..., "int4") at `threads`, or null.
const DequantCeilingRecord* dequant_roof(const std::vector<DequantCeilingRecord>& ceilings, const std::string& format,
                                         int threads);

}  // namespace roofline
