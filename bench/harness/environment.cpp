// The environment guard: /proc readers, the clock and canary measurements, and the context entry. See
// environment.hpp.
#include "roofline/harness/environment.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "roofline/facts/pinning.hpp"
#include "roofline/harness/plausible_caches.hpp"
#include "roofline/harness/stream_probe.hpp"
#include "roofline/common/huge_pages.hpp"
#include "roofline/kernels/cpu/peak.hpp"
#include "roofline/kernels/cpu/stream.hpp"

namespace roofline {
using nlohmann::json;

namespace {

std::string read_text(const char* path) {
  std::ifstream in(path);
  if (!in) return "";
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string first_word(const std::string& s) {
  std::istringstream in(s);
  std::string w;
  in >> w;
  return w;
}

constexpr int kCanaryPasses = 8;
constexpr std::int64_t kClockTrips = 100000;  // 6.4 M cycles: milliseconds
constexpr int kClockSamples = 5;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}


struct FreeDeleter {
  void operator()(double* p) const { std::free(p); }
};

double measure_canary(std::uint64_t bytes, int threads, const IsaFeatures& features) {
  const std::size_t n = std::max<std::size_t>(8, bytes / (3 * sizeof(double)) / 8 * 8);
  // On the 2 MiB pages of the DRAM roof it speaks for (huge_pages.hpp): a plain aligned_alloc got 4 KiB pages under
  // THP "madvise", whose first touch under nested paging took a fault per page at every canary of the run.
  // One mapping for the three arrays, each at a whole number of 2 MiB into it: the pool keeps it whole, and the
  // bandwidth suite's largest set (one mapping too: StreamArena) takes it instead of first-touching fresh pages
  // (issue 60).
  const std::size_t stride = huge_page_multiple(n * sizeof(double));
  std::unique_ptr<double, LargeFree> block(static_cast<double*>(allocate_large(3 * stride)));
  if (!block) return 0.0;  // no memory for it now: no canary, said by a 0
  double* const a = block.get();
  const StreamArrays arrays{a, a + stride / sizeof(double), a + 2 * stride / sizeof(double), n};
  stream_init(StreamKernel::triad, arrays, threads);
  const StreamProbeSampling sampling{.passes_per_sample = 1, .min_samples = kCanaryPasses, .max_samples = kCanaryPasses};
  return probe_stream(StreamKernel::triad, arrays, threads, sampling, features, "environment canary")
      .best_bytes_per_second;
}

constexpr int kCoreCanarySamples = 8;
constexpr int kCoreCanaryPasses = 512;  // 128 KiB per thread each (64 MiB a thread): about half a millisecond a sample

json sample_json(const EnvironmentSample& s) {
  json j = {{"clock_hz", s.clock_hz}, {"canary_bytes_per_second", s.canary_bytes_per_second}};
  if (s.core_canary_bytes_per_second > 0.0) j["core_canary_bytes_per_second"] = s.core_canary_bytes_per_second;
  j["load_avg"] = s.load ? json(*s.load) : json(nullptr);
  j["governor"] = s.governor.empty() ? json(nullptr) : json(s.governor);
  j["turbo"] = s.turbo ? json(*s.turbo) : json(nullptr);
  if (s.cpu) j["proc_stat"] = {{"total_ticks", s.cpu->total}, {"steal_ticks", s.cpu->steal}};
  return j;
}

}  // namespace

std::optional<CpuTimes> parse_proc_stat(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    if (name != "cpu") continue;
    // user nice system idle iowait irq softirq steal (guest time is already inside user).
    std::uint64_t v[8] = {};
    int read = 0;
    while (read < 8 && fields >> v[read]) ++read;
    if (read < 4) return std::nullopt;
    CpuTimes t;
    for (int i = 0; i < read; ++i) t.total += v[i];
    t.steal = read >= 8 ? v[7] : 0;
    t.idle = v[3] + (read >= 5 ? v[4] : 0);
    return t;
  }
  return std::nullopt;
}

std::optional<std::array<double, 3>> parse_loadavg(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::array<double, 3> l{};
  if (!(in >> l[0] >> l[1] >> l[2])) return std::nullopt;
  return l;
}

std::uint64_t canary_bytes(const MachineFacts& machine, const RunConfig& config) {
  // Well past the last cache (8x what is reported and plausible, at least 256 MiB): at 4x, on a 32 MiB-L3 VM, the
  // canary sat in the L3-to-DRAM transition, the least stable point of the curve, and drifted 16% between two
  // quiet runs. An implausible size (a guest's 508 MiB L3 per core) would make it 1 GiB, twice, for nothing.
  const std::uint64_t largest = largest_plausible_cache(machine);
  std::uint64_t bytes = std::clamp<std::uint64_t>(8 * largest, 256ull << 20, 1ull << 30);
  if (config.memory_budget_bytes > 0) bytes = std::min(bytes, config.memory_budget_bytes / 2);
  return bytes;
}

