// Discovery of OpenCL devices (issue 22): every platform the ICD loader finds and every device on it, with
// their facts. Only built with OpenCL (ROOFLINE_WITH_OPENCL).
#pragma once

#include <string>
#include <vector>

#include "roofline/opencl/device_facts.hpp"

namespace roofline::opencl {

struct DeviceList {
  std::vector<DeviceFacts> devices;
  std::vector<std::string> notes;  // why the list is empty (no ICD, no platform), platforms that failed
};

// Never throws for a missing ICD or platform: says so in notes.
DeviceList discover_devices();

}  // namespace roofline::opencl
