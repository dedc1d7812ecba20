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

}  // namespace roofline::regress_detail
