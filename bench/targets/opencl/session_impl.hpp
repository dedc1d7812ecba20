// Private to the OpenCL target: what a Session holds (context, queue, program cache) and the launch and buffer
// helpers the memory and compute measurements share.
#pragma once

#include <cstdint>
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
  // One launch of `k` on `global` work-items, waited for; its seconds from the profiling event, or from the host
  // clock when the device gives none (then t.device_timing turns false and a note says so).
  double launch(cl_kernel k, std::uint64_t global, Timing& t);
};

template <typename T>
void set_arg(cl_kernel k, cl_uint index, const T& value) {
  detail::check(clSetKernelArg(k, index, sizeof(T), &value), "clSetKernelArg");
}

// Warm-up launch, then `reps` timed ones, into t.seconds.
void run_timed(Session::Impl& s, cl_kernel k, std::uint64_t global, int reps, Timing& t);

}  // namespace roofline::opencl
