// What the CUDA target measures for a profile (issue 23), planned from the device's facts before anything runs,
// pure so that tests check it without a GPU: the bandwidth sweep's working sets (1 MiB to at least 8x the L2 and at
// least 4 GiB, capped by the device's free memory), the GEMV/GEMM shapes (from the measured L2: weights at least
// 4x the L2 in every type, the CPU's default shape only where it clears that) and batches, the tensor-ceiling shape
// and the transfer size.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace roofline::cuda {

struct CudaPlanInput {
  bool quick = true;
  std::uint64_t l2_bytes = 0;
  std::uint64_t memory_free_bytes = 0;
  int compute_capability = 0;  // major x 10 + minor: 90
};

struct WeightShape {
  std::int64_t m = 0;
  std::int64_t k = 0;
  std::string why;  // "the CPU's default shape", "weights 4x the L2 in 1-byte types"
};

struct GemmSweep {
  std::string precision;       // "bf16", "fp16", "fp8", "int8", "fp32"
  std::vector<int> batches;    // ascending
};

struct CudaPlan {
  std::vector<std::uint64_t> bandwidth_bytes;  // working sets, all arrays together, ascending
  std::uint64_t bandwidth_target_bytes = 0;    // max(8 x L2, 4 GiB): what the sweep should reach
  std::vector<WeightShape> gemm_shapes;
  std::vector<GemmSweep> gemm_sweeps;
  std::int64_t ceiling_size = 8192;            // the tensor ceilings' m = n = k (PyTorch's reference, 8192^3)
  std::vector<std::string> ceiling_precisions; // "bf16", "fp16", "tf32", "fp8" (8.9 and later), "int8"
  std::uint64_t transfer_bytes = 0;
  std::vector<std::string> notes;              // caps applied, types left out
};

// Memory the bandwidth suite allocates for a sweep reaching `largest` bytes of working set: a and b hold a whole
// working set each (read and write use one array), c a third of one (triad's third array).
std::uint64_t bandwidth_allocation_bytes(std::uint64_t largest);

CudaPlan plan_cuda(const CudaPlanInput& in);


}  // namespace roofline::cuda
