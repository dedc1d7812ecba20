// An OpenCL device's plan: see device_plan.hpp. The estimates use planning rates (a guess per device kind, on the low
// side of what recorded runs measured) and never feed a measured figure; a suite that takes longer than its
// estimate says so (measure.cpp) and nothing is cut.
#include "roofline/opencl/device_plan.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "roofline/harness/gemm_shape.hpp"
#include "roofline/harness/plausible_caches.hpp"
#include "roofline/harness/profile.hpp"
#include "roofline/common/units.hpp"
#include "roofline/opencl/provider.hpp"
#include "roofline/opencl/work.hpp"

namespace roofline::opencl {
namespace {

// The widest vector width: every buffer holds a whole number of its work-groups (as measure_memory.cpp).
constexpr std::uint64_t kWidest = 16;

// A CPU device's cache when the host reports no plausible one and the device none: 16 MiB, a usual host last level
// (its quick GEMM weights are then 4096 x 4096 in fp32).
constexpr double kCpuDeviceCache = 16.0 * 1024 * 1024;

// Planning rates, deliberately low (recorded PoCL runs on 2 Zen 4/5 vCPUs: 30-35 GB/s from DRAM, 10-26 GFLOP/s for
// CLBlast's SGEMM): memory, GEMM and host-side preparation (random fill and upload) per device kind.
struct Rates {
  double bytes_per_s;
  double gemm_flop_per_s;
};
Rates planning_rates(const DeviceFacts& d) { return d.type == "cpu" ? Rates{8e9, 8e9} : Rates{100e9, 1e12}; }
constexpr double kPrepareBytesPerS = 1e9;
constexpr double kBuildSeconds = 0.05;  // one program (kernel x width) built, PoCL on 2 vCPUs

// Google Benchmark's cost of one repetition of at least `min_time_s` whose call takes `call_s` (as the CPU plan
// counts it): one call when that already fills the window, else the sizing call and the window (~1.4x, its growth).
double repetition_seconds(double call_s, double min_time_s) {
  return call_s >= min_time_s ? call_s : call_s + 1.4 * min_time_s;
}

// A work's cost: the untimed first call, the pacing call, then the repetitions.
double work_seconds(double call_s, const WorkOptions& o) {
  return 2.0 * call_s + o.repetitions * repetition_seconds(call_s, o.min_time_s);
}

// Host work per kernel launch: PoCL's ~0.1 ms (work.cpp's pace), a GPU driver's ~10 us.
double launch_overhead_s(const DeviceFacts& d) { return d.type == "cpu" ? 1e-4 : 1e-5; }

// A memory or compute kernel's work whose one launch takes `launch_s` on the device: work.cpp's pace launches back to
// back for ~1 ms of device time per call (at most 1024 launches) and shortens the minimum time in proportion to
// device / wall time (at least 5 ms); each repetition runs calls until that much device time (x1.4, the harness'
// growth). On PoCL the small sizes cost most: their calls are mostly the host's launch work.
double kernel_work_seconds(double launch_s, const DeviceFacts& d, const WorkOptions& o) {
  const double launches = std::clamp(std::floor(1e-3 / std::max(launch_s, 1e-9)), 1.0, 1024.0);
  const double call_device = launches * launch_s, call_wall = launches * (launch_s + launch_overhead_s(d));
  const double min_time = std::clamp(o.min_time_s * call_device / call_wall, 0.005, o.min_time_s);
  const double calls = std::max(1.0, std::ceil(min_time / call_device));
  return 2.0 * call_wall + o.repetitions * 1.4 * calls * call_wall;
}

// The widths the quick sweep runs: the two that give the memory ceilings of recorded runs (PoCL: 16 and 8 at most
// sizes), 4 and 16 on other devices (a 128-bit load is most GPUs' widest). Fixed by the device's kind, never by this
// run's curve, and the same at every size: the analysis keeps one width per kernel, compared over the sizes every
// width ran at (target_roofline.cpp), so each needs the whole sweep. The full profile and --sizes run every width.
std::vector<int> planned_widths(const DeviceFacts& d) {
  return d.type == "cpu" ? std::vector<int>{16, 8} : std::vector<int>{4, 16};
}

// How far a quick sweep is thinned for its budget: the widths it keeps, and every how many sizes the spot kernels
// (copy, write) run (always at the last size too).
struct Thinning {
  std::size_t widths = 2;
  std::size_t spot_stride = 2;
};

// The cache the sweep must leave, and where it comes from: a CPU device's is the host's largest plausible cache (none
// when the host's last level is of unknown size), another device's the global cache it reports.
void choose_cache(const DeviceFacts& d, const HostCaches& host, DevicePlan& p) {
  if (d.type == "cpu") {
    p.last_cache_bytes = host.last_unknown ? 0 : host.largest_plausible_bytes;
    p.cache_source = p.last_cache_bytes > 0
                         ? fmt::format("the host's largest plausible cache ({}, {})",
                                       format_bytes(double(p.last_cache_bytes)), host.source)
                         : "no plausible host cache size known";
  } else {
    p.last_cache_bytes = d.global_cache_bytes;
    p.cache_source = p.last_cache_bytes > 0 ? fmt::format("the device's global cache ({}, clGetDeviceInfo)",
                                                          format_bytes(double(p.last_cache_bytes)))
                                            : "the device reports no global cache size";
  }
}

// The sweep: sweep_plan.hpp's from the device's smallest size, 1 size per octave (full: 2), to 8x the cache, capped
// by what the device can hold (one buffer: its max allocation; all of them: half its global memory) and, on a CPU
// device, by the host memory the run may use.
SweepPlan device_sweep(const DeviceFacts& d, const DevicePlan& p, const RunConfig& config, int per_octave) {
  std::uint64_t cap = 0;
  const auto lower = [&](std::uint64_t limit) { if (limit > 0) cap = cap == 0 ? limit : std::min(cap, limit); };
  lower(d.max_allocation_bytes);
  lower(d.global_memory_bytes / 2);
  if (d.type == "cpu") lower(config.memory_budget_bytes);
  // --sizes: as asked (PreparedMemory caps a buffer at the max allocation, said), not refused.
  return plan_sweep(config.profile, config.sizes, p.last_cache_bytes, config.sizes.empty() ? cap : 0, per_octave,
                    device_sweep_start(d));
}

void bandwidth_steps(const DeviceFacts& d, const WorkOptions& o, DevicePlan& p, const Thinning& t) {
  p.bandwidth.clear();
  const std::vector<std::uint64_t>& sizes = p.sweep.sizes;
  const bool quick = !o.full && o.sizes.empty();
  std::vector<int> widths = quick ? planned_widths(d) : std::vector<int>(kVectorWidths.begin(), kVectorWidths.end());
  if (quick) widths.resize(std::min(widths.size(), t.widths));
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    for (MemoryKernel k : kMemoryKernels) {
      // read (the roof kernel) and triad at every size; quick: copy and write every spot_stride sizes and the last.
      const bool swept = !quick || k == MemoryKernel::read || k == MemoryKernel::triad;
      if (!swept && i % t.spot_stride != 0 && i + 1 != sizes.size()) continue;
      p.bandwidth.push_back({k, sizes[i], widths});
    }
  }
}

SuitePlan bandwidth_suite(const DeviceFacts& d, const DevicePlan& p, const WorkOptions& o, const RunConfig& config) {
  SuitePlan s{d.id(), "bandwidth", suite_budget_seconds(config.profile, true, "bandwidth"), {}, {}};
  const Rates rates = planning_rates(d);
  std::vector<std::pair<MemoryKernel, int>> built;
  for (const DeviceBandwidthStep& step : p.bandwidth) {
    const std::uint64_t ws = planned_working_set(d, step.kernel, step.bytes);
    double prepare = static_cast<double>(ws) / kPrepareBytesPerS;
    for (const int w : step.widths) {
      if (std::find(built.begin(), built.end(), std::make_pair(step.kernel, w)) == built.end()) {
        built.emplace_back(step.kernel, w);
        prepare += kBuildSeconds;
      }
      s.entries.push_back({d.id(), "bandwidth", bandwidth_name(step.kernel, w, ws),
                           0, o.repetitions, prepare + kernel_work_seconds(static_cast<double>(ws) / rates.bytes_per_s, d, o)});
      prepare = 0.0;
    }
  }
  return s;
}

SuitePlan compute_suite(const DeviceFacts& d, const DevicePlan& p, const WorkOptions& o, const RunConfig& config) {
  SuitePlan s{d.id(), "compute", suite_budget_seconds(config.profile, true, "compute"), {}, {}};
  for (const ComputeKind k : p.compute) {
    for (const int w : kVectorWidths) {
      s.entries.push_back({d.id(), "compute", compute_name(k, w), 0, o.repetitions,
                           kBuildSeconds + kernel_work_seconds(1e-3, d, o)});
    }
  }
  for (const ComputeKind k : kComputeKinds) {
    if (!supports(d, k)) s.notes.push_back(fmt::format("{}: {} not measured (the device lacks its extension)", d.id(), to_string(k)));
  }
  return s;
}

// The GEMM shape (the quick profile's from the cache: 4x it in weights, gemm_shape.hpp; the full profile's the
// default; --gemm-shape wins), precisions and batches.
void gemm_shape(const DeviceFacts& d, const WorkOptions& o, DevicePlan& p) {
  const double cache = p.last_cache_bytes > 0     ? double(p.last_cache_bytes)
                       : d.global_cache_bytes > 0 ? double(d.global_cache_bytes)
                       : d.type == "cpu"          ? kCpuDeviceCache
                                                  : 0.0;
  const std::string from = p.last_cache_bytes > 0 ? p.cache_source
                           : d.global_cache_bytes > 0 ? std::string("the device's global cache")
                                                      : std::string("assumed for a CPU device");
  const bool sized = !o.full && cache > 0.0;
  p.gemm_m = o.gemm_m > 0 ? o.gemm_m : sized ? quick_gemm_side(cache, Precision::fp32) : kDefaultGemmM;
  p.gemm_k = o.gemm_k > 0 ? o.gemm_k : p.gemm_m;
  p.shape_source = o.gemm_m > 0 ? std::string("--gemm-shape")
                   : sized      ? fmt::format("{}x the largest cache ({}, {})", kGemmCacheFactor, format_bytes(cache), from)
                                : std::string("default");
  p.gemm_precisions = {"fp32"};
  // fp16 is checked exactly up to K 16384 (gemm_clblast.cpp)
  if (d.fp16 && p.gemm_k <= 16384) p.gemm_precisions.emplace_back("fp16");
  p.gemm_batches = gemm_batches(o);
}

SuitePlan gemm_suite(const DeviceFacts& d, const DevicePlan& p, const WorkOptions& o, const RunConfig& config) {
  SuitePlan s{d.id(), "gemm", suite_budget_seconds(config.profile, true, "gemm"), {}, {}};
  const Rates rates = planning_rates(d);
  const double m = double(p.gemm_m), k = double(p.gemm_k);
  for (const std::string& precision : p.gemm_precisions) {
    const double e = precision == "fp16" ? 2.0 : 4.0;
    const int n_max = *std::max_element(p.gemm_batches.begin(), p.gemm_batches.end());
    double prepare = e * (m * k + k * n_max) / kPrepareBytesPerS;
    for (const int n : p.gemm_batches) {
      const double call = std::max(2.0 * m * k * n / rates.gemm_flop_per_s, e * (m * k + k * n + m * n) / rates.bytes_per_s);
      s.entries.push_back({d.id(), "gemm", gemm_name(precision, p.gemm_m, p.gemm_k, n),
                           0, o.repetitions, prepare + work_seconds(call, o)});
      prepare = 0.0;
    }
  }
  return s;
}

SuitePlan transfer_suite(const DeviceFacts& d, const DevicePlan& p, const WorkOptions& o, const RunConfig& config) {
  SuitePlan s{d.id(), "transfer", suite_budget_seconds(config.profile, true, "transfer"), {}, {}};
  for (const char* direction : {"host_to_device", "device_to_host"}) {
    for (const char* memory : {"pinned", "pageable"}) {
      s.entries.push_back({d.id(), "transfer", transfer_benchmark_name(direction, memory, p.transfer_bytes),
                           0, o.repetitions, 4.0 * double(p.transfer_bytes) / kPrepareBytesPerS +
                                                 work_seconds(double(p.transfer_bytes) / planning_rates(d).bytes_per_s, o)});
    }
  }
  return s;
}

SuitePlan latency_suite(const DeviceFacts& d, const WorkOptions& o, const RunConfig& config) {
  SuitePlan s{d.id(), "latency", suite_budget_seconds(config.profile, true, "latency"), {}, {}};
  s.entries.push_back({d.id(), "latency", latency_benchmark_name(), 0, o.repetitions, kBuildSeconds + work_seconds(1e-4, o)});
  return s;
}

// What the sweep's end comes from, and whether the device's limits cut it short of main memory.
std::string sweep_note(const DeviceFacts& d, const DevicePlan& p) {
  if (p.sweep.from_user) return fmt::format("{}: the sizes of --sizes", d.id());
  const std::string end = format_bytes(double(p.sweep.sizes.back()));
  if (p.sweep.capped) {
    return fmt::format("{}: the sweep ends at {}, what the device can hold (max allocation {}, half its global memory, "
                       "the run's memory budget), before {} ({}x {}): its main memory may not be reached",
                       d.id(), end, format_bytes(double(d.max_allocation_bytes)),
                       format_bytes(double(p.sweep.planned_end_bytes)), kSweepEndCacheFactor, p.cache_source);
  }
  return p.last_cache_bytes > 0 ? fmt::format("{}: the sweep ends at {}, {}x {}", d.id(), end, kSweepEndCacheFactor, p.cache_source)
                                : fmt::format("{}: the sweep ends at {} ({}: as the CPU's sweep without a plausible cache)",
                                              d.id(), end, p.cache_source);
}

bool over(const SuitePlan& s) { return s.budget_s > 0.0 && s.estimated_seconds() > s.budget_s; }


// The bandwidth suite. Over its budget (not with --sizes), one step at a time until it fits: 1 size per octave
// instead of 2 (the full profile), one width instead of two (the first of planned_widths), the spot kernels every
// fourth size instead of every other. The sweep's end stays, so main memory is still reached. Deterministic, said.
SuitePlan planned_bandwidth(const DeviceFacts& d, DevicePlan& p, const WorkOptions& o, const RunConfig& config) {
  Thinning t;
  bandwidth_steps(d, o, p, t);
  SuitePlan s = bandwidth_suite(d, p, o, config);
  if (!config.sizes.empty()) return s;
  const double before = s.estimated_seconds();
  std::vector<std::string> done;
  const auto step = [&](const std::string& what) {
    bandwidth_steps(d, o, p, t);
    s = bandwidth_suite(d, p, o, config);
    done.push_back(what);
  };
  if (over(s) && p.sweep.per_octave > 1) {
    p.sweep = device_sweep(d, p, config, 1);
    step("1 size per octave");
  }
  const bool quick = !o.full;
  if (over(s) && quick) {
    t.widths = 1;
    step(fmt::format("width {} alone", planned_widths(d).front()));
  }
  if (over(s) && quick) {
    t.spot_stride = 4;
    step("copy and write at every fourth size");
  }
  if (!done.empty()) {
    s.notes.push_back(fmt::format("the sweep was estimated at {:.1f} s, over the {:.0f} s budget: planned with {}",
                                  before, s.budget_s, fmt::join(done, ", then ")));
  }
  return s;
}

// The gemm suite. Over its budget (not with --batches): the largest batches are left out, one at a time, until the
// estimate fits or two remain (the GEMV and the smallest GEMM). Deterministic and said.
SuitePlan planned_gemm(const DeviceFacts& d, DevicePlan& p, const WorkOptions& o, const RunConfig& config) {
  SuitePlan s = gemm_suite(d, p, o, config);
  if (!config.batches.empty()) return s;
  const double before = s.estimated_seconds();
  std::vector<int> left_out;
  while (over(s) && p.gemm_batches.size() > 2) {
    left_out.insert(left_out.begin(), p.gemm_batches.back());
    p.gemm_batches.pop_back();
    s = gemm_suite(d, p, o, config);
  }
  if (!left_out.empty()) {
    s.notes.push_back(fmt::format("the batches were estimated at {:.1f} s, over the {:.0f} s budget: batches {} left "
                                  "out of the plan", before, s.budget_s, fmt::join(left_out, ", ")));
  }
  return s;
}

}  // namespace

