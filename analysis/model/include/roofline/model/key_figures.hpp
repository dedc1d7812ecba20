// The key figures of a run: the dozen or two numbers that say whether a machine (or a build) got slower,
// read from a results file's roofline section. The CI gate (compare), the history database and the fleet
// report all judge runs on these and only these, so the selection lives here once.
//
// Per thread count measured:
//   memory/<level>/<read|triad>/threads:T   each level's read and triad ceiling (B/s)
//   compute/<precision>/<engine>/threads:T  each precision's compute ceiling per engine (FLOP/s or OP/s)
//   clock/threads:T                          the measured core clock beside the vector kernels (Hz)
//   gemm/<precision>/batch:1/threads:T       the best GEMV/GEMM backend at batch 1
//   gemm/<precision>/batch:max/threads:T     ... and at the largest batch measured (its batch in the label)
//   gemm/<precision>/<backend>/batch:1/threads:T/of_roof_now
//                                            each backend's GEMV as a fraction of its roof now (roof_now.hpp:
//                                            the read probes around it; unit "fraction"), a shared-memory
//                                            figure (issue 46: it moved with the host's memory state)
//   llm/<model>/<weights>/kv:<kv>/decode/batch:B/context:C/threads:T, .../prefill/prompt:P/threads:T
//                                            one layer's time of `llm --measure` (s, lower is better: the
//                                            median repetition; its estimate in the label)
//
// A memory figure is the level's plateau median (the median over the level's sizes of each size's
// median: memory_ceilings.cpp), not the roof's best repetition: the best of a level jumps by 20% when one
// size bumps or the level's edge moves by a size between runs, which a gate would read as a change.
// Files older than plateau_median give the best repetition, and say so in `statistic`.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/model/results_document.hpp"
#include "roofline/model/results_targets.hpp"

namespace roofline {

struct KeyFigure {
  std::string id;     // stable across runs, see above
  std::string group;  // "memory", "compute", "clock", "gemm" or "llm"
  std::string label;  // for people: "DRAM read, 2 threads"
  int threads = 0;
  double value = 0.0;  // base units
  std::string unit;    // "B/s", "FLOP/s", "OP/s", "Hz", "s"
  bool higher_is_better = true;
  // How the value was taken ("plateau median", "best repetition", "best backend", ...): two runs' values
  // of one id are comparable only when this is the same.
  std::string statistic;
  // Touches the memory levels cores share (L3 and DRAM): memory figures of those levels, and GEMV/GEMM whose
  // operands live there (memory- or compute-bound: a compute-bound GEMM still streams its panels, and
  // shares them between cores, at the memory system's state). The run's DRAM canary speaks for their
  // environment (compare_gate.hpp): a shared host that moves a guest's vCPUs between L3 domains changes
  // DRAM and L3 bandwidth and the L3's apparent size together (2-vCPU VM: 2-thread DRAM 50 or 90 GB/s, and
  // a 128 MiB GEMV "fits L3" only in the faster state).
  bool shared_memory = false;
  // A named warning on the figure's level (plateaus.hpp: dram_not_reached, superlinear): "" when none. The gate
  // does not trust a warned figure (a regression in it reads unclear).
  std::string warning = {};
  // The memory under the point at the moment it ran (B/s): the mean of the read probes around its entry
  // (roof_now.hpp; GEMV/GEMM at batch 1), 0 when it has none. Two runs' figures whose roofs of the moment differ
  // by more than the canary limit ran on different memory states, whatever the canary said at the run's ends:
  // the gate does not trust them (a 1-thread GEMV at 34 GB/s is 83% of a 41 GB/s roof and 99% of a 31 GB/s one).
  double roof_now = 0.0;
};

// Rests on the host cores' own throughput (a CPU figure: threads > 0): compute and dequant ceilings, the
// private cache levels' bandwidth (memory figures not shared_memory: L1, L2) and compute-bound GEMM (the
// largest batch). The run's core canary (context.environment.core_canary: L2 read, L1 in files before issue 46) speaks for their
// environment: a host loading our vCPUs' SMT siblings slows them by a third, the clock and steal unchanged.
bool core_bound(const KeyFigure& f);

// The suite of `run` that measures the figure (`run --suites`): memory -> bandwidth, gemm -> gemm, the others
// (compute, clock, dequant) -> compute.
std::string_view suite_of(const KeyFigure& f);

// The run's DRAM canary (context.environment.canary, bench/harness/environment.cpp): the mean of its start, checkpoint
// and end measurements in B/s, or 0 when the run lacks a start or an end. Not a key figure (it gates nothing): the history keeps it
// under kCanaryFigureId so that a new run's memory state can be compared with the history's.
inline constexpr const char* kCanaryFigureId = "environment/canary";
// The libc canaries' levels likewise (issue 59: glibc's memcpy, context.environment.libc_canary and
// .libc_core_canary), kept by the history so that the gate can weigh a new run's figures against the history's.
inline constexpr const char* kLibcCanaryFigureId = "environment/libc_canary";
inline constexpr const char* kLibcCoreCanaryFigureId = "environment/libc_core_canary";
// An id of the environment kept beside the key figures (the prefix "environment/"): never gated nor calibrated.
bool is_environment_figure(std::string_view id);
// `which` as canary_points names it.
double canary_level(const ResultsDocument& results, const char* which = "canary");
// The canary's measurements in the order taken, each named: "start", each checkpoint's `at` (the suite that
// followed it), "end"; absent or non-positive ones left out.
// `which`: "canary" (DRAM) or "core_canary"; "libc_canary" or "libc_core_canary" (glibc's memcpy, issue 59).
// A mistyped checkpoint (not a list; one without `at` or with a negative or non-number `bytes_per_second`) throws
// InputError naming it: bad input, not a quiet environment.
std::vector<std::pair<std::string, double>> canary_points(const ResultsDocument& results, const char* which = "canary");

// The key figures of a results file, in a fixed order (memory, compute, clock, gemm, llm; thread counts
// ascending). Throws InputError when the file has no roofline section, when a field it reads has the wrong
// type or sign, or when it yields no key figure at all.
// Per target (issue 21): every target's figures come from the same rules over its own roofline entries; the
// CPU's ids as above; another target's begin with its id and have no thread count (its rows name none), and add
// transfer/<direction>/<memory> and latency/launch where it measured them.
// What compare, the gate, history, fleet and paired runs call: the typed document (issue 61, step 3), its targets and
// each target's part (results_targets.hpp: recorded_targets, target_document), the llm entries typed; each target's roofline
// section read as its one writer writes it, until the section's derived tables are typed.
std::vector<KeyFigure> key_figures(const ResultsDocument& results);

}  // namespace roofline