double measure_clock_hz(int threads) {
  std::vector<std::int64_t> out(static_cast<std::size_t>(threads));
  run_clock(threads, kClockTrips / 10, 1, out.data());  // wakes the team
  double best = 0.0;
  for (int i = 0; i < kClockSamples; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    run_clock(threads, kClockTrips, 1, out.data());
    const double s = seconds_since(t0);
    if (s > 0.0) best = std::max(best, static_cast<double>(kClockTrips) * kClockAddsPerIteration / s);
  }
  if (auto err = validate_clock(threads, kClockTrips, 1, out.data())) throw std::runtime_error("environment clock: " + *err);
  return best;
}

double measure_core_canary(int threads, const IsaFeatures& features) {
  const std::size_t step = stream_step_elements(StreamKernel::read, features) * static_cast<std::size_t>(threads);
  const std::size_t want = kCoreCanaryBytesPerThread / sizeof(double) * static_cast<std::size_t>(threads);
  const std::size_t n = std::max(step, want / step * step);
  std::unique_ptr<double, FreeDeleter> a(static_cast<double*>(std::aligned_alloc(64, n * sizeof(double))));
  if (!a) return 0.0;
  const StreamArrays arrays{a.get(), nullptr, nullptr, n};
  stream_init(StreamKernel::read, arrays, threads);
  const StreamProbeSampling sampling{.passes_per_sample = kCoreCanaryPasses,
                                     .warmup_passes = kCoreCanaryPasses / 8,  // wakes the team
                                     .min_samples = kCoreCanarySamples,
                                     .max_samples = kCoreCanarySamples};
  return probe_stream(StreamKernel::read, arrays, threads, sampling, features, "environment core canary")
      .best_bytes_per_second;
}

EnvironmentSample sample_environment(const MachineFacts& machine, const RunConfig& config) {
  EnvironmentSample s;
  s.cpu = parse_proc_stat(read_text("/proc/stat"));
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) == 0) {
    s.own_cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                        static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  }
  s.load = parse_loadavg(read_text("/proc/loadavg"));
  s.governor = first_word(read_text("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"));
  const std::string no_turbo = first_word(read_text("/sys/devices/system/cpu/intel_pstate/no_turbo"));
  const std::string boost = first_word(read_text("/sys/devices/system/cpu/cpufreq/boost"));
  if (!no_turbo.empty()) s.turbo = no_turbo == "0";
  else if (!boost.empty()) s.turbo = boost == "1";
  const int threads = config.max_threads();
  pin_openmp_threads(threads, binding_plan(machine, threads, config.bind));
  s.clock_hz = measure_clock_hz(threads);
  s.canary_bytes_per_second = measure_canary(canary_bytes(machine, config), threads, config.features);
  s.core_canary_bytes_per_second = measure_core_canary(threads, config.features);
  s.libc_canary_bytes_per_second = measure_libc_canary(canary_bytes(machine, config), threads);
  s.libc_core_canary_bytes_per_second = measure_libc_core_canary(threads);
  return s;
}

CanaryCheckpoint measure_canary_checkpoint(const MachineFacts& machine, const RunConfig& config, std::string at,
                                           double seconds) {
  const int threads = config.max_threads();
  pin_openmp_threads(threads, binding_plan(machine, threads, config.bind));
  const std::uint64_t bytes = canary_bytes(machine, config);
  const double dram = measure_canary(bytes, threads, config.features);
  const double core = measure_core_canary(threads, config.features);
  const double libc = measure_libc_canary(bytes, threads);
  return {std::move(at), seconds, dram, core, libc, measure_libc_core_canary(threads)};
}

