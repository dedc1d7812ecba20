// The bandwidth suite's benchmarks (suite_bandwidth.cpp): one BenchmarkSpec per kernel x size x threads x pages,
// named and labelled for the analysis, timed in calls of at least kCallTargetBytesPerThread per thread, validated
// after timing; and the fixed cost of one call, measured once per thread count.
#pragma once

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "roofline/bench/runner.hpp"
#include "roofline/bench/run_config.hpp"
#include "stream_arena.hpp"

namespace roofline {

// Bytes one timed call moves at least, per thread (see passes_per_call).
constexpr std::uint64_t kCallTargetBytesPerThread = 16ull << 20;
// Seconds one call of `read` over one step per thread costs (the median of many), pinned like the measurements.
double measure_call_overhead(StreamArena& arena, int threads, const IsaFeatures& features);

BenchmarkSpec make_spec(StreamKernel kernel, std::size_t n, int threads, double call_overhead_s,
                        const RunConfig& config, StreamArena& arena, PageSize pages = PageSize::huge_2m);

// Specs for `kernels` at `size`, grouped by arity; a (kernel, elements) pair already in `planned` is skipped.
void add_specs(const std::vector<StreamKernel>& kernels, std::uint64_t size, int threads, double overhead_s,
               const RunConfig& config, StreamArena& arena, std::set<std::pair<int, std::size_t>>& planned,
               std::vector<BenchmarkSpec>& specs, PageSize pages = PageSize::huge_2m);

}  // namespace roofline
