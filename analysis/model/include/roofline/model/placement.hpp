// Placing GEMV/GEMM points on the measured roofline: attainable performance, bound, efficiency, and the
// predicted vs measured crossover batch.
#pragma once

#include "roofline/model/results_targets.hpp"

namespace roofline {

// placements, crossovers, best_backends, roof_violations and notes (see
// results/README.md and placement.cpp) of one target, from its typed entries alone (its part of the document, target_document)
// on its own ceilings: `roofline_section` is that target's typed section derived so far (its compute and memory
// ceilings, memory_levels, transfer ceilings), nothing of another target's. Every target's points are placed here,
// by the one per-target derivation (derive_target_roofline, which derive_roofline runs for each). Points whose
// ceilings are missing are placed as far as they can be (value and AI always) and a note says what is missing.
// The typed part of the section, built row by row (issue 61: no JSON between).
RooflineSection derive_placements(const ResultsDocument& part, const RecordedTarget& target,
                                  const RooflineSection& roofline_section);

// The batch N at which the arithmetic intensity of C(MxN) = A(MxK) B(KxN) reaches `ridge_ai`, with
// element sizes a, b, c bytes: solves 2MNK / (MK a + KN b + MN c) = ridge for N. Returns a negative
// value when no batch reaches it (the intensity's limit 2MK / (K b + M c) is at or below the ridge).
double crossover_batch(double m, double k, double a_bytes, double b_bytes, double c_bytes, double ridge_ai);

}  // namespace roofline