HostCaches host_caches(const MachineFacts& machine) {
  HostCaches h;
  h.largest_plausible_bytes = plausible_cache_bytes(machine, std::max(1, machine.pus), BindPolicy::compact);
  h.last_unknown = last_cache_unknown(machine);
  h.source = machine.caches.empty() || machine.caches.back().source.empty() ? "the machine" : machine.caches.back().source;
  return h;
}

std::uint64_t default_local_size(std::uint64_t max_work_group_size) {
  return std::min<std::uint64_t>(64, max_work_group_size > 0 ? max_work_group_size : 64);
}

std::uint64_t device_sweep_start(const DeviceFacts& d) {
  std::uint64_t start = 4096;
  while (start < 3 * kWidest * 4 * default_local_size(d.max_work_group_size)) start *= 2;
  return start;
}

std::uint64_t planned_words(MemoryKernel k, std::uint64_t bytes, std::uint64_t max_allocation_bytes,
                            std::uint64_t local_size) {
  std::uint64_t per_buffer = bytes / static_cast<std::uint64_t>(arrays_counted(k));
  if (max_allocation_bytes > 0) per_buffer = std::min(per_buffer, max_allocation_bytes);
  const std::uint64_t grain = kWidest * local_size;
  return per_buffer / 4 / grain * grain;
}

