// Errors of the CUDA runtime and cuBLASLt as exceptions: every call of kernels/cuda/ and bench/targets/cuda/
// goes through check(), so a failing call names itself and its error instead of returning a code nobody reads.
// Plain C++ (no CUDA header), so host code that only catches the error needs no CUDA include path.
#pragma once

#include <stdexcept>
#include <string>

// The closed forms shared by host validators, host tests and device kernels are marked with this.
#if defined(__CUDACC__)
#define ROOFLINE_HOST_DEVICE __host__ __device__
#else
#define ROOFLINE_HOST_DEVICE
#endif

namespace roofline::cuda {

// A CUDA runtime or cuBLASLt call failed; the message names the call and the error.
class CudaError : public std::runtime_error {
 public:
  explicit CudaError(const std::string& message) : std::runtime_error(message) {}
};

// cuBLASLt has no algorithm for this type and shape (e.g. fp8 at n = 1): not an error of the device.
class Unsupported : public std::runtime_error {
 public:
  explicit Unsupported(const std::string& message) : std::runtime_error(message) {}
};

// Throws CudaError("<what>: <cudaGetErrorString>") unless `status` (a cudaError_t) is cudaSuccess.
void check_cuda(int status, const char* what);
// Throws CudaError("<what>: cuBLASLt status N") unless `status` (a cublasStatus_t) is CUBLAS_STATUS_SUCCESS.
void check_cublas(int status, const char* what);

}  // namespace roofline::cuda
