// Placing GEMV/GEMM points on the measured roofline: attainable performance, bound, efficiency, and the
// predicted vs measured crossover batch.
#pragma once

#include <nlohmann/json.hpp>

namespace roofline {

// Returns {"placements": [...], "crossovers": [...], "notes": [...]} (see results/README.md), given the
// results document and the section derived so far (with compute and memory ceilings).
nlohmann::json derive_placements(const nlohmann::json& results, const nlohmann::json& roofline_section);

}  // namespace roofline
