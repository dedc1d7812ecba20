// The OpenCL gemm suite's batches, shared by the builds with and without CLBlast.
#include "roofline/opencl/work.hpp"

namespace roofline::opencl {

std::vector<int> gemm_batches(const WorkOptions& o) {
  if (!o.batches.empty()) return o.batches;
  if (o.full) return {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
  return {1, 16, 256, 1024};  // GEMV, the memory-bound end, past the ridge, the compute-bound end
}

}  // namespace roofline::opencl
