// The bandwidth suite's benchmarks (suite_bandwidth.cpp): one BenchmarkSpec per kernel x size x threads x pages,
// named and labelled for the analysis, timed in calls of at least kCallTargetBytesPerThread per thread, validated
// after timing; and the fixed cost of one call, measured once per thread count.
#pragma once

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "roofline/harness/runner.hpp"
#include "roofline/harness/run_config.hpp"
#include "stream_arena.hpp"

namespace roofline {

// Bytes one timed call moves at least, per thread (see passes_per_call).
constexpr std::uint64_t kCallTargetBytesPerThread = 16ull << 20;
// Seconds one call of `read` over one step per thread costs (the median of many), pinned like the measurements.
double measure_call_overhead(StreamArena& arena, int threads, const IsaFeatures& features);

// `cache_bytes`: the largest plausible cache of these threads (0: none), for the spec's estimate (run_plan.hpp).
BenchmarkSpec make_spec(StreamKernel kernel, std::size_t n, int threads, double call_overhead_s,
                        const RunConfig& config, StreamArena& arena, PageSize pages = PageSize::huge_2m,
                        std::uint64_t cache_bytes = 0, std::size_t capacity = 0, std::uint64_t setup_bytes = 0);

// The planned wall time of one bandwidth benchmark: Google Benchmark's first call and each repetition's window
// (at least its minimum time) at a rate assumed for planning only (a cache's or DRAM's, by where the working set
// lies), plus allocation and first touch of `setup_bytes` (the arrays of a set this spec is the first of its batch to
// use: 0 for the others, which share or are carved from it) and the validations. Never a measured figure.
// A call's planned seconds (the plan's rates: 50 GB/s a thread from a cache, 25 GB/s from DRAM; a 16 MiB cache assumed
// when none is plausible): whether a calibration call is made (make_spec) and the estimate.
double stream_planned_call_s(std::uint64_t working_set, std::uint64_t bytes_per_call, int threads,
                             std::uint64_t cache_bytes);
double stream_spec_estimate(std::uint64_t working_set, std::uint64_t bytes_per_call, int repetitions,
                            double min_time_s, int threads, std::uint64_t cache_bytes, std::uint64_t setup_bytes);

// Specs for `kernels` at each of `sizes`, grouped by arity, appended to `batches` as batches to run one after the
// other: the cache-sized specs in one, the mapped ones (arrays of kHugePageThreshold and more) in one per arity, so
// that a batch holds one arity's DRAM-sized arrays at a time. A (kernel, elements) pair already in `planned` is
// skipped. Mapped arrays of one arity share the largest's (StreamArena::get's capacity).
void add_specs(const std::vector<StreamKernel>& kernels, const std::vector<std::uint64_t>& sizes, int threads,
               double overhead_s, const RunConfig& config, StreamArena& arena,
               std::set<std::pair<int, std::size_t>>& planned, std::vector<std::vector<BenchmarkSpec>>& batches,
               PageSize pages = PageSize::huge_2m, std::uint64_t cache_bytes = 0);

}  // namespace roofline

#include "roofline/cpu/cpu_plan.hpp"

namespace roofline {

// One thread count's benchmarks as the plan has them: the swept kernels at every size of the sweep, the spot
// kernels at the spot sizes, read and triad on 4 KiB pages. The plan names them with a stand-in arena (a spec
// touches its arena only when it runs), the suite runs them with its own, so both have the same names.
struct ThreadSpecs {
  // In run order, each batch run together (its repetitions interleaved): per octave of the sweep, then the spot
  // sizes, then the 4 KiB pages; each split as add_specs says.
  std::vector<std::vector<BenchmarkSpec>> batches;
};
ThreadSpecs bandwidth_thread_specs(const BandwidthPlan& plan, const BandwidthThreadPlan& t, const RunConfig& config,
                                   StreamArena& arena, double overhead_s);

// A hybrid CPU's core kind (issue 62): `read` at the 1-thread sweep's sizes (plan.kind_sweep), one thread bound to the
// kind's PU (core_kind_pu; `arena` is bound to it too, so its sets are first-touched there), entries of the suite
// "bandwidth_kind" with the kind in their labels (core_kind) and as their names' last segment.
ThreadSpecs bandwidth_kind_specs(const BandwidthPlan& plan, const CoreKind& kind, const RunConfig& config,
                                 StreamArena& arena, double overhead_s);

}  // namespace roofline
