// The OpenCL target's transfer batch: host-to-device and device-to-host copies from pinned host memory (a
// CL_MEM_ALLOC_HOST_PTR buffer, mapped: what drivers pin for DMA) and pageable memory (the ordinary heap), timed
// by the copy commands' events, the copied bytes checked after timing.
#include <cstring>

#include <fmt/format.h>

#include "roofline/common/units.hpp"
#include "roofline/opencl/work.hpp"
#include "work_guard.hpp"

namespace roofline::opencl {
namespace {

// The buffers of one direction x memory: the device buffer, the host side (pinned: mapped from `pinned`), and
// the pattern the destination must hold after a copy.
struct Transfer {
  Session::Impl* im = nullptr;
  bool to_device = true;
  std::uint64_t bytes = 0;
  MemHandle device{nullptr, &clReleaseMemObject};
  MemHandle pinned{nullptr, &clReleaseMemObject};
  void* mapped = nullptr;
  std::vector<unsigned char> heap;
  std::vector<unsigned char> pattern;
  unsigned char* host() { return mapped != nullptr ? static_cast<unsigned char*>(mapped) : heap.data(); }

  Transfer() = default;
  Transfer(const Transfer&) = delete;
  Transfer& operator=(const Transfer&) = delete;
  ~Transfer() {
    if (mapped != nullptr) {
      clEnqueueUnmapMemObject(im->queue, pinned.get(), mapped, 0, nullptr, nullptr);
      clFinish(im->queue);
    }
  }

  double run(std::int64_t n) {
    bool timed = true;
    return im->timed_commands(n, [this](cl_event* ev) {
      return to_device ? clEnqueueWriteBuffer(im->queue, device.get(), CL_FALSE, 0, bytes, host(), 0, nullptr, ev)
                       : clEnqueueReadBuffer(im->queue, device.get(), CL_FALSE, 0, bytes, host(), 0, nullptr, ev);
    }, timed);
  }

  std::string validate() {
    std::vector<unsigned char> got(bytes);
    if (to_device) im->read(device.get(), got.data(), bytes);
    const unsigned char* have = to_device ? got.data() : host();
    return std::memcmp(have, pattern.data(), bytes) == 0 ? "" : "the copied bytes differ from the source";
  }
};

std::shared_ptr<Transfer> make_transfer(Session& s, bool to_device, bool pinned, std::uint64_t bytes) {
  auto t = std::make_shared<Transfer>();
  t->im = &s.impl();
  t->to_device = to_device;
  t->bytes = bytes;
  t->pattern.resize(bytes);
  std::uint32_t x = 0x12345678u;  // xorshift: incompressible bytes
  for (auto& b : t->pattern) {
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    b = static_cast<unsigned char>(x);
  }
  t->device = s.impl().buffer(bytes);
  if (pinned) {
    cl_int err = CL_SUCCESS;
    t->pinned = MemHandle(clCreateBuffer(s.impl().context, CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &err),
                          &clReleaseMemObject);
    detail::check(err, "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)");
    t->mapped = clEnqueueMapBuffer(s.impl().queue, t->pinned.get(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                                   nullptr, nullptr, &err);
    detail::check(err, "clEnqueueMapBuffer");
  } else {
    t->heap.resize(bytes);
  }
  // The source holds the pattern: the host side going to the device, the device buffer coming back.
  if (to_device) std::memcpy(t->host(), t->pattern.data(), bytes);
  else s.impl().write(t->device.get(), t->pattern.data(), bytes);
  t->run(1);  // untimed first copy (the driver may pin or map pages on first use)
  return t;
}
}  // namespace

std::vector<DeviceWork> transfer_work(const std::shared_ptr<Session>& s, std::uint64_t bytes, const WorkOptions& o,
                                      std::vector<std::string>& notes) {
  const std::uint64_t cap = s->facts().max_allocation_bytes;
  if (cap > 0 && bytes > cap) {
    notes.push_back(fmt::format("{} transfer: {} capped at the device's max allocation, {}", s->facts().id(),
                                format_bytes(static_cast<double>(bytes)), format_bytes(static_cast<double>(cap))));
    bytes = cap;
  }
  std::vector<DeviceWork> works;
  for (bool to_device : {true, false}) {
    for (bool pinned : {true, false}) {
      auto t = guarded_call(*s, [&] { return make_transfer(*s, to_device, pinned, bytes); });
      DeviceWork w;
      const char* direction = to_device ? "host_to_device" : "device_to_host";
      const char* memory = pinned ? "pinned" : "pageable";
      w.name = transfer_benchmark_name(direction, memory, bytes);
      w.labels = {{"suite", "transfer"}, {"direction", direction}, {"memory", memory}, {"bytes", bytes}};
      w.run = guarded(s, [t](std::int64_t n) { return t->run(n); });
      w.validate = guarded(s, [t] { return t->validate(); });
      w.bytes = static_cast<double>(bytes);
      w.working_set_bytes = static_cast<double>(bytes);
      w.device_timed = s->device_timing();
      w.min_time_s = o.min_time_s;
      w.repetitions = o.repetitions;
      works.push_back(std::move(w));
    }
  }
  return works;
}

}  // namespace roofline::opencl
