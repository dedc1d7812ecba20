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
  std::int64_t m = kDefaultGemmM;  // the weights' shape for this group's precision
  std::int64_t k = kDefaultGemmK;
};

struct GemmPlan {
  std::int64_t m = kDefaultGemmM;  // --gemm-shape, or the default (each group's own shape: GemmGroup)
  std::int64_t k = kDefaultGemmK;
  bool shape_from_user = false;
  std::string shape_source = "default";  // "--gemm-shape", "default", or the cache the quick shapes come from
  double cache_bytes = 0.0;              // that cache (0: none known)
  std::vector<GemmGroup> groups;
  std::vector<std::string> notes;
};

// The batches 1, 2, 4, ..., 1024.
std::vector<int> default_gemm_batches();

// Quick profile (each backend's GemmQuickPlan): eigen fp32 at all cores over every batch (the crossover
// sweep); eigen fp32 on 1 thread, eigen fp64 and openblas fp32 at batches 1 and 64; onednn fp32 and int8
// at 1 and 1024, bf16 at 1 and 256 (the memory- and compute-bound ends; bf16 runs at half the fp32 rate
// on some CPUs, so 256 is already past its ridge); the secondary groups at all cores only. Full profile:
// every backend x precision x thread count x batch. --batches applies to every group. Throws InputError for an unknown or not-built --backends name, or a --gemm-shape whose operands
// do not fit the memory budget; a default shape that does not fit is halved in K until it does (noted).
// `cache_bytes`: the largest cache level of the target (0: unknown, the default shape), `cache_source` says where
// it came from ("the bandwidth curve", "hwloc").
GemmPlan plan_gemm(const RunConfig& config, double cache_bytes = 0.0, const std::string& cache_source = "");

// The benchmark name of batch n of a group: "gemm/<backend>/<precision>/threads:T/m:M/k:K/batch:N".
std::string gemm_spec_name(const GemmGroup& g, int n);
// What every name of the group starts with: "gemm/<backend>/<precision>/threads:T" (its failed set-up's name adds
// the tail "setup").
BenchmarkKey gemm_group_key(const GemmGroup& g);

// What a group asks its backend to prepare: the plan's shape at the group's largest batch.
GemmRequest gemm_request(const GemmPlan& plan, const GemmGroup& group, const RunConfig& config);

}  // namespace roofline
