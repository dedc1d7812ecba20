// NVML through dlopen: see nvml.hpp. The declarations below follow the NVML API reference (nvml.h): all return
// nvmlReturn_t (0 = NVML_SUCCESS), a device is an opaque pointer.
#include "roofline/cuda/nvml.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <array>

namespace roofline::cuda {
namespace {

using NvmlDevice = void*;
using InitFn = int (*)();
using ShutdownFn = int (*)();
using ByPciFn = int (*)(const char*, NvmlDevice*);
using ClockFn = int (*)(NvmlDevice, int, unsigned int*);
using ReasonsFn = int (*)(NvmlDevice, unsigned long long*);
using TemperatureFn = int (*)(NvmlDevice, int, unsigned int*);
using PowerFn = int (*)(NvmlDevice, unsigned int*);
using DriverFn = int (*)(char*, unsigned int);

constexpr int kNvmlClockSm = 1;          // NVML_CLOCK_SM
constexpr int kNvmlTemperatureGpu = 0;   // NVML_TEMPERATURE_GPU

template <typename F>
F symbol(void* handle, const char* name) {
  return reinterpret_cast<F>(dlsym(handle, name));
}

}  // namespace

std::vector<std::string> throttle_reason_names(std::uint64_t mask) {
  // nvmlClocksEventReason* bits (nvml.h): 0x1 GpuIdle, 0x2 ApplicationsClocksSetting, 0x4 SwPowerCap,
  // 0x8 HwSlowdown, 0x10 SyncBoost, 0x20 SwThermalSlowdown, 0x40 HwThermalSlowdown, 0x80 HwPowerBrakeSlowdown,
  // 0x100 DisplayClockSetting.
  static constexpr std::array<const char*, 9> names{"gpu_idle", "applications_clocks", "sw_power_cap", "hw_slowdown",
                                                    "sync_boost", "sw_thermal", "hw_thermal", "hw_power_brake",
                                                    "display_clock"};
  std::vector<std::string> out;
  for (std::size_t bit = 0; bit < names.size(); ++bit) {
    if ((mask >> bit) & 1U) out.emplace_back(names[bit]);
  }
  if (mask >> names.size() != 0) out.emplace_back("other");
  if (out.empty()) out.emplace_back("none");
  return out;
}

NvmlSummary summarize(const std::vector<NvmlSample>& samples) {
  NvmlSummary out;
  double sum = 0;
  for (const NvmlSample& s : samples) {
    if (!s.valid) continue;
    out.sm_clock_hz_min = out.samples == 0 ? s.sm_clock_hz : std::min(out.sm_clock_hz_min, s.sm_clock_hz);
    out.sm_clock_hz_max = std::max(out.sm_clock_hz_max, s.sm_clock_hz);
    sum += s.sm_clock_hz;
    out.throttle_reasons |= s.throttle_reasons;
    out.power_w_max = std::max(out.power_w_max, s.power_w);
    out.temperature_c_max = std::max(out.temperature_c_max, s.temperature_c);
    ++out.samples;
  }
  if (out.samples > 0) out.sm_clock_hz_mean = sum / out.samples;
  out.throttle_names = throttle_reason_names(out.throttle_reasons);
  return out;
}

Nvml::Nvml() {
  void* h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    why_not_ = "libnvidia-ml.so.1 not found (NVML comes with the NVIDIA driver)";
    return;
  }
  auto init = symbol<InitFn>(h, "nvmlInit_v2");
  if (init == nullptr || init() != 0) {
    why_not_ = "nvmlInit_v2 failed";
    dlclose(h);
    return;
  }
  handle_ = h;
}

Nvml::~Nvml() {
  if (handle_ == nullptr) return;
  if (auto shutdown = symbol<ShutdownFn>(handle_, "nvmlShutdown")) shutdown();
  dlclose(handle_);
}

std::string Nvml::driver_release() const {
  if (handle_ == nullptr) return "";
  auto get = symbol<DriverFn>(handle_, "nvmlSystemGetDriverVersion");
  std::array<char, 96> text{};
  if (get == nullptr || get(text.data(), static_cast<unsigned int>(text.size())) != 0) return "";
  return text.data();
}

NvmlSample Nvml::sample(const std::string& pci_bus_id) const {
  NvmlSample s;
  if (handle_ == nullptr) {
    s.error = why_not_;
    return s;
  }
  NvmlDevice device = nullptr;
  auto by_pci = symbol<ByPciFn>(handle_, "nvmlDeviceGetHandleByPciBusId_v2");
  if (by_pci == nullptr || by_pci(pci_bus_id.c_str(), &device) != 0) {
    s.error = "NVML does not know the device at " + pci_bus_id;
    return s;
  }
  unsigned int mhz = 0;
  auto clock = symbol<ClockFn>(handle_, "nvmlDeviceGetClockInfo");
  auto max_clock = symbol<ClockFn>(handle_, "nvmlDeviceGetMaxClockInfo");
  if (clock == nullptr || clock(device, kNvmlClockSm, &mhz) != 0) {
    s.error = "nvmlDeviceGetClockInfo failed";
    return s;
  }
  s.sm_clock_hz = mhz * 1e6;
  if (max_clock != nullptr && max_clock(device, kNvmlClockSm, &mhz) == 0) s.max_sm_clock_hz = mhz * 1e6;
  // The newer name first (NVML 12.x renamed throttle reasons to clock event reasons; both stay exported).
  auto reasons = symbol<ReasonsFn>(handle_, "nvmlDeviceGetCurrentClocksEventReasons");
  if (reasons == nullptr) reasons = symbol<ReasonsFn>(handle_, "nvmlDeviceGetCurrentClocksThrottleReasons");
  unsigned long long mask = 0;
  if (reasons != nullptr && reasons(device, &mask) == 0) s.throttle_reasons = mask;
  s.throttle_names = throttle_reason_names(s.throttle_reasons);
  unsigned int value = 0;
  auto temperature = symbol<TemperatureFn>(handle_, "nvmlDeviceGetTemperature");
  if (temperature != nullptr && temperature(device, kNvmlTemperatureGpu, &value) == 0) s.temperature_c = value;
  auto power = symbol<PowerFn>(handle_, "nvmlDeviceGetPowerUsage");
  if (power != nullptr && power(device, &value) == 0) s.power_w = value / 1000.0;
  s.valid = true;
  return s;
}

}  // namespace roofline::cuda
