// The CI gate of `roofline compare`: it judges key figures only (key_figures.hpp: ceilings per level,
// precision and engine, the clock, GEMV/GEMM at batch 1 and the largest batch; per thread count), never
// the per-size or per-repetition entries, which are shown but share one run's moment and so cry wolf.
//
// A figure regresses when its change is worse than its threshold:
//   - with a history (>= kMinHistoryRuns earlier runs of the same machine and configuration): the change
//     is measured from the history's median, and threshold = max(floor, k x robust spread), the spread
//     being 1.4826 x MAD of the per-run values relative to their median, and k = the normal quantile of
//     1 - alpha/m for m gated figures (Bonferroni: the family of m figures keeps a false-alarm rate of
//     alpha); its p-value is the normal tail of the robust z, times m;
//   - without: the change from the base run against the larger no-history floor, "low confidence".
// The verdict is regression (exit 1), clean (0) or inconclusive (0, or 3 with --fail-on-inconclusive).
// The environment decides what can be trusted:
//   - CPU: CPU steal or other processes' CPU time above their limits in either run disturbs every figure:
//     inconclusive, whatever moved;
//   - memory: the DRAM triad canary (measured at the start and the end of each run) moving more than
//     max_canary_drift within either run, or between the two runs, disturbs the shared-memory figures only
//     (KeyFigure::shared_memory). Shared hosts flip between memory states in minutes (a 2-vCPU VM measured
//     50 or 90 GB/s at 2 threads, both canary and DRAM figures), and a compute figure does not care.
//     A shared-memory figure beyond its threshold then makes the verdict inconclusive, not a regression; a
//     regression of a trusted figure still fails.
//     The canary is also measured between suites (context.environment.canary.checkpoints): a state that
//     flips and flips back within a run is seen there, and the runs are compared checkpoint by checkpoint.
//   - the moment: a figure with a roof of the moment (KeyFigure::roof_now: the read probes around a GEMV) is
//     not trusted when the two runs' roofs of the moment differ by more than max_canary_drift, whatever the
//     canary said: the point ran on different memory states (paired runs only; a history keeps no probes).
//   - cores: the core canary (L2 read; L1 before issue 46; at the start, the checkpoints and the end of each run) moving more than
//     max_core_canary_drift within either run or between them disturbs the core-bound figures (core_bound in
//     key_figures.hpp: compute, L1/L2, compute-bound GEMM) alike: beyond its threshold, such a figure is
//     unclear, not a regression.
// With a history the reference is the history's median, so only the new run's environment counts: its CPU,
// its canary's drift, and its canary against the history's median canary (history_add keeps it).
// In paired mode, inconclusive also when the rounds allowed were not enough. Every verdict line says why.
//
// Canaries our code cannot move (issue 59). The canaries above are our own kernels (triad, read), dispatched by
// the same --max-isa and built with the same flags as the figures: a slower build slowed them too, and a real
// regression (fp32 peak -74% under --max-isa sse, the core canary -32% with it) read "unclear". Runs since issue
// 59 also measure the same two places with glibc's memcpy (context.environment.libc_canary, .libc_core_canary),
// which no change of ours reaches. When both sides have them (two files; or the new file and a history that kept
// them), the stored-baseline gate (gate_runs) weighs instead of distrusting:
//   - a figure's change is divided by what its class's canary move explains (core-bound figures: the libc core
//     canary; shared-memory figures: the libc DRAM canary; a time, lower being better, multiplied), and judged on
//     what is left (FigureRow::adjusted_change): figure -20% with its canary -20% is ok, -40% with the canary -20%
//     is a regression (-25% after it). A canary explains a move in its own direction, up to the figure's own: a
//     canary that moved alone changes nothing (the memcpy canary in L2 moves ~10% between quiet runs whose
//     compute figures move 0.1%);
//   - the canary is erratic when it moved beyond its drift limit within a run that counts, or beyond
//     max_canary_shift between the runs (another machine state, where figures do not scale with a canary): the
//     adjusted change is not trusted, and a figure beyond its threshold either way reads unclear, unless its change
//     is far beyond anything the canary did (|log figure ratio| > the canary's largest |log move| + log(1 +
//     threshold), and beyond the threshold after adjustment): that is judged.
// Files without them (before issue 59) are judged as above, and the method line says so.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/regress/identity.hpp"  // machine_identity, configuration_identity: the history keys
#include "roofline/regress/judge.hpp"
#include "roofline/model/key_figures.hpp"
#include "roofline/model/results_document.hpp"