json environment_json(const EnvironmentSample& start, const EnvironmentSample& end, std::uint64_t bytes, int threads,
                      const std::vector<CanaryCheckpoint>& checkpoints) {
  json env = {{"start", sample_json(start)}, {"end", sample_json(end)}};
  env["steal_fraction"] = nullptr;
  env["other_busy_fraction"] = nullptr;
  if (start.cpu && end.cpu && end.cpu->total > start.cpu->total) {
    const double total = static_cast<double>(end.cpu->total - start.cpu->total);
    env["steal_fraction"] = static_cast<double>(end.cpu->steal - start.cpu->steal) / total;
    const double busy = total - static_cast<double>(end.cpu->idle - start.cpu->idle);
    const double own = (end.own_cpu_seconds - start.own_cpu_seconds) * static_cast<double>(sysconf(_SC_CLK_TCK));
    // Not clamped: tick granularity can make it slightly negative on an idle machine.
    env["other_busy_fraction"] = (busy - own) / total;
  }
  auto drift = [](double a, double b) { return a > 0.0 && b > 0.0 ? json(std::fabs(b / a - 1.0)) : json(nullptr); };
  env["canary"] = {{"kernel", "triad"},
                   {"working_set_bytes", bytes},
                   {"threads", threads},
                   {"passes", kCanaryPasses},
                   {"start", start.canary_bytes_per_second},
                   {"end", end.canary_bytes_per_second},
                   {"drift", drift(start.canary_bytes_per_second, end.canary_bytes_per_second)}};
  if (!checkpoints.empty()) {
    json points = json::array();
    for (const CanaryCheckpoint& c : checkpoints) {
      points.push_back({{"at", c.at}, {"seconds", c.seconds}, {"bytes_per_second", c.bytes_per_second}});
    }
    env["canary"]["checkpoints"] = points;
  }
  if (start.core_canary_bytes_per_second > 0.0 || end.core_canary_bytes_per_second > 0.0) {
    env["core_canary"] = {{"kernel", "read"},
                          {"working_set_bytes", kCoreCanaryBytesPerThread * static_cast<std::uint64_t>(threads)},
                          {"threads", threads},
                          {"samples", kCoreCanarySamples},
                          {"start", start.core_canary_bytes_per_second},
                          {"end", end.core_canary_bytes_per_second},
                          {"drift", drift(start.core_canary_bytes_per_second, end.core_canary_bytes_per_second)}};
    json points = json::array();
    for (const CanaryCheckpoint& c : checkpoints) {
      if (c.core_bytes_per_second > 0.0) {
        points.push_back({{"at", c.at}, {"seconds", c.seconds}, {"bytes_per_second", c.core_bytes_per_second}});
      }
    }
    if (!points.empty()) env["core_canary"]["checkpoints"] = points;
  }
  // The canaries our code cannot move (issue 59): glibc's memcpy, the same shape.
  const auto libc_canary = [&](double CanaryCheckpoint::*at, double start_value, double end_value, std::uint64_t working_set,
                               const char* count, int counted) {
    json c = {{"kernel", "memcpy"},
              {"working_set_bytes", working_set},
              {"threads", threads},
              {count, counted},
              {"start", start_value},
              {"end", end_value},
              {"drift", drift(start_value, end_value)}};
    json points = json::array();
    for (const CanaryCheckpoint& p : checkpoints) {
      if (p.*at > 0.0) points.push_back({{"at", p.at}, {"seconds", p.seconds}, {"bytes_per_second", p.*at}});
    }
    if (!points.empty()) c["checkpoints"] = points;
    return c;
  };
  if (start.libc_canary_bytes_per_second > 0.0 || end.libc_canary_bytes_per_second > 0.0) {
    env["libc_canary"] = libc_canary(&CanaryCheckpoint::libc_bytes_per_second, start.libc_canary_bytes_per_second,
                                     end.libc_canary_bytes_per_second, 2 * libc_canary_slice_bytes(bytes, threads) * static_cast<std::uint64_t>(threads),
                                     "passes", kLibcCanaryPasses);
  }
  if (start.libc_core_canary_bytes_per_second > 0.0 || end.libc_core_canary_bytes_per_second > 0.0) {
    env["libc_core_canary"] = libc_canary(&CanaryCheckpoint::libc_core_bytes_per_second, start.libc_core_canary_bytes_per_second,
                                          end.libc_core_canary_bytes_per_second,
                                          kCoreCanaryBytesPerThread * static_cast<std::uint64_t>(threads), "samples",
                                          kLibcCoreCanarySamples);
  }
  env["clock_drift"] = drift(start.clock_hz, end.clock_hz);
  env["method"] = "steal and other processes' busy time: /proc/stat and getrusage over the run; canary: best of 8 DRAM triad passes (STREAM bytes) on 2 MiB pages where granted, at the start, between suites (checkpoints) and at the end; core canary: best of 8 samples of the read kernel over 128 KiB per thread (L2); libc_canary and libc_core_canary (what compare weighs the figures against): the same with glibc's memcpy (chosen by glibc from cpuid, never by our ISA dispatch; STREAM bytes, a copy counting twice): best of 8 passes over the DRAM canary's working set, best of 64 samples of 512 copies of 64 KiB per thread; clock: dependent add chain";
  return env;
}

}  // namespace roofline
