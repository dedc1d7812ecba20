// The OpenCL Session: opens one device (context, in-order queue with profiling when the device gives it), builds
// each program once per run and caches it, and launches kernels timed by profiling events or the host clock.
#include <algorithm>
#include <chrono>
#include <vector>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/opencl/device_plan.hpp"
#include "session_impl.hpp"

namespace roofline::opencl {

std::string to_string(MemoryKernel k) { return std::string(stream_kernel_row(stream_kernel(k)).name); }

std::string to_string(ComputeKind k) {
  switch (k) {
    case ComputeKind::fp32: return "fp32";
    case ComputeKind::fp64: return "fp64";
    case ComputeKind::fp16: return "fp16";
    case ComputeKind::int32: return "int32";
    case ComputeKind::int8: return "int8";
  }
  return "?";
}

int arrays_counted(MemoryKernel k) { return stream_words_per_element(stream_kernel(k)); }

Session::Session(const DeviceFacts& facts) : facts_(facts), impl_(std::make_unique<Impl>()) {
  const std::vector<cl_platform_id> ps = detail::platforms();
  if (facts.platform_index < 0 || static_cast<std::size_t>(facts.platform_index) >= ps.size()) {
    throw OpenClError(fmt::format("{}: no such OpenCL platform", facts.id()));
  }
  const std::vector<cl_device_id> ds = detail::devices(ps[facts.platform_index]);
  if (facts.device_index < 0 || static_cast<std::size_t>(facts.device_index) >= ds.size()) {
    throw OpenClError(fmt::format("{}: no such OpenCL device", facts.id()));
  }
  Impl& s = *impl_;
  s.device = ds[facts.device_index];
  cl_int err = CL_SUCCESS;
  s.context = clCreateContext(nullptr, 1, &s.device, nullptr, nullptr, &err);
  detail::check(err, "clCreateContext");
  s.queue = clCreateCommandQueue(s.context, s.device, CL_QUEUE_PROFILING_ENABLE, &err);
  s.profiling = err == CL_SUCCESS;
  if (!s.profiling) {  // a device without profiling: host timing, said in every Timing's notes
    s.queue = clCreateCommandQueue(s.context, s.device, 0, &err);
    detail::check(err, "clCreateCommandQueue");
  }
  const auto max_wg = detail::device_value<size_t>(s.device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  s.local = default_local_size(max_wg);
}

Session::~Session() = default;
bool Session::device_timing() const { return impl_->profiling; }
std::uint64_t Session::local_size() const { return impl_->local; }
double Session::total_build_seconds() const { return impl_->build_seconds; }
void Session::simulate_loss_after(std::int64_t commands) { impl_->fail_after = commands; }

Session::Impl::~Impl() {
  for (auto& [key, program] : programs) clReleaseProgram(program);
  if (queue != nullptr) clReleaseCommandQueue(queue);
  if (context != nullptr) clReleaseContext(context);
}

KernelHandle Session::Impl::kernel(const char* source, const std::string& options, const char* name,
                                   double& built_seconds) {
  const std::string key = std::string(name) + " " + options;
  auto it = programs.find(key);
  if (it == programs.end()) {
    const auto t0 = std::chrono::steady_clock::now();
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
    detail::check(err, "clCreateProgramWithSource");
    err = clBuildProgram(p, 1, &device, options.c_str(), nullptr, nullptr);
    if (err != CL_SUCCESS) {
      std::string log = detail::device_string(device, CL_DEVICE_NAME);
      std::size_t size = 0;
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
      std::string text(size, '\0');
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, size, text.data(), nullptr);
      clReleaseProgram(p);
      throw OpenClError(fmt::format("building {} ({}) failed on {}: {}", name, options, log, text));
    }
    built_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    build_seconds += built_seconds;
    it = programs.emplace(key, p).first;
  }
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(it->second, name, &err);
  detail::check(err, "clCreateKernel");
  return {k, &clReleaseKernel};
}

MemHandle Session::Impl::buffer(std::uint64_t bytes) {
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
  detail::check(err, "clCreateBuffer");
  return {m, &clReleaseMemObject};
}

void Session::Impl::write(cl_mem m, const void* data, std::uint64_t bytes) {
  detail::check(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, bytes, data, 0, nullptr, nullptr), "clEnqueueWriteBuffer");
}

void Session::Impl::read(cl_mem m, void* data, std::uint64_t bytes) {
  detail::check(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, bytes, data, 0, nullptr, nullptr), "clEnqueueReadBuffer");
}

double Session::Impl::launch_many(cl_kernel k, std::uint64_t global, std::int64_t count, bool& device_timed,
                                  std::uint64_t local_override) {
  const std::size_t g = global;
  const std::size_t l = local_override == 0 ? local : local_override;
  return timed_commands(count, [&](cl_event* ev) {
    return clEnqueueNDRangeKernel(queue, k, 1, nullptr, &g, &l, 0, nullptr, ev);
  }, device_timed);
}

double Session::Impl::timed_commands(std::int64_t count, const std::function<cl_int(cl_event*)>& enqueue,
                                     bool& device_timed) {
  std::vector<cl_event> events;
  events.reserve(static_cast<std::size_t>(count));
  const auto release = [&events] {
    for (cl_event e : events) clReleaseEvent(e);
  };
  const auto t0 = std::chrono::steady_clock::now();
  for (std::int64_t i = 0; i < count; ++i) {
    cl_event ev = nullptr;
    // A lost device stays lost: once the simulated loss is reached every later command fails too.
    const bool lose = fail_after == 0;
    if (fail_after > 0) --fail_after;
    const cl_int err = lose ? CL_DEVICE_NOT_AVAILABLE : enqueue(&ev);
    if (err != CL_SUCCESS) release();
    detail::check(err, "enqueueing a timed command");
    events.push_back(ev);
  }
  const cl_int finished = clFinish(queue);
  const double host = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double sum = 0;
  bool timed = profiling && finished == CL_SUCCESS;
  for (cl_event ev : events) {
    cl_ulong start = 0, end = 0;
    timed = timed && clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr) == CL_SUCCESS &&
            clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) == CL_SUCCESS && end >= start;
    if (timed) sum += static_cast<double>(end - start) * 1e-9;
  }
  release();
  detail::check(finished, "clFinish");
  device_timed = timed && sum > 0;
  return device_timed ? sum : host;
}

}  // namespace roofline::opencl