namespace roofline {

inline constexpr int kMinHistoryRuns = 5;
// History runs used per figure: the latest ones, so that an old real change ages out of the spread.
inline constexpr int kHistoryWindow = 30;

struct GateOptions {
  double floor = 0.05;             // relative, with history; paired: the floor of compute, dequant and clock figures
  // Paired rounds, by how much a figure's runs scatter on a shared 2-vCPU VM (7 gate runs of one build, robust sd):
  //  - floor (5%): compute, dequant at one thread and the clock, which stay within 1-2%;
  //  - floor_cache (10%): the private caches (L1, L2), 3-11%, and dequant at more than one thread (a robust sd
  //    under 1%, but a tenth of the runs 17-49% low while the host loads one core's sibling: paired_floor);
  //  - floor_shared (20%): what rests on the memory the cores share (L3, DRAM, GEMV at batch 1, its roof of the
  //    moment), 6-24%: the host's memory state moves between the two runs of a round; and GEMM through the libraries
  //    at the largest batch, whose 2-thread runs scatter 19-27%.
  // A floor below a class's scatter cannot be shown equivalent in a CI budget of rounds (undecided, exit 3).
  double floor_cache = 0.10;
  double floor_shared = 0.20;
  double floor_no_history = 0.10;  // relative, without
  double alpha = 0.05;             // family-wise false-alarm rate over the gated figures
  double max_steal = 0.05;         // CPU time stolen by the hypervisor above this: disturbed
  double max_busy = 0.10;          // CPU time other processes of the OS took during the run above this: disturbed
  // The DRAM canary moving more than this (within a run, between the runs, or from the history's): the
  // memory environment moved. A state flip of a shared host moves it 40-80%; a quiet VM's canary 3-8%.
  double max_canary_drift = 0.10;
  // The core canary (L2 read) moving more than this, within a run or between the runs: the cores' own
  // throughput moved (a host loading the SMT siblings), and the core-bound figures (key_figures.hpp) are not
  // trusted. A quiet guest's core canary moves 1-3% between runs; a loaded sibling takes a third.
  double max_core_canary_drift = 0.10;
  // The libc canary moving more than this between the runs (issue 59): another machine state, not a move the
  // figures follow in proportion (a shared host's memory state flips by 40-80%); the adjusted changes are then not
  // trusted. Three times the drift limit: a quiet guest's canaries move a few percent.
  double max_canary_shift = 0.30;
  // Paired rounds (issue 59): a round whose run measured a core-bound figure (L1, L2, dequant) at more than one thread
  // with the threads' own rates further apart than this (benchmarks[].thread_rate_spread, median over the figure's
  // entries) is left out of that figure: the host slowed one vCPU (its SMT sibling loaded) while it ran. A quiet
  // 2-vCPU guest's L1 rows spread 1-3%; a loaded sibling 6-30% (L1 read and triad at 2 threads 7-31% low in those
  // runs). Not the shared levels (L3, DRAM), whose threads' rates differ by themselves (DRAM: median 5%).
  double max_thread_spread = 0.05;
  // Paired rounds (issue 59): a round whose run measured a core-bound figure at T > 1 threads at a rate further below
  // T times its own 1-thread partner's (the same level and kernel, precision or format, in the same run) than this
  // share of the rounds' median of that scaling is left out of the figure: both vCPUs were slowed alike, which the
  // threads' spread cannot see. In the 136 gate runs of three A/As on a 2-vCPU Zen 4 guest, 4 had L1 read and triad at
  // 2 threads at the 1-thread rate (0.51-0.55 of the median scaling) with their threads' rates 0.1-1.4% apart: the
  // host ran both vCPUs on one core's worth. The runs whose threads stayed within 5% scaled 0.93-1.41 of the median.
  double max_scaling_drop = 0.20;
  // Paired rounds (issue 59): a round whose two runs measured a shared-memory or GEMM figure at more than one thread
  // with their threads placed differently by the host is left out of it: the larger of the two runs' thread round
  // trips under the figure (benchmarks[].thread_round_trip_ns) more than this share above the smaller. The placements
  // of a 2-vCPU Zen 4 guest: 160-200 ns (one memory system: 2-thread DRAM copy 20-28 GB/s) or 560-620 ns (two:
  // 27-38 GB/s); the fp64 GEMM at batch 64 and 2 threads ran at 41 or 70 GFLOP/s with them.
  double max_placement_shift = 0.50;
  std::vector<std::string> only_figures;  // gate only these ids (confirmation runs); empty: all in common
};

// undecided: paired rounds only, some figure neither shown equivalent nor shown to regress within the budget.
enum class Outcome { clean, regression, inconclusive, undecided };
std::string_view to_string(Outcome outcome);
// 0 clean, 1 regression, 0 or 3 inconclusive (3 with fail_on_inconclusive), 3 or 0 undecided (0 with allow_undecided).
int exit_code(Outcome outcome, bool fail_on_inconclusive, bool allow_undecided = false);

// The per-run values of one figure in the history (latest kHistoryWindow, same machine and
// configuration, the run being judged left out).
struct FigureNoise {
  std::vector<double> values;
  double median = 0.0;
  double relative_spread = 0.0;  // robust_sigma / median
};
struct NoiseModel {
  std::map<std::string, FigureNoise> figures;  // by KeyFigure id
  int runs = 0;                                // matching runs found in the history
  std::string source;                          // e.g. the database path
  std::vector<std::map<std::string, double>> run_figures;  // the matching runs' figures, newest first
};
// The part of a history measured in one memory state: the runs whose DRAM canary (kCanaryFigureId) lies
// within `limit` of `canary`. Shared-memory figures are judged against these runs only.
NoiseModel same_memory_state(const NoiseModel& model, double canary, double limit);

// Which canaries a check reads: our kernels' (canary, core_canary) or glibc memcpy's (libc_canary,
// libc_core_canary, issue 59).
enum class CanarySource { ours, libc };
// Whether the run recorded both libc canaries, each with a start and an end.
bool has_libc_canaries(const ResultsDocument& results);

// A run's environment, from context.environment (bench/harness/environment.cpp): steal over the run, canary drift.
// The canary fields hold the canaries `source` names (the libc ones: `libc`).
struct EnvironmentCheck {
  bool recorded = false;
  bool libc = false;          // the canaries below are the libc ones (memcpy), not our kernels

