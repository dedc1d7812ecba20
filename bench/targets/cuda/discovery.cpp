// discover_cuda_devices: see properties.hpp. The CUDA runtime (linked statically) loads the driver itself; on a
// machine without one every call returns cudaErrorInsufficientDriver or cudaErrorNoDevice, which becomes a note.
#include <cuda_runtime_api.h>

#include <array>
#include <cstdio>

#include "roofline/cuda/nvml.hpp"
#include "roofline/cuda/properties.hpp"

namespace roofline::cuda {
namespace {

int attribute(cudaDeviceAttr a, int device) {
  int value = 0;
  if (cudaDeviceGetAttribute(&value, a, device) != cudaSuccess) return 0;
  return value;
}

std::string uuid_text(const cudaUUID_t& u) {
  std::string out = "GPU-";
  for (int i = 0; i < 16; ++i) {
    std::array<char, 3> hex{};
    std::snprintf(hex.data(), hex.size(), "%02x", static_cast<unsigned>(static_cast<unsigned char>(u.bytes[i])));
    out += hex.data();
    if (i == 3 || i == 5 || i == 7 || i == 9) out += '-';
  }
  return out;
}

CudaProperties read_properties(int device, const std::string& driver_release) {
  cudaDeviceProp prop{};
  CudaProperties p;
  p.index = device;
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) return p;
  p.name = prop.name;
  p.uuid = uuid_text(prop.uuid);
  std::array<char, 32> bus{};
  if (cudaDeviceGetPCIBusId(bus.data(), static_cast<int>(bus.size()), device) == cudaSuccess) p.pci_bus_id = bus.data();
  p.major = prop.major;
  p.minor = prop.minor;
  p.sms = prop.multiProcessorCount;
  p.max_sm_clock_hz = attribute(cudaDevAttrClockRate, device) * 1e3;  // kHz
  p.memory_clock_hz = attribute(cudaDevAttrMemoryClockRate, device) * 1e3;
  p.memory_bus_width_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, device);
  p.memory_total_bytes = prop.totalGlobalMem;
  p.l2_bytes = static_cast<std::uint64_t>(prop.l2CacheSize);
  p.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  cudaDriverGetVersion(&p.driver_version);
  cudaRuntimeGetVersion(&p.runtime_version);
  p.driver_release = driver_release;
  if (cudaSetDevice(device) == cudaSuccess) {
    std::size_t free = 0;
    std::size_t total = 0;
    if (cudaMemGetInfo(&free, &total) == cudaSuccess) p.memory_free_bytes = free;
  }
  return p;
}

}  // namespace

std::vector<CudaProperties> discover_cuda_devices(std::vector<std::string>& notes) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    notes.push_back(std::string("CUDA: no usable device (") + cudaGetErrorString(status) + ")");
    return {};
  }
  const Nvml nvml;
  const std::string release = nvml.driver_release();
  std::vector<CudaProperties> out;
  for (int d = 0; d < count; ++d) out.push_back(read_properties(d, release));
  if (count == 0) notes.emplace_back("CUDA: the driver lists no device");
  return out;
}

}  // namespace roofline::cuda
