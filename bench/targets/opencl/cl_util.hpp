// Private to the OpenCL target: the OpenCL C API at version 1.2 (what every ICD we meet provides), errors as
// exceptions naming the call, and typed clGet*Info readers.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <string>
#include <vector>

#include "roofline/opencl/measure.hpp"

namespace roofline::opencl::detail {

// Throws OpenClError("<call> failed: <code name> (<code>)") unless err is CL_SUCCESS.
void check(cl_int err, const char* call);
std::string error_name(cl_int err);

std::vector<cl_platform_id> platforms();  // empty when no ICD or no platform
std::vector<cl_device_id> devices(cl_platform_id platform);

std::string platform_string(cl_platform_id p, cl_platform_info what);
std::string device_string(cl_device_id d, cl_device_info what);

template <typename T>
T device_value(cl_device_id d, cl_device_info what) {
  T value{};
  check(clGetDeviceInfo(d, what, sizeof(T), &value, nullptr), "clGetDeviceInfo");
  return value;
}

}  // namespace roofline::opencl::detail
