// What the gemm suite measures for a RunConfig: the weight shape, and per backend x precision x thread
// count the batches to run. Planned (and checked against the memory budget) before anything is
// measured, so a bad --gemm-shape or --backends fails in a second with exit code 2.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "roofline/harness/benchmark_name.hpp"
#include "roofline/harness/gemm_shape.hpp"
#include "roofline/harness/run_config.hpp"
#include "roofline/common/gemm_count.hpp"
#include "roofline/kernels/cpu/gemm.hpp"

namespace roofline {

struct GemmGroup {
  const GemmBackend* backend = nullptr;
  Precision precision = Precision::fp32;
  int threads = 1;
  std::vector<int> batches;  // ascending
  std::int64_t m = kDefaultGemmM;  // the weights' shape for this group's precision and batches
  std::int64_t k = kDefaultGemmK;
  // The group's batches are compute-bound by construction and its shape is the compute shape (see plan_gemm); false:
  // the DRAM shape (the weights beyond the caches), or the user's --gemm-shape.
  bool compute_shape = false;
};

// What a planning estimate assumes a thread computes per second in a GEMM (multiply-adds counted as 2), from the ISA
// alone: about half of a core's FMA peak at a 3 GHz clock (AVX-512: 2 x 16 fp32 lanes x 2 FLOP), 16-bit formats
// 2.5x fp32 with bf16 dot products, int8 5x with VNNI. Never a measured figure: only the plan uses it (estimates,
// and which batches are compute-bound by construction), so a plan is the same in every run of one machine.
double planning_ops_per_thread(Precision p, const IsaFeatures& isa);
// The plan's time estimate (not its shapes, repetitions or compute-bound split, which planning_ops_per_thread sets)
// counts a call's operations at this many times the planning rate: what the libraries reach at the compute shapes
// (per thread, 2 threads, batch:max of the quick runs: Zen 4 eigen fp32 109 GFLOP/s, oneDNN bf16 220, int8 440, eigen
// fp64 30, 1.25-2.3x the planning rate; EMR eigen fp32 84-125, oneDNN int8 1211; Zen 5 eigen fp32 181-210), the
// low end of them, so that an estimate is seldom short. At the planning rate itself the compute shapes' entries were
// planned at twice their wall time (issue 60: the plan 16% over the quick profile's wall on the oxide host).
inline constexpr double kGemmExpectedOverPlanningRate = 1.75;
// The DRAM rate a plan assumes (deliberately low): with planning_ops_per_thread, the planning ridge.
inline constexpr double kPlanningDramBytesPerSecond = 12e9;
// A batch whose arithmetic intensity at the DRAM shape is at least this many times the planning ridge (the group's
// planning rate over kPlanningDramBytesPerSecond) is compute-bound by construction, wherever its operands sit.
inline constexpr double kComputeBoundRidgeFactor = 4.0;

struct GemmPlan {
  std::int64_t m = kDefaultGemmM;  // --gemm-shape, or the default (each group's own shape: GemmGroup)
  std::int64_t k = kDefaultGemmK;
  bool shape_from_user = false;
  std::string shape_source = "default";  // "--gemm-shape", "default", or the cache the quick shapes come from
  double cache_bytes = 0.0;              // that cache (0: none known)
  std::vector<GemmGroup> groups;
  std::vector<std::string> notes;
  // Whether groups of one precision and shape but different thread counts share their operands (gemm_operand_shares):
  // on a machine of one NUMA node, where the team that first touches a page does not decide where it lies.
  bool share_across_threads = true;
};

// Groups that run on one set of operands (GemmOperandSet: A, B, C filled once, with the reference that validates C;
// issue 60): consecutive groups of the plan of one precision and shape, and of one thread count too unless the plan
// shares across thread counts. plan_gemm orders the groups so that those of one precision and shape run back to back.
struct GemmOperandShare {
  std::size_t first = 0;   // the plan's groups first..last
  std::size_t last = 0;
  std::int64_t max_n = 1;  // the largest batch of these groups: the columns of B and C
  int threads = 1;         // the widest team of these groups, which fills the operands
};
// Every group of the plan in exactly one share, in the plan's order.
std::vector<GemmOperandShare> gemm_operand_shares(const GemmPlan& plan);

// The batches 1, 2, 4, ..., 1024.
std::vector<int> default_gemm_batches();

// Shapes per batch, from what each point must show (issue 60). The memory-bound batches (batch 1, the GEMV, always)
// need weights beyond the caches: the DRAM shape, the least square side whose weights are kGemmCacheFactor x the
// cache (quick_gemm_side; where the last level's size is not plausible, of the most a real CPU caches for the threads).
// The batches compute-bound by construction (kComputeBoundRidgeFactor) need FLOPs enough to fill the cores, not
// DRAM-sized operands: they form a group of their own at the compute shape, the least square side (a multiple of 512,
// at least 1024) whose largest batch's call takes the profile's compute_fill_s at the planning rate, and whose every
// batch stays compute-bound by the same factor; never larger than the DRAM shape. Both from the ISA and the caches
// only: identical in every run of one machine. --gemm-shape keeps every batch at the user's shape.
//
// Quick profile (each backend's GemmQuickPlan): eigen fp32 at all cores over every batch (the crossover
// sweep); eigen fp32 on 1 thread, eigen fp64 and openblas fp32 at batches 1 and 64; onednn fp32 and int8
// at 1 and 1024, bf16 at 1 and 256 (the memory- and compute-bound ends; bf16 runs at half the fp32 rate
// on some CPUs, so 256 is already past its ridge); the secondary groups at all cores only. Full profile:
// every backend x precision x thread count x batch. --batches applies to every group. The groups are in the order of
// the backends, precisions and thread counts, except that groups of one precision and shape run back to back (in the
// order of the first of them), those of one thread count together, so that they share their operands. Throws InputError for an unknown or not-built --backends name, or a --gemm-shape whose operands
// do not fit the memory budget; a default shape that does not fit is halved in K until it does (noted).
// `cache_bytes`: the largest cache level of the target (0: unknown, the default shape), `cache_source` says where
// it came from ("the bandwidth curve", "hwloc").
GemmPlan plan_gemm(const RunConfig& config, double cache_bytes = 0.0, const std::string& cache_source = "");

// Whether the plan brackets batch n of group g with a roof-of-the-moment probe (roof_probe.hpp): batch 1 (the GEMV)
// always, and every batch that is not compute-bound by construction at the group's own shape (its AI below
// kComputeBoundRidgeFactor x the group's planning ridge). From the ISA and the shape alone, like the split into compute
// groups, never from this run's measured peak or curve: two runs of one build on one machine probe the same points.
bool gemm_roof_probe_planned(const GemmGroup& g, int n, const IsaFeatures& isa);

// The benchmark name of batch n of a group: "gemm/<backend>/<precision>/threads:T/m:M/k:K/batch:N".
std::string gemm_spec_name(const GemmGroup& g, int n);
// What every name of the group starts with: "gemm/<backend>/<precision>/threads:T" (its failed set-up's name adds
// the tail "setup").
BenchmarkKey gemm_group_key(const GemmGroup& g);

// What a group asks its backend to prepare: the plan's shape at the group's largest batch.
GemmRequest gemm_request(const GemmPlan& plan, const GemmGroup& group, const RunConfig& config);

}  // namespace roofline
