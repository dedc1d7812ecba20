// What the stored-baseline gate's two ways of judging share (private to regress/): compare_gate.cpp judges files
// without the libc canaries by distrusting a class whose canary moved; gate_weighed.cpp weighs each figure against
// its class's libc canary (issue 59). See compare_gate.hpp for the rules.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "roofline/regress/compare_gate.hpp"

namespace roofline::regress_detail {

using FigurePairs = std::vector<std::pair<const KeyFigure*, const KeyFigure*>>;

// One figure's row: its reference (history median or base), threshold and verdict before the environment.
FigureRow judge_figure(const KeyFigure& b, const KeyFigure& n, const NoiseModel* noise, bool history_used, double k,
                       std::size_t m, const GateOptions& options);
// Whether the CPU was disturbed in a run that counts: the new one, and the base unless a history is the reference.
bool cpu_disturbed(const Gate& g);
// Why a figure's roofs of the moment say its memory moved between the runs ("" when they do not).
std::string moment_moved(const FigureRow& r, double limit);

// Both sides have the libc canaries (issue 59): each figure's row, judged on its change with its class's canary move
// divided out; the canaries' references are the base run's levels or the history's medians (B/s). Fills the rows,
// g.canaries and the disturbed flags and reasons of an erratic canary.
void judge_weighed(Gate& g, const FigurePairs& pairs, const NoiseModel* noise, double k, const GateOptions& options,
                   double core_reference, double dram_reference);

// A figure at more than one thread whose runs the host disturbed under it (issue 59, gate_threads.cpp): a run's threads'
// own rates more than max_thread_spread apart, the two runs' scaling against their own 1-thread partners more than
// max_scaling_drop apart (core-bound figures), or their threads placed apart (round trips more than
// max_placement_shift apart: shared-memory and GEMM figures). Not trusted: a change beyond its threshold reads
// unclear, with the reason. With a history only the new run's spread counts.
void distrust_thread_disturbances(Gate& g, const ResultsDocument& base, const std::vector<KeyFigure>& base_figures,
                                  const ResultsDocument& next, const std::vector<KeyFigure>& next_figures,
                                  const GateOptions& options);

}  // namespace roofline::regress_detail
