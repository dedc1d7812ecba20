// The CUDA target (issue 23): the TargetProvider "cuda" (every device the CUDA runtime sees, ids "cuda:N") and its
// Target, whose suites are bandwidth (read/copy/triad/write, 1 MiB to at least 8x the L2 and 4 GiB), compute (FMA
// chains on the CUDA cores, the SM clock under load and NVML's throttle reasons, cuBLASLt tensor ceilings),
// gemm (cuBLASLt GEMV/GEMM at batch 1..1024), transfer (both directions, pinned and pageable) and latency (kernel
// launches). Built only with CUDA (ROOFLINE_HAVE_CUDA); cli/targets.cpp registers the provider.
#pragma once

#include "roofline/cuda/suite_plan.hpp"  // cuda_suites(): the suites it offers, in the order they run
#include "roofline/harness/target.hpp"

namespace roofline::cuda {

TargetProvider cuda_target_provider();

}  // namespace roofline::cuda
