// TargetFacts of an OpenCL device: the seam's facts from DeviceFacts, with the per-vendor peak models we know.
#include "roofline/opencl/target_facts.hpp"

#include <fmt/format.h>

namespace roofline::opencl {
using nlohmann::json;

namespace {

std::string target_kind(const std::string& type) { return type == "gpu" || type == "cpu" ? type : "other"; }

// The per-unit model of a CPU device: its compute units are the host's logical CPUs running the kernels with
// the host's own vectors (an FMA is 2 FLOP per lane).
bool cpu_model(const HostVectorModel& host, TargetFacts& f) {
  if (host.vector_bits <= 0 || host.fma_pipes <= 0) return false;
  const double lanes32 = host.vector_bits / 32.0;
  f.ops_per_unit_per_clock = {{"fp32/vector", lanes32 * host.fma_pipes * 2},
                              {"fp64/vector", lanes32 / 2 * host.fma_pipes * 2}};
  if (host.vnni) f.ops_per_unit_per_clock["int8/vector"] = lanes32 * 4 * host.fma_pipes * 2;  // 4 bytes a lane
  f.notes.push_back(fmt::format("theoretical peak: the host CPU's vector model ({}-bit FMA x {} pipes; {}) at the "
                                "host cores' clock measured beside each compute kernel (the reported clock is not "
                                "what they run at); compute units are the logical CPUs the device runs on",
                                host.vector_bits, host.fma_pipes, host.source));
  return true;
}

// AMD RDNA 1/2 (gfx10xx) under ROCm or AMD's driver, which report work-group processors as compute units: a WGP
// is 2 CUs of 2 SIMD32 each (128 lanes), fp16 packed 2 per lane, fp64 at 1/16 of fp32 (RDNA whitepaper).
bool amd_model(const DeviceFacts& d, TargetFacts& f) {
  const bool amd = d.vendor.find("Advanced Micro Devices") != std::string::npos || d.vendor.find("AMD") == 0;
  if (!amd || d.name.rfind("gfx10", 0) != 0) return false;
  f.ops_per_unit_per_clock = {{"fp32/vector", 256}, {"fp16/vector", 512}, {"fp64/vector", 16}};
  f.notes.push_back("theoretical peak: AMD RDNA 1/2 model (a reported compute unit is a work-group processor: "
                    "128 fp32 lanes x FMA; fp16 packed x2; fp64 1/16; RDNA whitepaper)");
  return true;
}

}  // namespace

TargetFacts target_facts(const DeviceFacts& d, const HostVectorModel& host, const HostCaches& caches) {
  TargetFacts f;
  f.target = d.id();
  f.kind = target_kind(d.type);
  f.name = d.name;
  f.vendor = d.vendor;
  f.api = "opencl";
  f.driver = d.driver;
  f.compute_units = d.compute_units;
  f.clock_hz = d.max_clock_mhz * 1e6;
  f.memory_total_bytes = d.global_memory_bytes;
  f.memory_available_bytes = d.global_memory_bytes;  // OpenCL has no free-memory query; the total, said
  f.notes.push_back("memory_available_bytes is the device's global memory: OpenCL reports no free memory");
  // The global cache is a level of its own where the device reports one; a CPU device's is the host's cache,
  // shared with the other cores' work.
  const bool cpu = f.kind == "cpu";
  // A CPU device always has the host's last-level cache in front of its global memory, whether or not the driver
  // reports its size (PoCL 3.1 on a Zen 5 guest reports 0): listed with capacity 0 (unknown), the curve places it.
  std::uint64_t cache_bytes = d.global_cache_bytes;
  if (cpu && caches.last_unknown && cache_bytes > caches.largest_plausible_bytes) {
    f.notes.push_back(fmt::format("the device reports a global cache of {} MiB, the host's last level, whose size {} "
                                  "reports and no CPU has for its cores: not taken as the LLC's size",
                                  cache_bytes >> 20U, caches.source.empty() ? "the machine" : caches.source));
    cache_bytes = 0;
  }
  if (cache_bytes > 0 || cpu) f.memory_levels.push_back({cpu ? "LLC" : "L2", cache_bytes, cpu});
  if (cache_bytes <= 0 && d.global_cache_bytes <= 0) {
    f.notes.push_back(cpu ? "the device reports no global cache size: its LLC is placed by the bandwidth curve alone"
                          : "the device reports no global cache size: global memory is its only level");
  }
  f.memory_levels.push_back({"global", 0, cpu});
  f.peak_model = "units_clock";
  if (!(cpu ? cpu_model(host, f) : amd_model(d, f))) {
    f.peak_model = "";
    f.notes.push_back(fmt::format("theoretical peak unknown: no per-vendor model for {} ({})", d.name, d.vendor));
  }
  f.details = to_json(d);
  return f;
}

}  // namespace roofline::opencl
