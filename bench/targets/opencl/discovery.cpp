// Enumerates OpenCL platforms and devices through the ICD loader and reads each device's facts.
#include "roofline/opencl/discovery.hpp"

#include <fmt/format.h>

#include "cl_util.hpp"

namespace roofline::opencl {
using detail::device_string;
using detail::device_value;

namespace {
DeviceFacts read_facts(cl_platform_id p, cl_device_id d, int pi, int di) {
  DeviceFacts f;
  f.platform_index = pi;
  f.device_index = di;
  f.platform_name = detail::platform_string(p, CL_PLATFORM_NAME);
  f.platform_vendor = detail::platform_string(p, CL_PLATFORM_VENDOR);
  f.platform_version = detail::platform_string(p, CL_PLATFORM_VERSION);
  f.name = device_string(d, CL_DEVICE_NAME);
  f.vendor = device_string(d, CL_DEVICE_VENDOR);
  f.version = device_string(d, CL_DEVICE_VERSION);
  f.driver = device_string(d, CL_DRIVER_VERSION);
  f.opencl_c_version = device_string(d, CL_DEVICE_OPENCL_C_VERSION);
  f.type = device_type_name(device_value<cl_device_type>(d, CL_DEVICE_TYPE));
  f.compute_units = static_cast<int>(device_value<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS));
  f.max_clock_mhz = static_cast<int>(device_value<cl_uint>(d, CL_DEVICE_MAX_CLOCK_FREQUENCY));
  f.global_memory_bytes = device_value<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE);
  f.local_memory_bytes = device_value<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE);
  f.global_cache_bytes = device_value<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
  f.global_cache_line_bytes = static_cast<int>(device_value<cl_uint>(d, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE));
  f.max_allocation_bytes = device_value<cl_ulong>(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  f.max_work_group_size = device_value<size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  const std::string ext = device_string(d, CL_DEVICE_EXTENSIONS);
  f.fp64 = has_extension(ext, "cl_khr_fp64");
  f.fp16 = has_extension(ext, "cl_khr_fp16");
  f.integer_dot_product = has_extension(ext, "cl_khr_integer_dot_product");
  f.source = "clGetDeviceInfo";
  return f;
}
}  // namespace

DeviceList discover_devices() {
  DeviceList list;
  const std::vector<cl_platform_id> ps = detail::platforms();
  if (ps.empty()) {
    list.notes.push_back("no OpenCL platform found: the ICD loader found no vendor driver (/etc/OpenCL/vendors, "
                         "or OCL_ICD_VENDORS); for a CPU device install pocl-opencl-icd (scripts/install-deps --test)");
    return list;
  }
  for (std::size_t pi = 0; pi < ps.size(); ++pi) {
    try {
      const std::vector<cl_device_id> ds = detail::devices(ps[pi]);
      for (std::size_t di = 0; di < ds.size(); ++di) {
        list.devices.push_back(read_facts(ps[pi], ds[di], static_cast<int>(pi), static_cast<int>(di)));
      }
    } catch (const OpenClError& e) {
      list.notes.push_back(fmt::format("platform {}: {}", pi, e.what()));
    }
  }
  if (list.devices.empty()) list.notes.push_back("OpenCL platforms found, but no device on any of them");
  return list;
}

}  // namespace roofline::opencl
