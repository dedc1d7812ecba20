// The OpenCL gemm suite's batches, shared by the builds with and without CLBlast.
#include "roofline/opencl/work.hpp"

namespace roofline::opencl {

std::vector<int> gemm_batches(const WorkOptions& o) {
  if (!o.batches.empty()) return o.batches;
  if (o.full) return {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
  // GEMV, the memory-bound side, past the ridge (fp32 at 8192 x 8192: AI ~110 FLOP/byte at 256); 1024 only in the
  // full profile, since untuned CLBlast on a CPU device (PoCL: ~3 GFLOP/s) takes a minute a call there.
  return {1, 16, 256};
}

}  // namespace roofline::opencl
