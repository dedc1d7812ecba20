// Placing GEMV/GEMM points on the measured roofline: attainable performance, bound, efficiency, and the
// predicted vs measured crossover batch.
#pragma once

#include <nlohmann/json.hpp>

#include "roofline/analysis/results_view.hpp"

namespace roofline {

// Returns {"placements": [...], "crossovers": [...], "best_backends": [...], "notes": [...]} (see
// results/README.md and placement.cpp), given the results document and the section derived so far
// (with compute and memory ceilings). Points whose ceilings are missing are placed as far as they can be
// (value and AI always) and a note says what is missing.
nlohmann::json derive_placements(const nlohmann::json& results, const nlohmann::json& roofline_section);
// The CPU's placements (its entries alone: view.host_document()); another target's are placed by
// derive_target_roofline on its own ceilings.
nlohmann::json derive_placements(const ResultsView& view, const nlohmann::json& roofline_section);

// The batch N at which the arithmetic intensity of C(MxN) = A(MxK) B(KxN) reaches `ridge_ai`, with
// element sizes a, b, c bytes: solves 2MNK / (MK a + KN b + MN c) = ridge for N. Returns a negative
// value when no batch reaches it (the intensity's limit 2MK / (K b + M c) is at or below the ridge).
double crossover_batch(double m, double k, double a_bytes, double b_bytes, double c_bytes, double ridge_ai);

}  // namespace roofline
