// The CUDA target's units of measurement: see measure.hpp.
#include "roofline/cuda/measure.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "roofline/harness/benchmark_name.hpp"
#include "roofline/kernels/cuda/check.hpp"

namespace roofline::cuda {
namespace {

constexpr std::uint64_t kMinBytesPerLaunch = 1ULL << 30U;

void* device_alloc(std::uint64_t bytes, const char* what) {
  void* p = nullptr;
  check_cuda(cudaMalloc(&p, bytes), what);
  return p;
}

// Device memory freed when the last work holding it goes.
struct DeviceBuffer {
  void* p = nullptr;
  explicit DeviceBuffer(std::uint64_t bytes, const char* what) : p(device_alloc(bytes, what)) {}
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

struct MemoryPool {
  std::shared_ptr<DeviceBuffer> a, b, c, scratch;
};

// Host memory for transfers: pinned through the runtime, or pageable and touched (so page faults stay out).
struct HostBuffer {
  void* p = nullptr;
  bool pinned = false;
  HostBuffer(std::uint64_t bytes, bool pin) : pinned(pin) {
    if (pin) {
      check_cuda(cudaMallocHost(&p, bytes), "cudaMallocHost");
    } else {
      p = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
      if (p == nullptr) throw CudaError("host allocation of " + std::to_string(bytes) + " bytes failed");
    }
    std::memset(p, 0, bytes);
  }
  ~HostBuffer() {
    if (pinned) {
      cudaFreeHost(p);
    } else {
      std::free(p);
    }
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
};

std::string check_pattern(const std::uint32_t* words, std::uint64_t n) {
  std::uint64_t wrong = 0;
  for (std::uint64_t i = 0; i < n; ++i) wrong += words[i] != memory_pattern(i) ? 1 : 0;
  if (wrong == 0) return "";
  return std::to_string(wrong) + " of " + std::to_string(n) + " words arrived wrong";
}

}  // namespace

double time_with_events(const std::function<void()>& launch, const std::function<void()>& during) {
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  check_cuda(cudaEventCreate(&start), "cudaEventCreate");
  check_cuda(cudaEventCreate(&stop), "cudaEventCreate");
  check_cuda(cudaEventRecord(start), "cudaEventRecord");
  launch();
  check_cuda(cudaEventRecord(stop), "cudaEventRecord");
  if (during) during();
  check_cuda(cudaEventSynchronize(stop), "cudaEventSynchronize");
  float ms = 0;
  check_cuda(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms * 1e-3;
}

Geometry occupancy_geometry(const CudaProperties& p, int blocks_per_sm) {
  Geometry g;
  g.blocks = std::max(1, p.sms) * std::max(1, blocks_per_sm);
  return g;
}

std::vector<Work> bandwidth_works(const CudaProperties& p, const std::vector<std::uint64_t>& working_sets) {
  std::vector<Work> out;
  if (working_sets.empty()) return out;
  const std::uint64_t largest = *std::max_element(working_sets.begin(), working_sets.end());
  MemoryPool pool;
  pool.a = std::make_shared<DeviceBuffer>(largest, "cudaMalloc bandwidth a");
  pool.b = std::make_shared<DeviceBuffer>(largest, "cudaMalloc bandwidth b");
  pool.c = std::make_shared<DeviceBuffer>(largest / 3 + 64, "cudaMalloc bandwidth c");
  pool.scratch = std::make_shared<DeviceBuffer>(64, "cudaMalloc bandwidth scratch");
  for (MemoryKernel k : kMemoryKernels) {
    const MemoryKernelRow& row = memory_row(k);
    const Geometry g = occupancy_geometry(p, memory_blocks_per_sm(k, Geometry{}.threads));
    for (std::uint64_t ws : working_sets) {
      MemoryBuffers buf{pool.a->p, pool.b->p, pool.c->p, bandwidth_words(k, ws),
                        static_cast<std::uint32_t*>(pool.scratch->p)};
      const std::uint64_t counted = bandwidth_counted_bytes(k, ws);
      const int passes = static_cast<int>(std::max<std::uint64_t>(1, kMinBytesPerLaunch / std::max<std::uint64_t>(counted, 1)));
      Work w;
      w.name = bandwidth_name(k, ws);
      w.text_labels = {{"suite", "bandwidth"}, {"kernel", row.name}};
      w.number_labels = {{"width", 4}, {"passes", passes}};
      w.bytes = static_cast<double>(counted) * passes;
      w.working_set_bytes = static_cast<double>(counted);
      bool filled = false;
      w.run = [pool, buf, k, passes, g, filled](std::int64_t iterations) mutable {
        if (!filled) fill_memory(k, buf);  // the first call fills (outside the timed events)
        filled = true;
        return time_with_events([&] {
          for (std::int64_t i = 0; i < iterations; ++i) launch_memory(k, buf, passes, g.blocks, g.threads);
        });
      };
      w.validate = [pool, buf, k, g] { return validate_memory(k, buf, g.blocks, g.threads); };
      hold_at_least(w);
      out.push_back(std::move(w));
    }
  }
  return out;
}

namespace {

// The SM clock of one FMA launch: clock64 cycles of the longest block (thread 0's loop) over the launch's time.
double clock_of(const std::vector<std::uint64_t>& cycles, double seconds_per_launch) {
  std::uint64_t longest = 0;
  for (std::size_t b = 0; b + 1 < cycles.size(); b += 2) longest = std::max(longest, cycles[b + 1] - cycles[b]);
  return seconds_per_launch > 0 ? static_cast<double>(longest) / seconds_per_launch : 0.0;
}

std::vector<std::uint64_t> copy_clocks(const DeviceBuffer& clocks, int blocks) {
  std::vector<std::uint64_t> host(static_cast<std::size_t>(blocks) * 2);
  check_cuda(cudaMemcpy(host.data(), clocks.p, host.size() * sizeof(std::uint64_t), cudaMemcpyDeviceToHost),
             "clock copy");
  return host;
}

}  // namespace

std::vector<Work> fma_works(const CudaProperties& p) {
  std::vector<Work> out;
  for (ComputeKind k : kComputeKinds) {
    const ComputeRow& row = compute_row(k);
    const Geometry g = occupancy_geometry(p, fma_blocks_per_sm(k, Geometry{}.threads));
    const std::uint64_t threads = static_cast<std::uint64_t>(g.blocks) * static_cast<std::uint64_t>(g.threads);
    auto results = std::make_shared<DeviceBuffer>(threads * sizeof(double), "cudaMalloc fma results");
    auto clocks = std::make_shared<DeviceBuffer>(static_cast<std::uint64_t>(g.blocks) * 2 * sizeof(std::uint64_t),
                                                 "cudaMalloc fma clocks");
    // 2^15 steps (whole blocks of kFmaStepsPerBlock): about 8 ms of fp32 at full rate on an H100-class part; the
    // slow fp64 of 8.6/8.9 takes longer.
    const std::int64_t steps = 1LL << 15U;
    Work w;
    w.name = fma_name(k);
    w.text_labels = {{"suite", "compute"}, {"kernel", "fma"}, {"precision", row.precision}, {"engine", "vector"},
                     {"clock_source", "clock64 of the timed launches"}};
    w.number_labels = {{"width", row.lanes}, {"blocks_per_sm", g.blocks / std::max(1, p.sms)}};
    w.flop = fma_flop(k, threads, steps, row.lanes);
    auto* out_ptr = static_cast<double*>(results->p);
    auto* cycles = static_cast<std::uint64_t*>(clocks->p);
    auto last_clock = std::make_shared<double>(0.0);
    w.run = [results, clocks, k, g, steps, out_ptr, cycles, last_clock](std::int64_t iterations) {
      // Thread 0 of each block writes two words per launch: nothing beside 2^15 x 8 FMAs per thread.
      const double seconds = time_with_events([&] {
        for (std::int64_t i = 0; i < iterations; ++i) launch_fma(k, g.blocks, g.threads, steps, out_ptr, cycles);
      });
      *last_clock = clock_of(copy_clocks(*clocks, g.blocks), seconds / static_cast<double>(std::max<std::int64_t>(1, iterations)));
      return seconds;
    };
    w.clock_hz = [last_clock] { return *last_clock; };
    w.validate = [results, k, g, steps, out_ptr, threads] {
      launch_fma(k, g.blocks, g.threads, steps, out_ptr, nullptr);
      return validate_fma(k, out_ptr, threads, steps);
    };
    out.push_back(std::move(w));
  }
  return out;
}

GemmType gemm_type_from_precision(const std::string& precision) {
  for (GemmType t : kGemmTypes) {
    if (precision == gemm_type_row(t).precision) return t;
  }
  throw std::invalid_argument("no cuBLASLt GEMM type for precision '" + precision + "'");
}

Work gemm_work(LtContext& context, GemmType type, std::int64_t m, std::int64_t n, std::int64_t k, const std::string& suite,
               const Nvml* nvml, const std::string& pci_bus_id) {
  auto gemm = std::make_shared<LtGemm>(context, type, m, n, k);
  const GemmTypeRow& row = gemm_type_row(type);
  Work w;
  const std::string kernel = suite == "gemm" && n == 1 ? "gemv" : "gemm";
  w.name = gemm_name(suite, row.precision, m, n, k);
  w.text_labels = {{"suite", suite}, {"kernel", kernel}, {"backend", "cublaslt"}, {"precision", row.precision},
                   {"engine", gemm->tensor_core() ? "matrix" : "vector"}, {"algorithm", gemm->algorithm()}};
  w.number_labels = {{"batch", static_cast<double>(n)}, {"m", static_cast<double>(m)}, {"n", static_cast<double>(n)},
                     {"k", static_cast<double>(k)}};
  const double operations = 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  (row.integer ? w.op : w.flop) = operations;
  const auto md = static_cast<double>(m);
  const auto nd = static_cast<double>(n);
  const auto kd = static_cast<double>(k);
  w.bytes = (md * kd + kd * nd) * row.input_bytes + md * nd * row.output_bytes;  // compulsory (roofline/common/gemm_count.hpp)
  w.working_set_bytes = w.bytes;
  if (nvml == nullptr) {
    w.run = [gemm](std::int64_t iterations) { return time_with_events([&] { gemm->run(iterations); }); };
  } else {
    // NVML read while the matmuls run: the clock and throttle reasons under the tensor load itself.
    w.samples = std::make_shared<std::vector<NvmlSample>>();
    auto since = std::make_shared<std::size_t>(0);
    w.run = [gemm, nvml, pci_bus_id, samples = w.samples](std::int64_t iterations) {
      return time_with_events([&] { gemm->run(iterations); },
                              [&] { samples->push_back(nvml->sample(pci_bus_id)); });
    };
    w.clock_hz = [samples = w.samples, since] {
      double sum = 0;
      int count = 0;
      for (std::size_t i = *since; i < samples->size(); ++i) {
        if ((*samples)[i].valid && (*samples)[i].sm_clock_hz > 0) {
          sum += (*samples)[i].sm_clock_hz;
          ++count;
        }
      }
      *since = samples->size();
      return count > 0 ? sum / count : 0.0;
    };
    w.text_labels.emplace_back("clock_source", "NVML during the timed calls");
  }
  w.validate = [gemm] { return gemm->validate(); };
  hold_at_least(w);
  return w;
}

Work transfer_work(bool host_to_device, bool pinned, std::uint64_t bytes) {
  const std::uint64_t words = bytes / 4;
  auto host = std::make_shared<HostBuffer>(bytes, pinned);
  auto device = std::make_shared<DeviceBuffer>(bytes, "cudaMalloc transfer");
  auto* host_words = static_cast<std::uint32_t*>(host->p);
  if (host_to_device) {
    for (std::uint64_t i = 0; i < words; ++i) host_words[i] = memory_pattern(i);
  } else {
    auto scratch = std::make_shared<DeviceBuffer>(64, "cudaMalloc transfer scratch");
    MemoryBuffers buf{device->p, device->p, nullptr, words, static_cast<std::uint32_t*>(scratch->p)};
    fill_memory(MemoryKernel::read, buf);  // b = the pattern (a is the same buffer: zeroed first, then b written)
  }
  Work w;
  const std::string direction = host_to_device ? "host_to_device" : "device_to_host";
  const std::string memory = pinned ? "pinned" : "pageable";
  w.name = transfer_benchmark_name(direction, memory, bytes);
  w.text_labels = {{"suite", "transfer"}, {"direction", direction}, {"memory", memory}};
  w.bytes = static_cast<double>(bytes);
  w.working_set_bytes = static_cast<double>(bytes);
  const cudaMemcpyKind kind = host_to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  w.run = [host, device, bytes, kind, host_to_device](std::int64_t iterations) {
    void* dst = host_to_device ? device->p : host->p;
    const void* src = host_to_device ? host->p : device->p;
    return time_with_events([&] {
      for (std::int64_t i = 0; i < iterations; ++i) check_cuda(cudaMemcpyAsync(dst, src, bytes, kind, nullptr), "cudaMemcpyAsync");
    });
  };
  w.validate = [host, device, bytes, words, host_to_device]() -> std::string {
    if (!host_to_device) return check_pattern(static_cast<const std::uint32_t*>(host->p), words);
    std::vector<std::uint32_t> back(words);
    check_cuda(cudaMemcpy(back.data(), device->p, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy transfer check");
    return check_pattern(back.data(), words);
  };
  return w;
}

Work launch_work() {
  Work w;
  w.name = latency_benchmark_name();
  w.text_labels = {{"suite", "latency"}, {"kernel", "launch"}};
  w.device_timed = false;
  // Each iteration launches an empty kernel and waits for it: the round trip a dependent launch pays.
  w.run = [](std::int64_t iterations) {
    const auto start = std::chrono::steady_clock::now();
    for (std::int64_t i = 0; i < iterations; ++i) {
      launch_empty(32);
      check_cuda(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize");
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  w.validate = [] { return std::string(); };
  return w;
}

double measure_sm_clock_hz(const CudaProperties& p, const std::function<void()>& during) {
  const Geometry g = occupancy_geometry(p, fma_blocks_per_sm(ComputeKind::fp32, Geometry{}.threads));
  const std::uint64_t threads = static_cast<std::uint64_t>(g.blocks) * static_cast<std::uint64_t>(g.threads);
  DeviceBuffer results(threads * sizeof(double), "cudaMalloc clock results");
  DeviceBuffer clocks(static_cast<std::uint64_t>(g.blocks) * 2 * sizeof(std::uint64_t), "cudaMalloc clocks");
  const std::int64_t steps = 1LL << 18U;  // ~60 ms at an H100's fp32 rate: launch cost is noise
  auto* out = static_cast<double*>(results.p);
  auto* cycles = static_cast<std::uint64_t*>(clocks.p);
  launch_fma(ComputeKind::fp32, g.blocks, g.threads, steps >> 4U, out, cycles);  // warm up the clock
  const double seconds =
      time_with_events([&] { launch_fma(ComputeKind::fp32, g.blocks, g.threads, steps, out, cycles); }, during);
  return clock_of(copy_clocks(clocks, g.blocks), seconds);
}

}  // namespace roofline::cuda