  double steal = 0.0;         // fraction of CPU time stolen during the run
  double other_busy = 0.0;    // fraction of CPU time other processes took during the run
  double canary_drift = 0.0;  // the largest |point / start - 1| of the DRAM triad canary (checkpoints and end)
  double canary = 0.0;        // the canary's level over the run: mean of its points (B/s; 0: none)
  std::vector<std::pair<std::string, double>> canary_points;  // canary_points(): start, checkpoints, end
  double clock_drift = 0.0;   // |end / start - 1| of the measured clock
  double core_canary = 0.0;        // the core canary's level: mean of start and end (B/s; 0: none)
  double core_canary_drift = 0.0;  // the largest |point / start - 1| of it (checkpoints and end)
  std::vector<std::pair<std::string, double>> core_canary_points;  // canary_points(, "core_canary")
  bool core_disturbed = false;     // the core canary moved within the run: core-bound figures
  bool cpu_disturbed = false;     // steal or other processes above their limits: every figure
  bool memory_disturbed = false;  // the canary moved within the run: shared-memory figures
  bool disturbed = false;         // either
  std::string why;            // "steal 0.2%, canary drift 3.1%, clock drift 0.4%" (+ "> limit" parts)
};
EnvironmentCheck check_environment(const ResultsDocument& results, double canary_limit, const GateOptions& options,
                                   CanarySource source = CanarySource::ours);

struct FigureRow {
  KeyFigure figure;          // the new run's
  double base = 0.0;         // the base run's value
  double next = 0.0;         // the new run's value (paired: median over rounds)
  double reference = 0.0;    // what the change is measured from: base, or history median
  double change = 0.0;       // next / reference - 1, sign as measured
  double threshold = 0.0;    // relative
  std::string threshold_source;  // "floor 10% (no history: low confidence)", "history: 2.9 x spread 1.2% over 9 runs", ...
  std::optional<double> p_value;  // adjusted for the number of figures gated
  int rounds = 0;            // paired mode
  // Paired mode (paired_interval.hpp): the ratio new/base's Hodges-Lehmann estimate and interval (as measured:
  // for a time, higher is worse), each bound's error, and the smallest worsening these rounds could have called
  // a regression (a fraction; infinity without an interval).
  // [ratio_lower, ratio_upper]: the figure's own interval (each bound's error gamma_own: ok, not_worse); family_*: the
  // family-wise one (error gamma: a regression).
  bool has_interval = false, has_family_interval = false;
  double ratio = 1.0, ratio_lower = 0.0, ratio_upper = 0.0, gamma = 0.0, gamma_own = 0.0;
  double family_lower = 0.0, family_upper = 0.0;
  std::vector<double> round_ratios;  // each round's new / base, in round order (the raw data of the intervals)
  double detectable = 0.0;
  double base_roof_now = 0.0;  // the base run's KeyFigure::roof_now (0: none, or judged against a history)
  bool moment_moved = false;   // the two roofs of the moment differ by more than the canary limit: not trusted
  // The host disturbed the figure's threads in a run (a spread, a scaling apart, a placement apart: gate_threads.cpp):
  // not trusted, the reason in `why`.
  bool threads_disturbed = false;
  // Weighed against its class's libc canary (issue 59): which one ("" when not weighed), its move (new / reference
  // - 1), and the figure's change after dividing it out (= change when not weighed).
  std::string canary;
  double canary_change = 0.0;
  double adjusted_change = 0.0;
  bool trusted = true;       // false: its environment was disturbed (a regression then reads unclear)
  Verdict verdict = Verdict::ok;
  std::string why;
};

struct Gate {
  std::vector<FigureRow> figures;
  std::vector<std::string> only_in_base, only_in_next;  // key figure ids without a partner
  std::vector<std::string> not_comparable;  // "id (base: best repetition, new: plateau median)": not gated
  // Like with like (compare_levels.hpp): CPU levels whose boundaries moved between the runs, said and never gated,
  // and the memory figures taken over the base's sizes because of it.
  std::vector<std::string> level_changes, aligned_figures;
  std::vector<std::string> level_starts;  // the first level's start moved (level_start_changes): said, not a boundary
  EnvironmentCheck base_environment, next_environment;
  double canary_shift = 0.0;      // |new canary / base canary - 1| (0 when either lacks one)
  int memory_state_runs = -1;     // with a history: its runs in the new run's memory state (-1: not known)
  bool memory_disturbed = false;  // within either run or between them: shared-memory figures not trusted
  std::string memory_why;         // "canary 49.2 GB/s -> 85.1 GB/s between the runs (+73.0% > 10.0%)", ...
  double core_shift = 0.0;        // |new core canary / base core canary - 1| (0 when either lacks one)
  bool core_disturbed = false;    // the core canary moved within either run or between them: core-bound figures not trusted
  std::string core_why;           // "core canary 410 GB/s -> 290 GB/s between the runs (-29.3% > 10.0%)", ...
  // Issue 59: the figures were weighed against the libc canaries (both sides have them); else why not, said.
  bool weighed = false;
  std::string canaries;           // "libc core canary (memcpy, L2) 120 GB/s -> 119 GB/s (-0.8%); ..." or why not weighed
  bool history_used = false;
  int history_runs = 0;
  std::string history_source;
  Outcome outcome = Outcome::clean;
  std::string verdict_line;  // "verdict: REGRESSION: ..." with the reasons
  std::string method_line;   // how figures were judged
};

// Builds the noise model for `results` from a history's runs (each run: machine id, configuration id,
// content hash, figures by id), leaving out the run whose content hash equals `exclude_hash`.
struct HistoryPoint {
  std::string machine_id, configuration_id, content_hash;
  std::map<std::string, double> figures;
};
NoiseModel noise_model(const std::vector<HistoryPoint>& runs, const ResultsDocument& results,
                       const std::string& exclude_hash, const std::string& source);

// The gate's rule, shared with history calibration: k for m figures, and a figure's threshold (with the
// text saying where it came from) given its history's relative spread.
double gate_k(double alpha, std::size_t figures);
std::pair<double, std::string> history_threshold(double relative_spread, double k, const GateOptions& options);

// The outcome both gates decide by, from their judged figures: a regression when any figure regressed;
// else inconclusive when every figure is disturbed (`disturbed`: the gate's CPU environment, or most of
// the paired runs) or when a figure is unclear and no more evidence will come (`final`); else clean.
Outcome decide_outcome(const std::vector<FigureRow>& figures, bool disturbed, bool final);

// Judges two roofline results files on their key figures (noise: nullptr or fewer than kMinHistoryRuns
// matching runs means no history). Throws InputError when either lacks a roofline section or the runs
// have no key figure in common.
Gate gate_runs(const ResultsDocument& base, const ResultsDocument& next, const NoiseModel* noise,
               const GateOptions& options);

// Paired A/B: per figure id, the base and new values of each round (same order). Each figure is decided from the
// Hodges-Lehmann interval of its rounds' log ratios (paired_interval.hpp): ok inside +-floor (equivalence),
// regression beyond -floor, improvement beyond +floor, not worse when a regression beyond the floor is excluded,
// undecided otherwise. `gamma`: each bound's error (alpha / (figures x looks): paired_plan). The environment of
// each run is shown, never decisive: a moment that slows one run of a round widens the interval instead.
// `complete`: no more rounds will be run (undecided figures make the outcome undecided; before that the gate
// says "so far").
struct PairedRounds {
  std::vector<KeyFigure> figures;                     // from the first round's new run
  std::map<std::string, std::vector<double>> base, next;
  // Figures whose statistic differs between the builds (e.g. a GEMM at another shape): id -> "(base: .., new: ..)",
  // listed as not comparable, never paired.
  std::map<std::string, std::string> mismatched;
  std::vector<EnvironmentCheck> environments;          // every run's
  // Per figure id and round, beside base and next: the spread of the threads' own rates under the figure in that
  // run (compare_levels.hpp's figure_thread_spread), -1 where it has none.
  std::map<std::string, std::vector<double>> base_spread, next_spread;
  // Per figure id and round, beside base and next: the run's figure at T threads over T times its 1-thread partner's
  // in the same run (thread_scalings), -1 where it has none.
  std::map<std::string, std::vector<double>> base_scaling, next_scaling;
  // Per figure id and round: where the host put the run's threads under the figure (compare_levels.hpp's
  // figure_thread_round_trip, ns), -1 where it has none.
  std::map<std::string, std::vector<double>> base_round_trip, next_round_trip;
  // Per figure id: the rounds whose runs measured its suite. Rounds focused on the suites of the figures still
  // undecided (paired_runs.hpp) measure the others no more; a figure absent here was planned in every round.
  std::map<std::string, int> planned_rounds;
  int rounds = 0;
  std::vector<double> round_seconds;                   // wall time of each round (both runs)
};
// `gamma`: each bound's error of the interval that calls a regression; `gamma_own`: of the one that calls ok
// (paired_plan). The floor is the figure's class's (GateOptions: floor, floor_cache, floor_shared).
Gate gate_paired(const PairedRounds& rounds, const GateOptions& options, double gamma, double gamma_own, bool complete);
// The floor paired rounds judge a figure against (above).
double paired_floor(const KeyFigure& f, const GateOptions& options);
// Per core-bound figure (key_figures.hpp's core_bound) at T > 1 threads whose 1-thread partner (its id with
// "threads:1") is among `figures`, both rates: the figure's value over T times the partner's (1 when T threads ran at
// T times one thread's rate). Figures of one run.
std::map<std::string, double> thread_scalings(const std::vector<KeyFigure>& figures);
// True when another round could change the answer (some figure undecided).
bool paired_undecided(const Gate& gate);

// Renderers of the gate part of a comparison (see compare_render.cpp for the rest).
std::string render_gate_text(const Gate& gate);
std::string render_gate_markdown(const Gate& gate);
nlohmann::json gate_to_json(const Gate& gate);

}  // namespace roofline
