// The one rule by which every comparison of this project judges a change: compare's rows (benchmarks,
// ceilings, placements), the key-figure gate, paired rounds and the history's calibration. A change is
// measured as a signed relative change (new / reference - 1, or compare.py's calculate_change); the
// threshold is relative and applies in the direction that is worse for the figure. Whether the evidence
// establishes the move (a U test, a signed-rank test, a trusted environment) is the caller's to say.
#pragma once

#include <string_view>

namespace roofline {

// ok: within the threshold (or better without evidence); improvement / regression: beyond the threshold
// with evidence; unclear: worse beyond the threshold but not established (not significant yet, or its
// environment was disturbed): it never fails a gate by itself.
// Paired rounds (paired_interval.hpp) add not_worse (a regression beyond the threshold excluded, equivalence not
// shown) and undecided (neither excluded nor shown: more rounds).
enum class Verdict { ok, improvement, regression, unclear, not_worse, undecided };
std::string_view to_string(Verdict verdict);

// Whether a move beyond the threshold in each direction is established. Default: the threshold alone decides.
struct Evidence {
  bool worse = true;
  bool better = true;
};

// The verdict on `change` for a figure where larger is better (`higher_is_better`) or smaller is.
Verdict judge(bool higher_is_better, double change, double threshold, Evidence evidence = {});

}  // namespace roofline
