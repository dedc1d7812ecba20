// Placing GEMV/GEMM points on the measured roofline: attainable performance, bound, efficiency, and the
// predicted vs measured crossover batch.
#pragma once

#include <nlohmann/json.hpp>

#include "roofline/model/document_view.hpp"

namespace roofline {

// Returns {"placements": [...], "crossovers": [...], "best_backends": [...], "roof_violations": [...], "notes": [...]} (see
// results/README.md and placement.cpp), given the results document and the section derived so far
// (with compute and memory ceilings). Points whose ceilings are missing are placed as far as they can be
// (value and AI always) and a note says what is missing.
// The json overload (hand-made documents of the tests, until they are typed) reads the document as the lenient typed
// reader does and places its first target's points (the host CPU's).
nlohmann::json derive_placements(const nlohmann::json& results, const nlohmann::json& roofline_section);
// One target's placements, from its typed entries alone (view.target_document(target.id)) on its own ceilings: the
// section holds that target's ceilings and levels, and nothing of another target's. Every target's points are
// placed here, by the one per-target derivation (derive_target_roofline, which derive_roofline runs for each).
nlohmann::json derive_placements(const DocumentView& view, const TargetView& target, const nlohmann::json& roofline_section);

// The batch N at which the arithmetic intensity of C(MxN) = A(MxK) B(KxN) reaches `ridge_ai`, with
// element sizes a, b, c bytes: solves 2MNK / (MK a + KN b + MN c) = ridge for N. Returns a negative
// value when no batch reaches it (the intensity's limit 2MK / (K b + M c) is at or below the ridge).
double crossover_batch(double m, double k, double a_bytes, double b_bytes, double c_bytes, double ridge_ai);

}  // namespace roofline
