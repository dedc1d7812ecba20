// check_cuda / check_cublas: see check.hpp.
#include "roofline/kernels/cuda/check.hpp"

#include <cublasLt.h>
#include <cuda_runtime_api.h>

namespace roofline::cuda {

// is_sticky_cuda_error() is plain C++ (host tests use it without CUDA): its numbers are the runtime's.
static_assert(cudaErrorECCUncorrectable == 214 && cudaErrorIllegalAddress == 700 && cudaErrorLaunchTimeout == 702 &&
              cudaErrorContextIsDestroyed == 709 && cudaErrorAssert == 710 && cudaErrorHardwareStackError == 714 &&
              cudaErrorIllegalInstruction == 715 && cudaErrorMisalignedAddress == 716 &&
              cudaErrorInvalidAddressSpace == 717 && cudaErrorInvalidPc == 718 && cudaErrorLaunchFailure == 719 &&
              cudaErrorDevicesUnavailable == 46 && cudaErrorUnknown == 999);
static_assert(!is_sticky_cuda_error(cudaErrorMemoryAllocation) && !is_sticky_cuda_error(cudaErrorInvalidValue) &&
              !is_sticky_cuda_error(cudaErrorLaunchOutOfResources) &&
              !is_sticky_cuda_error(cudaErrorNoKernelImageForDevice));

void check_cuda(int status, const char* what) {
  if (status == cudaSuccess) return;
  throw CudaError(std::string(what) + ": " + cudaGetErrorString(static_cast<cudaError_t>(status)), status,
                  is_sticky_cuda_error(status));
}

void check_cublas(int status, const char* what) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  if (status == CUBLAS_STATUS_NOT_SUPPORTED) throw Unsupported(std::string(what) + ": not supported by cuBLASLt");
  // cuBLASLt's own status does not say whether the device is gone (EXECUTION_FAILED may be either): the runtime's
  // last error does. cudaPeekAtLastError leaves a non-sticky error in place for whoever checks next.
  const cudaError_t device = cudaPeekAtLastError();
  const bool sticky = is_sticky_cuda_error(device);
  std::string message = std::string(what) + ": cuBLASLt status " + std::to_string(status);
  if (device != cudaSuccess) message += std::string(" (device: ") + cudaGetErrorString(device) + ")";
  throw CudaError(message, sticky ? device : 0, sticky);
}

}  // namespace roofline::cuda
