// The OpenCL call helpers of cl_util.hpp.
#include "cl_util.hpp"

#include <fmt/format.h>

namespace roofline::opencl::detail {

std::string error_name(cl_int err) {
  switch (err) {
    case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
    case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
    case CL_COMPILER_NOT_AVAILABLE: return "CL_COMPILER_NOT_AVAILABLE";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    case CL_PROFILING_INFO_NOT_AVAILABLE: return "CL_PROFILING_INFO_NOT_AVAILABLE";
    case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
    case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";  // from cl_ext.h's ICD extension
    default: return "OpenCL error";
  }
}

void check(cl_int err, const char* call) {
  if (err != CL_SUCCESS) throw OpenClError(fmt::format("{} failed: {} ({})", call, error_name(err), err));
}

std::vector<cl_platform_id> platforms() {
  cl_uint n = 0;
  // The ICD loader answers CL_PLATFORM_NOT_FOUND_KHR when no vendor file is installed: no platform.
  if (clGetPlatformIDs(0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::vector<cl_platform_id> ps(n);
  check(clGetPlatformIDs(n, ps.data(), nullptr), "clGetPlatformIDs");
  return ps;
}

std::vector<cl_device_id> devices(cl_platform_id platform) {
  cl_uint n = 0;
  const cl_int err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &n);
  if (err == CL_DEVICE_NOT_FOUND || n == 0) return {};
  check(err, "clGetDeviceIDs");
  std::vector<cl_device_id> ds(n);
  check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, n, ds.data(), nullptr), "clGetDeviceIDs");
  return ds;
}

namespace {
template <typename Getter>
std::string read_string(Getter&& get, const char* call) {
  std::size_t size = 0;
  check(get(0, nullptr, &size), call);
  std::string s(size, '\0');
  check(get(size, s.data(), nullptr), call);
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();  // NUL and drivers' trailing blanks
  return s;
}
}  // namespace

std::string platform_string(cl_platform_id p, cl_platform_info what) {
  return read_string([&](std::size_t n, void* v, std::size_t* r) { return clGetPlatformInfo(p, what, n, v, r); },
                     "clGetPlatformInfo");
}

std::string device_string(cl_device_id d, cl_device_info what) {
  return read_string([&](std::size_t n, void* v, std::size_t* r) { return clGetDeviceInfo(d, what, n, v, r); },
                     "clGetDeviceInfo");
}

}  // namespace roofline::opencl::detail
