// Compare like with like (issue 36): memory key figures over the same working sets in both runs, and level
// boundaries that moved between the runs as lines of their own. Used by the gate (compare_gate.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "roofline/model/key_figures.hpp"
#include "roofline/model/results_document.hpp"

namespace roofline {

// "2T L2 ended at 1.41 MiB, now 22.6 MiB": each CPU level whose first or last size moved by more than one sweep
// step between `base` and `next` (results files with a roofline section), and levels only one run has. The first
// level's first size is no boundary between levels (level_start_changes).
std::vector<std::string> level_boundary_changes(const ResultsDocument& base, const ResultsDocument& next);

// "2T L1 began at 4 KiB, now 16 KiB": where the first level of a thread count starts moved by more than one sweep
// step. Below it the smallest sizes are bound by the per-call overhead, which a host's interrupts move (issue 46:
// one A/A pair's 2-thread 4 and 8 KiB read 250-360 GB/s against 660 in the other run, while 16 KiB and up agreed).
std::vector<std::string> level_start_changes(const ResultsDocument& base, const ResultsDocument& next);

// Re-takes each CPU memory figure of `next_figures` whose level's sizes moved against its base partner's over the
// base's sizes (plateau_median_over on `next`'s entries), when the new run measured any of them; returns one line
// per figure re-taken, saying both values.
std::vector<std::string> align_memory_figures(const ResultsDocument& base, const std::vector<KeyFigure>& base_figures,
                                              const ResultsDocument& next, std::vector<KeyFigure>& next_figures);

// The spread of the threads' own rates (benchmarks[].thread_rate_spread) under a figure at more than one thread
// (issue 59): the median over the repetitions of the entries `run` took it from: a memory figure's kernel and thread
// count over its level's sizes in `reference` (whose figure is `reference_figure`, as align_memory_figures takes
// them), a dequant figure's best entry of its format and thread count. nullopt where the figure has none (one
// thread, another group, a file from before the field).
std::optional<double> figure_thread_spread(const ResultsDocument& reference, const KeyFigure& reference_figure,
                                           const ResultsDocument& run);

// Where the host put the threads while a figure at more than one thread was measured (issue 59): the median of
// benchmarks[].thread_round_trip_ns over the entries `run` took it from (a memory figure's, as figure_thread_spread
// finds them; a GEMM figure's: every backend's entries of its precision, threads and batch). nullopt where the
// figure has none (one thread, compute, dequant, a roof-of-the-moment figure, a file from before the field).
std::optional<double> figure_thread_round_trip(const ResultsDocument& reference, const KeyFigure& reference_figure,
                                               const ResultsDocument& run);

}  // namespace roofline
