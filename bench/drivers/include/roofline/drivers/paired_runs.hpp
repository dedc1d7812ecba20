// Paired A/B on one machine (`roofline compare --base-bin A --new-bin B [--rounds R] -- [run flags]`):
// runs the two executables' `run` alternately, in a random order per round, so that both builds see the
// same moments; the round is the unit (compare_gate.hpp's gate_paired). The rounds are looked at on a schedule
// fixed after the first round (paired_interval.hpp's paired_plan: the first look at the fewest rounds that can decide
// at the family-wise alpha, then about 1.3x further each), and stop at the first look where no figure is undecided,
// at --max-rounds, or when the next round would not fit the time budget (that round's look is then the last).
// Focused rounds (issue 59): after a look, the rounds measure only the suites whose figures are still undecided
// (`run --suites`, the same plan of each suite as in a whole run), so the figures that need rounds get more of them
// in the budget; a figure already decided keeps the rounds it was decided on. Not when the run flags name --suites
// themselves, nor with `focus` off.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "roofline/regress/compare_gate.hpp"

namespace roofline {

struct PairedOptions {
  std::string base_bin, next_bin;
  std::vector<std::string> run_flags;  // passed to both `BIN run ...`
  int rounds = 6;                      // at least this many before the first look
  int max_rounds = 40;                 // at most this many
  double budget_seconds = 420.0;       // the rounds' wall time at most (0: no limit); a round that would not fit is not started
  std::filesystem::path work_dir;      // the rounds' results files land here
  bool allow_machine_mismatch = false;
  unsigned seed = 0;                   // of the per-round order; 0: from std::random_device
  bool focus = true;                   // after a look, rounds measure only the undecided figures' suites
};

// The suites (`run --suites`) that measure the figures `gate` left undecided, in kSuiteNames' order; empty when a
// figure undecided has no suite of `run` (key_figures.hpp's suite_of), so that whole rounds go on.
std::vector<std::string> undecided_suites(const Gate& gate);

struct PairedResult {
  Gate gate;
  PairedRounds rounds;
  std::vector<std::string> configuration_differences;  // base vs new run, from the first round
  std::vector<std::string> order;                      // "AB", "BA" per round
  std::vector<std::string> round_suites;               // per round: "all", or the suites it focused on ("bandwidth,gemm")
  std::vector<int> looks;                              // the planned looks (round counts)
  double gamma = 0.0;                                  // each bound's error, regression interval (paired_plan)
  double gamma_own = 0.0;                              // each bound's error, a figure's own interval
  double seconds = 0.0;                                // the rounds' wall time
  std::string stopped;                                 // why the rounds ended: "decided", "max rounds", "budget"
  unsigned seed = 0;
};

// Throws InputError for a missing or non-executable binary, a run that fails (its exit code), results
// that are not roofline results, or runs of different machines (unless allowed). `log` gets one line
// per run.
PairedResult run_paired(const PairedOptions& options, const GateOptions& gate,
                        const std::function<void(const std::string&)>& log);

}  // namespace roofline
