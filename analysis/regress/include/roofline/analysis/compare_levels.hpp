// Compare like with like (issue 36): memory key figures over the same working sets in both runs, and level
// boundaries that moved between the runs as lines of their own. Used by the gate (compare_gate.cpp).
#pragma once

#include <string>
#include <vector>

#include "roofline/analysis/key_figures.hpp"
#include "roofline/analysis/results_document.hpp"

namespace roofline {

// "2T L2 ended at 1.41 MiB, now 22.6 MiB": each CPU level whose first or last size moved by more than one sweep
// step between `base` and `next` (results files with a roofline section), and levels only one run has.
std::vector<std::string> level_boundary_changes(const ResultsDocument& base, const ResultsDocument& next);

// Re-takes each CPU memory figure of `next_figures` whose level's sizes moved against its base partner's over the
// base's sizes (plateau_median_over on `next`'s entries), when the new run measured any of them; returns one line
// per figure re-taken, saying both values.
std::vector<std::string> align_memory_figures(const ResultsDocument& base, const std::vector<KeyFigure>& base_figures,
                                              const ResultsDocument& next, std::vector<KeyFigure>& next_figures);

}  // namespace roofline
