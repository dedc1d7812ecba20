// Paired A/B on one machine (`roofline compare --base-bin A --new-bin B [--rounds R] -- [run flags]`):
// runs the two executables' `run` alternately, in a random order per round, so that both builds see the
// same moments; the round is the unit (compare_gate.hpp's gate_paired). When the answer is not clear
// after R rounds (a figure worse than the floor but not yet significant), it runs more, up to a limit.
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
  int rounds = 6;                      // at least this many
  int max_rounds = 16;                 // extended one round at a time while unclear, up to this
  std::filesystem::path work_dir;      // the rounds' results files land here
  bool allow_machine_mismatch = false;
  unsigned seed = 0;                   // of the per-round order; 0: from std::random_device
};

struct PairedResult {
  Gate gate;
  PairedRounds rounds;
  std::vector<std::string> configuration_differences;  // base vs new run, from the first round
  std::vector<std::string> order;                      // "AB", "BA" per round
  unsigned seed = 0;
};

// Throws InputError for a missing or non-executable binary, a run that fails (its exit code), results
// that are not roofline results, or runs of different machines (unless allowed). `log` gets one line
// per run.
PairedResult run_paired(const PairedOptions& options, const GateOptions& gate,
                        const std::function<void(const std::string&)>& log);

}  // namespace roofline
