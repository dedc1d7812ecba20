// roofline_cuda_probe: the device check's side-by-side figures (issue 23, scripts/device-check). It runs the CUDA
// target's own work (measure.hpp: the same kernels, cuBLASLt problems and validators `roofline run --target cuda:N`
// runs) on device 0 at the sizes the Done-when names, times each as the harness does (best of 5 repetitions of at
// least 0.1 s, after an untimed warm-up), validates it and prints one JSON object on stdout. It needs only the CUDA
// toolkit and nlohmann-json's header, so it builds on the GPU machine when the full binary cannot run there.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>

#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

#include "roofline/cuda/measure.hpp"
#include "roofline/cuda/nvml.hpp"
#include "roofline/cuda/peak_table.hpp"
#include "roofline/kernels/cuda/check.hpp"

using namespace roofline::cuda;

namespace {

constexpr int kRepetitions = 5;
constexpr double kMinSeconds = 0.1;

nlohmann::json measure(Work& w) {
  nlohmann::json j = {{"name", w.name}};
  for (const auto& [k, v] : w.text_labels) j[k] = v;
  for (const auto& [k, v] : w.number_labels) j[k] = v;
  const double once = w.run(1);  // warm-up, and the first estimate of one iteration
  auto iterations = static_cast<std::int64_t>(std::ceil(kMinSeconds / std::max(once, 1e-7)));
  iterations = std::max<std::int64_t>(1, iterations);
  double best = 1e300;
  for (int r = 0; r < kRepetitions; ++r) best = std::min(best, w.run(iterations) / static_cast<double>(iterations));
  j["seconds_per_iteration"] = best;
  if (w.clock_hz) j["clock_hz"] = w.clock_hz();  // during the last repetition
  j["iterations"] = iterations;
  if (w.bytes > 0) j["bytes_per_second"] = w.bytes / best;
  if (w.flop > 0) j["flop_per_second"] = w.flop / best;
  if (w.op > 0) j["op_per_second"] = w.op / best;
  if (w.working_set_bytes > 0) j["working_set_bytes"] = w.working_set_bytes;
  const std::string error = w.validate();
  j["valid"] = error.empty();
  if (!error.empty()) j["error"] = error;
  std::fprintf(stderr, "probe: %s %s\n", w.name.c_str(), error.empty() ? "ok" : error.c_str());
  return j;
}

// One entry: prepared, measured and validated; a failed call fails that entry (named, with its error) and the
// probe goes on, unless the device is lost (a sticky error: thrown on, and the figures so far still printed).
template <typename Prepare>
void add(nlohmann::json& list, const std::string& name, Prepare&& prepare) {
  try {
    Work w = prepare();
    list.push_back(measure(w));
  } catch (const Unsupported& e) {
    list.push_back({{"name", name}, {"unsupported", e.what()}});
  } catch (const CudaError& e) {
    list.push_back({{"name", name}, {"valid", false}, {"error", e.what()}});
    std::fprintf(stderr, "probe: %s failed: %s\n", name.c_str(), e.what());
    if (e.sticky()) throw;
    (void)cudaGetLastError();
  }
}

void add_gemm(nlohmann::json& list, LtContext& lt, const char* precision, std::int64_t m, std::int64_t n,
              std::int64_t k, const char* suite, const Nvml* nvml = nullptr, const std::string& bus = "") {
  const std::string name = std::string(suite) + "/cublaslt/" + precision + "/m:" + std::to_string(m) + "/n:" +
                           std::to_string(n) + "/k:" + std::to_string(k);
  add(list, name, [&] { return gemm_work(lt, gemm_type_from_precision(precision), m, n, k, suite, nvml, bus); });
}

nlohmann::json sample(const NvmlSample& s) {
  if (!s.valid) return {{"valid", false}, {"error", s.error}};
  return {{"valid", true}, {"sm_clock_hz", s.sm_clock_hz}, {"max_sm_clock_hz", s.max_sm_clock_hz},
          {"throttle_names", s.throttle_names}, {"temperature_c", s.temperature_c}, {"power_w", s.power_w}};
}

nlohmann::json theoretical(const CudaProperties& p, double clock_hz) {
  const ComputeCapabilityPeaks* row = find_peaks(p.major, p.minor);
  nlohmann::json j = nlohmann::json::object();
  if (row == nullptr) return j;
  for (const PeakRate& r : row->rates) j[r.key] = theoretical_peak(*row, r.key, p.sms, clock_hz);
  return j;
}

int run(std::uint64_t working_set) {
  std::vector<std::string> notes;
  const std::vector<CudaProperties> devices = discover_cuda_devices(notes);
  if (devices.empty()) {
    std::cerr << "roofline_cuda_probe: " << (notes.empty() ? "no CUDA device" : notes.front()) << "\n";
    return 1;
  }
  const CudaProperties& p = devices.front();
  check_cuda(cudaSetDevice(p.index), "cudaSetDevice");
  const Nvml nvml;
  nlohmann::json out = {{"device", p.name}, {"compute_capability", std::to_string(p.major) + "." + std::to_string(p.minor)},
                        {"sms", p.sms}, {"l2_bytes", p.l2_bytes}, {"memory_total_bytes", p.memory_total_bytes},
                        {"max_sm_clock_hz", p.max_sm_clock_hz}, {"driver", p.driver_release},
                        {"driver_cuda", cuda_version_text(p.driver_version)},
                        {"runtime_cuda", cuda_version_text(p.runtime_version)},
                        {"nvml", nvml.available() ? "loaded" : nvml.why_not()}};
  nlohmann::json results = nlohmann::json::array();
  try {
    std::vector<Work> bandwidth;
    try {
      bandwidth = bandwidth_works(p, {working_set});
    } catch (const CudaError& e) {
      if (e.sticky()) throw;
      results.push_back({{"name", "bandwidth/allocation"}, {"valid", false}, {"error", e.what()}});
    }
    for (Work& w : bandwidth) add(results, w.name, [&] { return std::move(w); });
    for (Work& w : fma_works(p)) add(results, w.name, [&] { return std::move(w); });
    NvmlSample during;
    const double clock = measure_sm_clock_hz(p, [&] { during = nvml.sample(p.pci_bus_id); });
    out["sm_clock_under_load_hz"] = clock;
    out["nvml_during_fma"] = sample(during);
    out["theoretical_at_measured_clock"] = theoretical(p, clock);
    LtContext lt;
    const Nvml* n = nvml.available() ? &nvml : nullptr;
    for (const char* precision : {"bf16", "fp16", "tf32", "fp8", "int8"}) {
      add_gemm(results, lt, precision, 8192, 8192, 8192, "compute", n, p.pci_bus_id);
    }
    for (std::int64_t side : {8192, 16384}) {
      for (int batch : {1, 8, 64}) add_gemm(results, lt, "bf16", side, batch, side, "gemm");
      add_gemm(results, lt, "fp8", side, 16, side, "gemm");
    }
    for (bool to_device : {true, false}) {
      add(results, to_device ? "transfer/host_to_device" : "transfer/device_to_host",
          [&] { return transfer_work(to_device, true, 256ULL << 20U); });
    }
    add(results, "latency/launch", [] { return launch_work(); });
  } catch (const CudaError& e) {
    out["device_lost"] = e.what();  // sticky, or outside any entry: the figures so far are printed; exit 1 below
  }
  out["results"] = results;
  std::cout << out.dump(2) << "\n";
  return out.contains("device_lost") ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  // The working set of the bandwidth kernels: 4 GiB by default (the "at least 4 GiB" point, HBM on any
  // GPU whose L2 is under 512 MiB).
  const std::uint64_t working_set = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (4ULL << 30U);
  try {
    return run(working_set);
  } catch (const std::exception& e) {
    std::cerr << "roofline_cuda_probe: " << e.what() << "\n";
    return 1;
  }
}