std::uint64_t planned_working_set(const DeviceFacts& d, MemoryKernel k, std::uint64_t bytes) {
  return planned_words(k, bytes, d.max_allocation_bytes, default_local_size(d.max_work_group_size)) * 4 *
         static_cast<std::uint64_t>(arrays_counted(k));
}

DevicePlan plan_device(const DeviceFacts& d, const HostCaches& host, const RunConfig& config,
                       const std::vector<std::string>& suites) {
  DevicePlan p;
  const WorkOptions o = work_options(config);
  choose_cache(d, host, p);
  const int per_octave = o.full ? 2 : 1;
  p.sweep = device_sweep(d, p, config, per_octave);
  for (const ComputeKind k : kComputeKinds) {
    if (supports(d, k)) p.compute.push_back(k);
  }
  gemm_shape(d, o, p);
  p.transfer_bytes = o.full ? 256ull << 20 : 64ull << 20;
  if (d.max_allocation_bytes > 0) p.transfer_bytes = std::min(p.transfer_bytes, d.max_allocation_bytes);
  for (const std::string& suite : suites) {
    SuitePlan s;
    if (suite == "bandwidth") {
      s = planned_bandwidth(d, p, o, config);
      s.notes.insert(s.notes.begin(), sweep_note(d, p));
    }
    if (suite == "compute") s = compute_suite(d, p, o, config);
    if (suite == "gemm") s = planned_gemm(d, p, o, config);
    if (suite == "transfer") s = transfer_suite(d, p, o, config);
    if (suite == "latency") s = latency_suite(d, o, config);
    if (over(s)) {
      s.notes.push_back(fmt::format("estimated {:.1f} s, over its {:.0f} s budget: nothing is cut at run time",
                                    s.estimated_seconds(), s.budget_s));
    }
    if (!s.suite.empty()) p.suites.push_back(std::move(s));
  }
  return p;
}

}  // namespace roofline::opencl
