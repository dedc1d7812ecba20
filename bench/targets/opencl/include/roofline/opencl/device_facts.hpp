// The facts of one OpenCL device (issue 22): what clGetDeviceInfo says about it, as a plain struct that
// round-trips through JSON, so a recorded device (tests/data/opencl/) is read back and rendered on any machine.
// Built without OpenCL too: only discovery (discovery.hpp) needs the ICD loader.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace roofline::opencl {

struct DeviceFacts {
  int platform_index = 0;          // position in clGetPlatformIDs' list
  int device_index = 0;            // position in that platform's clGetDeviceIDs(CL_DEVICE_TYPE_ALL) list
  std::string platform_name;
  std::string platform_vendor;
  std::string platform_version;
  std::string name;
  std::string vendor;
  std::string version;             // CL_DEVICE_VERSION
  std::string driver;              // CL_DRIVER_VERSION
  std::string opencl_c_version;    // CL_DEVICE_OPENCL_C_VERSION
  std::string type;                // "cpu", "gpu", "accelerator" or "other"
  int compute_units = 0;
  int max_clock_mhz = 0;
  std::uint64_t global_memory_bytes = 0;
  std::uint64_t local_memory_bytes = 0;
  std::uint64_t global_cache_bytes = 0;
  int global_cache_line_bytes = 0;
  std::uint64_t max_allocation_bytes = 0;
  std::uint64_t max_work_group_size = 0;
  // The extensions that decide what can be measured.
  bool fp64 = false;                 // cl_khr_fp64
  bool fp16 = false;                 // cl_khr_fp16
  bool integer_dot_product = false;  // cl_khr_integer_dot_product
  std::string source;                // "clGetDeviceInfo", or where a recorded device's figures come from

  // "opencl:P.D", the name `--target` will take.
  [[nodiscard]] std::string id() const;
};

nlohmann::json to_json(const DeviceFacts& facts);
// Reads the object written by to_json; throws InputError naming the first missing or mistyped field.
DeviceFacts device_from_json(const nlohmann::json& j);

// The block `roofline devices` prints for one device (two-space indented lines, no trailing blank line).
std::string format_device(const DeviceFacts& facts);

// Maps a CL_DEVICE_TYPE bit set to our name: gpu, cpu, accelerator, else other.
std::string device_type_name(std::uint64_t cl_device_type);

// Whether `extensions` (CL_DEVICE_EXTENSIONS: names separated by spaces) contains `name` as a whole word.
bool has_extension(const std::string& extensions, const std::string& name);

}  // namespace roofline::opencl
