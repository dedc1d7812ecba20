// The per-ISA builds of the STREAM loops (stream_loops.hpp), chosen at run time by stream.cpp.
#pragma once

#include "roofline/kernels/stream.hpp"

namespace roofline::detail {

double stream_run_sse2(StreamKernel kernel, const StreamArrays& arrays, int threads, int repeats);
double stream_run_avx2(StreamKernel kernel, const StreamArrays& arrays, int threads, int repeats);
double stream_run_avx512(StreamKernel kernel, const StreamArrays& arrays, int threads, int repeats);

}  // namespace roofline::detail
