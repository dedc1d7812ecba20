// A CUDA device's properties as plain data (issue 23): what discovery reads from the runtime, and what the device
// check's probe prints. Plain C++ (no CUDA header, no JSON library) so that the probe, built on the GPU machine with
// nvcc alone, and CI's host tests both use it; facts.hpp turns it into the target's TargetFacts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace roofline::cuda {

struct CudaProperties {
  int index = 0;
  std::string name;             // "NVIDIA H200"
  std::string uuid;             // "GPU-1a2b..."
  std::string pci_bus_id;       // "0000:19:00.0": how NVML finds the same device
  int major = 0;                // compute capability
  int minor = 0;
  int sms = 0;
  double max_sm_clock_hz = 0;   // cudaDevAttrClockRate: the peak SM clock the runtime reports
  double memory_clock_hz = 0;   // cudaDevAttrMemoryClockRate
  int memory_bus_width_bits = 0;
  std::uint64_t memory_total_bytes = 0;
  std::uint64_t memory_free_bytes = 0;  // cudaMemGetInfo when the device was opened
  std::uint64_t l2_bytes = 0;
  int max_threads_per_sm = 0;
  int driver_version = 0;       // cudaDriverGetVersion: 12080 is 12.8
  int runtime_version = 0;      // cudaRuntimeGetVersion (the static runtime we carry)
  std::string driver_release;   // NVML's driver release string ("570.86.15"), "" without NVML
};

// "12.8" from 12080.
inline std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}
// major x 10 + minor.
inline int compute_capability(const CudaProperties& p) { return p.major * 10 + p.minor; }

// Every CUDA device the runtime sees, with its properties (CUDA builds only: discovery.cpp). When there is no
// driver or no device, the list is empty and `notes` says why (the runtime's own words).
std::vector<CudaProperties> discover_cuda_devices(std::vector<std::string>& notes);

}  // namespace roofline::cuda
