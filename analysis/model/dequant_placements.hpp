// roofline.dequant_placements (dequant_placements.cpp), a table of the dequant part (dequant_ceilings.hpp), built
// typed (DequantPlacementRecord): the target's dequant_gemv entries (a format's best kernel over weights sized for main memory at batch 1..16)
// with `attainable` = min(main memory's roof x ai, the format's dequant-dot roof as FLOP/s), `bound` "memory" or
// "dequant" and `efficiency`. Private to roofline::model.
#pragma once

#include <vector>

#include "roofline/model/results_targets.hpp"
#include "roofline/model/results_document.hpp"

namespace roofline {

// The rows, on `section` (the target's typed section so far: its main memory's roof) and `ceilings` (the dequant
// part's dequant_ceilings).
std::vector<DequantPlacementRecord> dequant_placements(const ResultsDocument& doc, const RecordedTarget& target,
                                                       const RooflineSection& section,
                                                       const std::vector<DequantCeilingRecord>& ceilings);

}  // namespace roofline
