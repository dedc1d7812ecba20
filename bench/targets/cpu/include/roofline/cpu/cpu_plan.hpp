// The CPU's plan (issue 46), fixed before the first measurement from the machine facts and the profile alone: the
// bandwidth sweep per thread count (4 KiB to 8x the largest plausible cache those threads use, 1 GiB when none is
// plausible; the spot kernels and the 4 KiB-page runs at sizes placed by the plausible caches, not by the curve),
// the compute and dequant-dot rows, the GEMM groups and batches with their shapes (4x the largest plausible cache),
// and every benchmark's name, repetitions and estimated time (run_plan.hpp). The suites run exactly this; a budget
// the estimate exceeds makes the plan smaller here (fewer sizes per octave), never the run shorter.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "roofline/cpu/bandwidth_plan.hpp"
#include "roofline/cpu/gemm_plan.hpp"
#include "roofline/facts/machine.hpp"
#include "roofline/harness/run_config.hpp"
#include "roofline/harness/run_plan.hpp"
#include "roofline/common/reported_levels.hpp"
#include "roofline/kernels/cpu/peak.hpp"
#include "roofline/kernels/cpu/quant_dot.hpp"

namespace roofline {

struct BandwidthThreadPlan {
  int threads = 0;
  std::vector<ReportedLevel> levels;  // the plausible reported cache levels as these threads see them
  std::uint64_t cache_bytes = 0;      // the largest of them (0: none plausible)
  SweepPlan sweep;
  std::vector<std::uint64_t> spot_sizes;        // the spot kernels' (quick): one inside each level and DRAM
  std::vector<std::uint64_t> small_page_sizes;  // read and triad on 4 KiB pages: DRAM sizes
};

struct BandwidthPlan {
  std::vector<StreamKernel> swept;
  std::vector<StreamKernel> spot;
  std::vector<BandwidthThreadPlan> per_threads;
  std::vector<std::string> implausible;  // reported caches the plan does not believe (plausible_caches.hpp)
  std::vector<std::string> notes;        // what shaped the plan (the budget, the memory)
  int per_octave = 0;
  // A hybrid CPU (machine.hpp's core_kinds, issue 62): `read`, the reference kernel, swept at 1 thread on a PU of each
  // kind over `kind_sweep`'s sizes (the 1-thread sweep's), entries of the suite "bandwidth_kind" named ".../kind:NAME".
  // Empty on a machine of one kind.
  std::vector<CoreKind> kinds;
  BandwidthThreadPlan kind_sweep;
};

// The bandwidth plan at `per_octave` sizes per octave (0: the profile's).
BandwidthPlan plan_bandwidth(const RunConfig& config, const MachineFacts& machine, int per_octave = 0);

// The GEMM plan with its shapes from the plausible caches (never from the run's curve).
GemmPlan plan_cpu_gemm(const RunConfig& config, const MachineFacts& machine);

// The compute suite's rows (issue 61, step 4), from the ISA features (under the --max-isa cap), the thread counts and
// the plausible caches alone: the plan names its entries from these and the suite (suite_compute.cpp,
// suite_dequant_dot.cpp) measures exactly these, in this order, with no list of its own.
struct ComputePlan {
  std::vector<int> threads;  // the clock, the FMA/dot peaks and the dequant-dot rows run at each
  PeakSelection peak;        // the FMA/dot rows that run, and each row that cannot (said in the context)
  std::vector<const QuantDotVariant*> dequant_runnable;       // every dequant-dot row this CPU runs under the cap
  std::vector<const QuantDotVariant*> dequant_not_supported;  // the others (said in the context)
  std::vector<const QuantDotVariant*> dequant_best;           // each format's best (the table lists its ISAs best last)
  std::vector<const QuantDotVariant*> dequant;                // measured: the best (quick) or every runnable row (full)
  std::vector<Level> dequant_levels;                          // where their weights live: L1 and L2
  std::vector<int> gemv_threads;   // the DRAM GEMVs' (each format's best): the largest (quick) or every thread count
  std::vector<int> gemv_batches;   // 1 (quick) or 1, 2, 4, 8, 16
  std::uint64_t gemv_weight_bytes = 0;  // dequant_gemv_weight_bytes
  bool quick = true;
  // A hybrid CPU (issue 62): the clock and every FMA/dot row once more at 1 thread on a PU of each kind (suites
  // "clock_kind" and "compute_kind", named ".../kind:NAME"), after the rows above. Empty on a machine of one kind.
  std::vector<CoreKind> kinds;
};
ComputePlan plan_compute(const RunConfig& config, const MachineFacts& machine);

struct CpuPlan {
  BandwidthPlan bandwidth;
  ComputePlan compute;
  GemmPlan gemm;
  std::vector<SuitePlan> suites;  // the suites `config` asks for, in run order, every benchmark with its estimate
};

// The whole plan; the bandwidth sweep made coarser (1 size per octave) when its estimate exceeds the profile's
// budget for it, and said so. Throws InputError for bad --sizes, --gemm-shape or --backends.
CpuPlan plan_cpu(const RunConfig& config, const MachineFacts& machine);

// The compute suite's benchmark names, written by the harness (benchmark_name.hpp): the plan and the suites
// (suite_compute.cpp, suite_dequant_dot.cpp) name their entries with these.
// `kind`: a core kind's row (ComputePlan::kinds), its name's last segment "kind:NAME".
std::string clock_spec_name(int threads, const CoreKind* kind = nullptr);
std::string peak_spec_name(const PeakVariant& v, int threads, const CoreKind* kind = nullptr);
// The name of a core kind's row: `name` with the segment "kind:NAME" last (benchmark_name.hpp's tail).
std::string core_kind_spec_name(const std::string& name, const CoreKind& kind);
std::string dequant_dot_spec_name(const QuantDotVariant& v, Level level, int threads);
std::string dequant_gemv_spec_name(const QuantDotVariant& v, int batch, int threads);

// The weight bytes of the compute suite's DRAM GEMVs (suite "dequant_gemv"): 4x what a working set must exceed to
// live in main memory at the largest thread count (dram_threshold_bytes: the plausible caches, or the most a real CPU
// caches where the last level's size is not plausible), at least 128 MiB, at most 1 GiB.
std::uint64_t dequant_gemv_weight_bytes(const RunConfig& config, const MachineFacts& machine);

// The planned repetitions of GEMM batch `n` of a group (fewer for long calls, from the estimated call time).
int gemm_planned_repetitions(const GemmGroup& g, int n, const RunConfig& config);

// Whether GEMM batch `n` of a group gets a warm-up call before its repetitions (suite_gemm.cpp), whose time sets the
// iterations of each: not for a call the plan expects to take at least the profile's min time at the planning rate
// (one call is then a whole repetition; Google Benchmark's own search adds a call only where it is shorter), nor for a
// long call (fewer repetitions, each one call). Issue 60: the compute-bound batches' warm-ups were 0.35 s of the quick
// profile's gemm suite.
bool gemm_warm_up_planned(const GemmGroup& g, int n, const RunConfig& config);

}  // namespace roofline
