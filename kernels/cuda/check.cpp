// check_cuda / check_cublas: see check.hpp.
#include "roofline/kernels/cuda/check.hpp"

#include <cublasLt.h>
#include <cuda_runtime_api.h>

namespace roofline::cuda {

void check_cuda(int status, const char* what) {
  if (status == cudaSuccess) return;
  throw CudaError(std::string(what) + ": " + cudaGetErrorString(static_cast<cudaError_t>(status)));
}

void check_cublas(int status, const char* what) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  if (status == CUBLAS_STATUS_NOT_SUPPORTED) throw Unsupported(std::string(what) + ": not supported by cuBLASLt");
  throw CudaError(std::string(what) + ": cuBLASLt status " + std::to_string(status));
}

}  // namespace roofline::cuda
