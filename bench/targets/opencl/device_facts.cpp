// OpenCL device facts: JSON in both directions and the text `roofline devices` prints.
#include "roofline/opencl/device_facts.hpp"

#include <sstream>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/common/units.hpp"

namespace roofline::opencl {
using nlohmann::json;

namespace {
// Every fact under its JSON name, in one list for both directions.
template <typename Facts, typename Field>
void for_each_fact(Facts& d, Field&& field) {
  field("platform_index", d.platform_index);
  field("device_index", d.device_index);
  field("platform_name", d.platform_name);
  field("platform_vendor", d.platform_vendor);
  field("platform_version", d.platform_version);
  field("name", d.name);
  field("vendor", d.vendor);
  field("version", d.version);
  field("driver", d.driver);
  field("opencl_c_version", d.opencl_c_version);
  field("type", d.type);
  field("compute_units", d.compute_units);
  field("max_clock_mhz", d.max_clock_mhz);
  field("global_memory_bytes", d.global_memory_bytes);
  field("local_memory_bytes", d.local_memory_bytes);
  field("global_cache_bytes", d.global_cache_bytes);
  field("global_cache_line_bytes", d.global_cache_line_bytes);
  field("max_allocation_bytes", d.max_allocation_bytes);
  field("max_work_group_size", d.max_work_group_size);
  field("fp64", d.fp64);
  field("fp16", d.fp16);
  field("integer_dot_product", d.integer_dot_product);
  field("source", d.source);
}

const char* yes_no(bool b) { return b ? "yes" : "no"; }

// 0 is what a recorded device holds for a fact that was not recorded (and what some drivers answer).
std::string bytes_or_unknown(std::uint64_t bytes) {
  return bytes == 0 ? "unknown" : format_bytes(static_cast<double>(bytes));
}
}  // namespace

std::string DeviceFacts::id() const { return fmt::format("opencl:{}.{}", platform_index, device_index); }

json to_json(const DeviceFacts& d) {
  json j = json::object();
  for_each_fact(d, [&](const char* key, const auto& value) { j[key] = value; });
  return j;
}

DeviceFacts device_from_json(const json& j) {
  if (!j.is_object()) throw InputError("OpenCL device facts: not an object");
  DeviceFacts d;
  for_each_fact(d, [&](const char* key, auto& value) {
    if (!j.contains(key)) throw InputError(fmt::format("OpenCL device facts: '{}' is missing", key));
    try {
      j.at(key).get_to(value);
    } catch (const json::exception&) {
      throw InputError(fmt::format("OpenCL device facts: '{}' has the wrong type", key));
    }
  });
  return d;
}

std::string format_device(const DeviceFacts& d) {
  std::ostringstream out;
  out << fmt::format("{}  {} ({}, {})\n", d.id(), d.name, d.type, d.vendor);
  out << fmt::format("  platform        {} ({}){}\n", d.platform_name, d.platform_vendor,
                     d.platform_version.empty() ? "" : ", " + d.platform_version);
  out << fmt::format("  version         {}; driver {}; {}\n", d.version, d.driver, d.opencl_c_version);
  out << fmt::format("  compute units   {} at up to {} MHz\n", d.compute_units, d.max_clock_mhz);
  out << fmt::format("  global memory   {} (max allocation {})\n", bytes_or_unknown(d.global_memory_bytes),
                     bytes_or_unknown(d.max_allocation_bytes));
  out << fmt::format("  global cache    {}, lines of {}\n", bytes_or_unknown(d.global_cache_bytes),
                     bytes_or_unknown(static_cast<std::uint64_t>(d.global_cache_line_bytes)));
  out << fmt::format("  local memory    {}; max work-group size {}\n", bytes_or_unknown(d.local_memory_bytes),
                     d.max_work_group_size);
  out << fmt::format("  measurable      fp32 yes, fp64 {} (cl_khr_fp64), fp16 {} (cl_khr_fp16), int32 yes, "
                     "int8 dot {} (cl_khr_integer_dot_product)\n",
                     yes_no(d.fp64), yes_no(d.fp16), yes_no(d.integer_dot_product));
  out << fmt::format("  [source: {}]\n", d.source);
  return out.str();
}

std::string device_type_name(std::uint64_t t) {
  // CL_DEVICE_TYPE_CPU (1 << 1), _GPU (1 << 2), _ACCELERATOR (1 << 3): fixed by the OpenCL specification.
  if (t & (1u << 2)) return "gpu";
  if (t & (1u << 1)) return "cpu";
  if (t & (1u << 3)) return "accelerator";
  return "other";
}

bool has_extension(const std::string& extensions, const std::string& name) {
  std::istringstream words(extensions);
  for (std::string w; words >> w;) {
    if (w == name) return true;
  }
  return false;
}

}  // namespace roofline::opencl
