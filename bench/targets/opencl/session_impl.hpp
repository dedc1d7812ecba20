// Private to the OpenCL target: what a Session holds (context, queue, program cache) and the launch and buffer
// helpers the memory and compute measurements share.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>

#include "cl_util.hpp"
#include "roofline/opencl/measure.hpp"

namespace roofline::opencl {

using MemHandle = std::unique_ptr<std::remove_pointer_t<cl_mem>, decltype(&clReleaseMemObject)>;
using KernelHandle = std::unique_ptr<std::remove_pointer_t<cl_kernel>, decltype(&clReleaseKernel)>;

struct Session::Impl {
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  bool profiling = false;
  std::uint64_t local = 64;
  double build_seconds = 0;
  std::map<std::string, cl_program> programs;  // by source name + build options

  ~Impl();
  // The kernel `name` of program `source` built with `options`, building the program on first use (its build
  // time added to `built_seconds`; the build log in the error when it fails).
  KernelHandle kernel(const char* source, const std::string& options, const char* name, double& built_seconds);
  MemHandle buffer(std::uint64_t bytes);
  void write(cl_mem m, const void* data, std::uint64_t bytes);
  void read(cl_mem m, void* data, std::uint64_t bytes);
  // `count` launches back to back, then one wait: the sum of their profiled durations (the gaps between them
  // are the launch cost, measured apart by the latency suite), or the host clock around all of them when the
  // device gives no profiling. `local_override` 0: the session's work-group size.
  double launch_many(cl_kernel k, std::uint64_t global, std::int64_t count, bool& device_timed,
                     std::uint64_t local_override = 0);
  // The same for any command: `enqueue` puts one on the queue and returns its event in `*event`.
  double timed_commands(std::int64_t count, const std::function<cl_int(cl_event*)>& enqueue, bool& device_timed);
  // For tests of a device lost mid-run: after this many more commands, every command fails (-1: never).
  std::int64_t fail_after = -1;
  // Why the device was lost, once a command failed mid-run ("" while it works).
  std::string lost;
};

template <typename T>
void set_arg(cl_kernel k, cl_uint index, const T& value) {
  detail::check(clSetKernelArg(k, index, sizeof(T), &value), "clSetKernelArg");
}

}  // namespace roofline::opencl
