// Sizing the bandwidth sweep: which working-set sizes, how many per octave, where it ends (8x the
// largest plausible cache the threads can use, 1 GiB when none is plausible, or the memory budget), which kernels each profile sweeps, and how
// many passes one timed call makes. Pure functions, so the sizing logic is tested without measuring.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "roofline/harness/plausible_caches.hpp"
#include "roofline/harness/run_config.hpp"
#include "roofline/harness/sweep_plan.hpp"
#include "roofline/harness/sweep_plan.hpp"
#include "roofline/kernels/cpu/stream.hpp"

namespace roofline {

// Sizes grouped into batches of one octave each (the quick profile checks for flatness after each).
std::vector<std::vector<std::uint64_t>> octave_batches(const std::vector<std::uint64_t>& sizes, int per_octave);

// Elements per array for a kernel at a working set, rounded to the nearest multiple of `unit_elements`
// (threads x the kernel's unrolled step, itself whole cache lines), at least one unit: every thread's
// block is then a whole number of steps, so neighbouring sizes run the same code with no tail. The exact
// working set is stream_working_set_bytes(kernel, n), which is what results record.
std::size_t elements_for(StreamKernel kernel, std::uint64_t working_set_bytes, std::size_t unit_elements = 8);
// The unit elements_for rounds to: threads x the kernel's step, at least a cache line (8 doubles) each.
std::size_t element_unit(StreamKernel kernel, int threads, const IsaFeatures& features);

// Passes of the kernel per timed call, so that one call moves at least `target_bytes` and the OpenMP
// fork/join (about a microsecond) stays below 1% of a call even in L1.
int passes_per_call(StreamKernel kernel, std::size_t n, std::uint64_t target_bytes);

// The kernels each profile sweeps at every size, and those the quick profile measures only at one size
// per memory level found on the swept curve (to keep the quick profile's bandwidth part under 25 s on a
// 2-core machine). With --sizes every kernel runs at every size.
std::vector<StreamKernel> swept_kernels(Profile profile, bool user_sizes);
std::vector<StreamKernel> spot_kernels(Profile profile, bool user_sizes);

// The sizes at which read and triad also run on 4 KiB pages: where DRAM starts, from the curve (`dram_from`)
// or else twice `reported_reach` (where the analysis puts DRAM without a curve), every measured size from there
// (`every`: a --sizes list, which runs every kernel at every size) or one, the middle of DRAM's first octave
// (as for the spot kernels). None when neither bound is known or no measured size lies past it.
std::vector<std::uint64_t> small_page_sizes(const std::vector<std::uint64_t>& measured, double dram_from,
                                            double reported_reach, bool every);

// The size of the swept list nearest (in log scale) to the geometric middle of [lo, hi].
std::uint64_t middle_size(const std::vector<std::uint64_t>& sizes, double lo, double hi);

}  // namespace roofline
