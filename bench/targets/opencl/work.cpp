// The OpenCL target's DeviceWork: the memory, compute, transfer and latency batches of work.hpp, each work
// timed by device events (launch latency: the host clock) and validated after timing.
#include "roofline/opencl/work.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include <fmt/format.h>

#include "prepared.hpp"
#include "roofline/harness/benchmark_name.hpp"
#include "roofline/harness/environment.hpp"
#include "roofline/common/units.hpp"
#include "roofline_opencl_sources.hpp"
#include "work_guard.hpp"

namespace roofline::opencl {
using nlohmann::json;

namespace {
// Launches per timed call and the harness' minimum time, from one untimed call (`run(n)` returns device
// seconds): a call of at least ~1 ms of device time (launches back to back, at most 1024), and where a device
// spends far longer per launch than the kernel runs (PoCL: ~0.1 ms of host work per launch), a minimum device
// time shortened in proportion (at least 5 ms), so a small size does not take seconds of wall time. The figures
// stay the device's own (events); only how long we sample changes.
struct Pace {
  std::int64_t launches = 1;
  double min_time_s = 0.05;
};
template <typename Run>
Pace pace(Run&& run, double min_time_s) {
  const auto t0 = std::chrono::steady_clock::now();
  const double device = run(1);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  Pace p;
  p.launches = device > 0 ? std::clamp<std::int64_t>(static_cast<std::int64_t>(1e-3 / device), 1, 1024) : 1;
  p.min_time_s = wall > 0 && device > 0 ? std::clamp(min_time_s * device / wall, 0.005, min_time_s) : min_time_s;
  return p;
}
}  // namespace

namespace {
// One prepared memory kernel in one width as a DeviceWork.
DeviceWork memory_work(const std::shared_ptr<Session>& s, const std::shared_ptr<PreparedMemory>& pm, MemoryKernel k,
                       int width, const WorkOptions& o) {
  DeviceWork w;
  const std::uint64_t ws = pm->bytes_per_buffer() * static_cast<std::uint64_t>(arrays_counted(k));
  w.name = bandwidth_name(k, width, ws);
  w.labels = {{"suite", "bandwidth"}, {"kernel", to_string(k)}, {"width", width}, {"bytes", ws},
              {"global_size", pm->global_size(width)}, {"local_size", pm->local_size(width)}};
  bool timed = true;
  guarded_call(*s, [&] { return pm->run(width, 1, timed); });  // untimed: PoCL compiles per work-group size here
  w.device_timed = timed;
  const Pace p = guarded_call(*s, [&] { return pace([&](std::int64_t n) { return pm->run(width, n, timed); },
                                                    o.min_time_s); });
  const std::int64_t per_call = p.launches;
  w.labels["launches_per_call"] = per_call;
  w.run = guarded(s, [pm, width, per_call](std::int64_t n) { bool t = true; return pm->run(width, n * per_call, t); });
  w.validate = guarded(s, [pm, width] { return pm->validate(width); });
  w.bytes = static_cast<double>(pm->bytes_per_launch(width) * static_cast<std::uint64_t>(per_call));
  w.working_set_bytes = static_cast<double>(ws);
  w.min_time_s = p.min_time_s;
  w.repetitions = o.repetitions;
  return w;
}
}  // namespace

std::vector<DeviceWork> bandwidth_work(const std::shared_ptr<Session>& s, MemoryKernel k, std::uint64_t bytes,
                                       const WorkOptions& o, std::vector<std::string>& notes) {
  auto pm = guarded_call(*s, [&] { return std::make_shared<PreparedMemory>(*s, k, bytes); });
  for (const std::string& n : pm->notes()) notes.push_back(fmt::format("{} {}: {}", s->facts().id(), to_string(k), n));
  std::vector<DeviceWork> works;
  for (int width : kVectorWidths) {
    if (o.widths.empty() || std::find(o.widths.begin(), o.widths.end(), width) != o.widths.end()) {
      works.push_back(memory_work(s, pm, k, width, o));
    }
  }
  return works;
}

std::vector<DeviceWork> compute_work(const std::shared_ptr<Session>& s, ComputeKind k, const WorkOptions& o,
                                     std::vector<std::string>& notes) {
  // Steps per launch: long enough that a launch is far above its fixed cost on a GPU, short on a CPU device.
  const bool cpu = s->facts().type == "cpu";
  const std::int64_t steps = cpu ? 1024 : 8192;
  const int groups = cpu ? 4 : 16;
  std::vector<DeviceWork> works;
  for (int width : kVectorWidths) {
    auto pc = guarded_call(*s, [&] { return std::make_shared<PreparedCompute>(*s, k, width, steps, groups); });
    DeviceWork w;
    const bool integer = k == ComputeKind::int32 || k == ComputeKind::int8;
    w.name = compute_name(k, width);
    w.labels = {{"suite", "compute"}, {"kernel", k == ComputeKind::int8 ? "dot" : "mad"}, {"precision", to_string(k)},
                {"engine", "vector"}, {"width", width}, {"steps", steps}, {"global_size", pc->global_size()},
                {"local_size", s->local_size()}};
    bool timed = true;
    guarded_call(*s, [&] { return pc->run(1, timed); });
    w.device_timed = timed;
    const Pace p = guarded_call(*s, [&] { return pace([&](std::int64_t n) { return pc->run(n, timed); }, o.min_time_s); });
    const std::int64_t per_call = p.launches;
    w.labels["launches_per_call"] = per_call;
    w.run = guarded(s, [pc, per_call](std::int64_t n) { bool t = true; return pc->run(n * per_call, t); });
    w.validate = guarded(s, [pc] { return pc->validate(); });
    (integer ? w.op : w.flop) = static_cast<double>(pc->ops_per_launch() * static_cast<std::uint64_t>(per_call));
    // A CPU device runs on the host's cores: their clock, measured on as many threads as it has compute units
    // right after each repetition, is the clock its theoretical peak is taken at (the reported clock is the
    // base or maximum frequency, not what the cores ran at: PoCL reports 2.6 GHz where Zen 4 runs ~3.7).
    if (cpu) w.clock_hz = [units = std::max(1, s->facts().compute_units)] { return measure_clock_hz(units); };
    w.min_time_s = p.min_time_s;
    w.repetitions = o.repetitions;
    works.push_back(std::move(w));
  }
  if (k == ComputeKind::int8 && !s->facts().integer_dot_product) {
    notes.push_back(fmt::format("{}: int8 dot products emulated (no cl_khr_integer_dot_product)", s->facts().id()));
  }
  return works;
}

std::vector<DeviceWork> latency_work(const std::shared_ptr<Session>& s, const WorkOptions& o) {
  struct Empty {
    KernelHandle kernel{nullptr, &clReleaseKernel};
    MemHandle unused{nullptr, &clReleaseMemObject};
    int launched = 0;
  };
  auto e = std::make_shared<Empty>();
  guarded_call(*s, [&] {
    double built = 0;
    e->kernel = s->impl().kernel(kLatencyClSource, "", "empty_kernel", built);
    e->unused = s->impl().buffer(4);
    cl_mem m = e->unused.get();
    set_arg(e->kernel.get(), 0, m);
    bool timed = true;
    return s->impl().launch_many(e->kernel.get(), 1, 1, timed, 1);
  });
  DeviceWork w;
  w.name = latency_benchmark_name();
  w.labels = {{"suite", "latency"}, {"kernel", "launch"}};
  w.device_timed = false;  // enqueue to completion, as a caller sees it
  w.run = guarded(s, [s, e](std::int64_t n) {
    double sum = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      bool timed = false;
      const auto t0 = std::chrono::steady_clock::now();
      s->impl().launch_many(e->kernel.get(), 1, 1, timed, 1);
      sum += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      ++e->launched;
    }
    return sum;
  });
  w.validate = [e] { return e->launched > 0 ? std::string() : std::string("the empty kernel never ran"); };
  w.min_time_s = o.min_time_s;
  w.repetitions = o.repetitions;
  return {w};
}

std::string bandwidth_name(MemoryKernel k, int width, std::uint64_t working_set_bytes) {
  BenchmarkKey key("bandwidth", {to_string(k)});
  key.width = width;
  key.bytes = working_set_bytes;
  return benchmark_name(key);
}

std::string compute_name(ComputeKind k, int width) {
  BenchmarkKey key("compute", {to_string(k)});
  key.width = width;
  return benchmark_name(key);
}

std::string gemm_name(const std::string& precision, std::int64_t m, std::int64_t k, int batch) {
  BenchmarkKey key("gemm", {"clblast", precision});
  key.m = m;
  key.k = k;
  key.batch = batch;
  return benchmark_name(key);
}

double run_and_validate(const DeviceWork& w, std::int64_t iterations) {
  const double seconds = w.run(iterations);
  const std::string wrong = w.validate();
  if (!wrong.empty()) throw std::runtime_error(w.name + ": " + wrong);
  const double per = w.bytes > 0 ? w.bytes : w.flop > 0 ? w.flop : w.op > 0 ? w.op : 1.0;
  return per * static_cast<double>(iterations) / seconds;
}

}  // namespace roofline::opencl
