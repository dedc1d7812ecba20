// The environment guard: what a run's machine was doing while it measured, recorded in the results
// context ("environment") so that compare can call a run disturbed instead of blaming the code. At the
// start and the end of a run: CPU steal and busy time (/proc/stat), load (/proc/loadavg), the measured
// clock (the dependent add chain), the cpufreq governor and turbo state where Linux shows them, a short
// canary, the DRAM triad (best of a few passes over a working set beyond the caches), and a core canary, the
// read kernel in L2 (128 KiB per thread): what the cores' own load throughput was. A shared host whose other
// guests load the SMT siblings of our vCPUs slows L1 and L2 bandwidth by a third while the add-chain clock and
// steal time say nothing (a Zen 5 guest's A/A pair: L1 read 410 -> 290 GB/s, every level below DRAM alike).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/facts/machine.hpp"
#include "roofline/harness/run_config.hpp"

namespace roofline {

// The aggregate "cpu" line of /proc/stat, in clock ticks.
struct CpuTimes {
  std::uint64_t total = 0;  // user + nice + system + idle + iowait + irq + softirq + steal
  std::uint64_t steal = 0;
  std::uint64_t idle = 0;   // idle + iowait
};
// Parsers, pure for testing: nullopt when the text has no such line or numbers.
std::optional<CpuTimes> parse_proc_stat(std::string_view text);
std::optional<std::array<double, 3>> parse_loadavg(std::string_view text);

struct EnvironmentSample {
  std::optional<CpuTimes> cpu;
  std::optional<std::array<double, 3>> load;
  double own_cpu_seconds = 0.0;  // this process's user + system time (getrusage)
  double clock_hz = 0.0;
  double canary_bytes_per_second = 0.0;
  double core_canary_bytes_per_second = 0.0;  // 0: not measured
  double libc_canary_bytes_per_second = 0.0;       // glibc's memcpy, DRAM (measure_libc_canary); 0: not measured
  double libc_core_canary_bytes_per_second = 0.0;  // glibc's memcpy, L2 (measure_libc_core_canary); 0: not measured
  std::string governor;        // empty when Linux shows none (VMs)
  std::optional<bool> turbo;   // intel_pstate no_turbo or cpufreq boost, when present
};

// The canary's working set: eight times the largest cache, between 256 MiB and 1 GiB, at most half the
// memory budget.
std::uint64_t canary_bytes(const MachineFacts& machine, const RunConfig& config);

// The core clock on `threads` OpenMP threads (Hz): the best of 5 timed dependent integer-add chains of 6.4 M
// cycles each (milliseconds), validated. Also the clock of an OpenCL CPU device (PoCL runs on these cores).
double measure_clock_hz(int threads);

// The core canary: the read kernel over 128 KiB per thread (past every x86 L1D, within every L2 since 2008) on
// `threads` threads, the best of 8 samples of about half a millisecond; validated (throws std::runtime_error on a
// wrong sum). B/s. It read 16 KiB (L1) until issue 46: A/A pairs on a Zen 5 guest then had every L2 figure 22%
// apart between runs (1-thread L2 read 139 vs 108 GB/s) with L1 read and that canary unchanged; a host loading our
// vCPUs' SMT siblings slows L2 as it slows L1, so the L2 canary sees both.
inline constexpr std::uint64_t kCoreCanaryBytesPerThread = 128 * 1024;
double measure_core_canary(int threads, const IsaFeatures& features);

// The canaries our code cannot move (issue 59, libc_canary.cpp): glibc's memcpy, the variant glibc chose from cpuid,
// called once per pass, on `threads` threads (pinned by the caller), each copying its own part; STREAM's bytes (a
// copy counts its bytes twice), the best sample, validated after timing (throws std::runtime_error on a wrong copy).
// No IsaFeatures: neither our kernels, nor our flags, nor --max-isa reach them, so a change of ours that slows the
// figures cannot slow the canary that speaks for their environment. 0 when there was no memory for them.
// DRAM: `bytes` (canary_bytes) in all, half read and half written, on 2 MiB pages where granted; the best of
// kLibcCanaryPasses passes.
inline constexpr int kLibcCanaryPasses = 8;
// The part each thread copies: half of `bytes` over the threads, in whole cache lines (at least one).
std::uint64_t libc_canary_slice_bytes(std::uint64_t bytes, int threads);
double measure_libc_canary(std::uint64_t bytes, int threads);
// Core: kCoreCanaryBytesPerThread per thread (64 KiB copied into 64 KiB: L2), the best of kLibcCoreCanarySamples
// samples of kLibcCoreCanaryPasses copies each (a fraction of a millisecond each), after 4 samples' worth of copies
// untimed: on a shared 2-vCPU guest, 8 samples after a short warm-up had its best-of 117-223 GB/s over 15 takes
// (the first cold), 64 samples after 2048 copies 202-229 GB/s. About 20 ms in all.
inline constexpr int kLibcCoreCanarySamples = 64;
inline constexpr int kLibcCoreCanaryPasses = 512;
double measure_libc_core_canary(int threads);

// The DRAM canary alone, between two suites (a checkpoint): `at` names the suite that follows, `seconds` is
// when it was taken from the run's start. A shared host flips its memory state within a run and back; the
// canary at the run's two ends alone misses that (a Zen 5 guest: 2-thread DRAM read 70 vs 56 GB/s between two
// runs whose canaries read 40 GB/s at both ends).
struct CanaryCheckpoint {
  std::string at;
  double seconds = 0.0;
  double bytes_per_second = 0.0;  // 0: no memory for it then
  double core_bytes_per_second = 0.0;  // the core canary beside it (L2 read); 0: not measured
  double libc_bytes_per_second = 0.0;       // the libc DRAM canary beside it; 0: not measured
  double libc_core_bytes_per_second = 0.0;  // the libc core canary beside it; 0: not measured
};
// All four canaries (DRAM and core; ours and the libc ones) on `config.max_threads()` pinned threads; validated like the start and end ones.
CanaryCheckpoint measure_canary_checkpoint(const MachineFacts& machine, const RunConfig& config, std::string at,
                                           double seconds);

// Takes a sample on `config.max_threads()` pinned threads. The canary validates its arrays and throws
// std::runtime_error on a wrong result (a broken kernel must not pass as a quiet environment).
EnvironmentSample sample_environment(const MachineFacts& machine, const RunConfig& config);

// context.environment: start, end, steal over the run, the CPU time other processes of this OS took over
// the run (other_busy_fraction: busy ticks not ours, of all ticks), the canary's start/end/drift, clock
// drift.
// The libc canaries go to libc_canary and libc_core_canary, the same shape as canary and core_canary with the
// kernel "memcpy" (what the stored-baseline gate weighs the figures against, compare_gate.hpp).
// The checkpoints, when any, go to each canary's checkpoints in the order taken.
nlohmann::json environment_json(const EnvironmentSample& start, const EnvironmentSample& end, std::uint64_t canary_bytes,
                                int threads, const std::vector<CanaryCheckpoint>& checkpoints = {});

}  // namespace roofline
