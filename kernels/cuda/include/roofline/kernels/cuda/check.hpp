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

// The cudaError_t values after which the CUDA context is unusable ("sticky": every later call of the process
// returns the same error, cudaGetLastError cannot clear it), from the CUDA Runtime API's error list: a kernel's
// illegal address, instruction, misaligned access, trap or assert, a hardware stack error, an uncorrectable ECC
// error, a launch failure or timeout, a destroyed context, a lost device. check.cpp checks these numbers
// against cuda_runtime_api.h's enum. Anything else (out of memory, an invalid value, too many resources for one
// launch, no kernel image for the device) fails one call and leaves the device usable.
constexpr bool is_sticky_cuda_error(int status) {
  switch (status) {
    case 214:  // cudaErrorECCUncorrectable
    case 700:  // cudaErrorIllegalAddress
    case 702:  // cudaErrorLaunchTimeout
    case 709:  // cudaErrorContextIsDestroyed
    case 710:  // cudaErrorAssert
    case 714:  // cudaErrorHardwareStackError
    case 715:  // cudaErrorIllegalInstruction
    case 716:  // cudaErrorMisalignedAddress
    case 717:  // cudaErrorInvalidAddressSpace
    case 718:  // cudaErrorInvalidPc
    case 719:  // cudaErrorLaunchFailure
    case 46:   // cudaErrorDevicesUnavailable
    case 999:  // cudaErrorUnknown
      return true;
    default:
      return false;
  }
}

// A CUDA runtime or cuBLASLt call failed; the message names the call and the error. `sticky`: the device's
// context is lost (is_sticky_cuda_error), so the target is lost; otherwise only the entry that made the call fails.
class CudaError : public std::runtime_error {
 public:
  explicit CudaError(const std::string& message, int status = 0, bool sticky = false)
      : std::runtime_error(message), status_(status), sticky_(sticky) {}
  [[nodiscard]] int status() const { return status_; }
  [[nodiscard]] bool sticky() const { return sticky_; }

 private:
  int status_ = 0;
  bool sticky_ = false;
};

// cuBLASLt has no algorithm for this type and shape (e.g. fp8 at n = 1): not an error of the device.
class Unsupported : public std::runtime_error {
 public:
  explicit Unsupported(const std::string& message) : std::runtime_error(message) {}
};

// Throws CudaError("<what>: <cudaGetErrorString>") unless `status` (a cudaError_t) is cudaSuccess.
void check_cuda(int status, const char* what);
// Throws CudaError("<what>: cuBLASLt status N") unless `status` (a cublasStatus_t) is CUBLAS_STATUS_SUCCESS;
// Unsupported for CUBLAS_STATUS_NOT_SUPPORTED. A cuBLASLt failure is sticky only when the device's own state
// (cudaGetLastError after it) is a sticky error.

void check_cublas(int status, const char* what);

}  // namespace roofline::cuda
