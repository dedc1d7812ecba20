// NVML, loaded at run time (issue 23): the SM clock, the reasons it is held down (power, thermal, sync boost, ...),
// temperature and power, sampled beside the measurements. dlopen("libnvidia-ml.so.1"), so the binary has no
// link-time dependency on the driver and runs (without these samples, said) where NVML is absent. The few NVML
// entry points used are declared here from NVML's documented C API (nvml.h is not part of the CUDA toolkit here).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace roofline::cuda {

struct NvmlSample {
  bool valid = false;
  double sm_clock_hz = 0;
  double max_sm_clock_hz = 0;
  std::uint64_t throttle_reasons = 0;          // nvmlClocksEventReasons bit mask
  std::vector<std::string> throttle_names;     // "sw_power_cap", "hw_slowdown", ... ("none" when 0, "gpu_idle" alone idle)
  double temperature_c = 0;
  double power_w = 0;
  std::string error;                           // why not valid
};

// Samples taken while one piece of work ran, summarized: the SM clock's range and mean, every throttle reason seen
// (the union of their masks), the highest power and temperature. Pure, tested.
struct NvmlSummary {
  int samples = 0;  // the valid ones
  double sm_clock_hz_min = 0, sm_clock_hz_mean = 0, sm_clock_hz_max = 0;
  std::uint64_t throttle_reasons = 0;
  std::vector<std::string> throttle_names;
  double power_w_max = 0, temperature_c_max = 0;
};
NvmlSummary summarize(const std::vector<NvmlSample>& samples);

// The names of the bits set in an NVML clocks-event (throttle) reason mask; pure, tested.
std::vector<std::string> throttle_reason_names(std::uint64_t mask);

class Nvml {
 public:
  Nvml();   // loads the library and calls nvmlInit_v2; never throws (available() says)
  ~Nvml();
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  [[nodiscard]] bool available() const { return handle_ != nullptr; }
  [[nodiscard]] const std::string& why_not() const { return why_not_; }
  [[nodiscard]] std::string driver_release() const;
  // Samples the device with this PCI bus id ("0000:19:00.0", what cudaDeviceGetPCIBusId gives).
  [[nodiscard]] NvmlSample sample(const std::string& pci_bus_id) const;

 private:
  void* handle_ = nullptr;
  std::string why_not_;
};

}  // namespace roofline::cuda
