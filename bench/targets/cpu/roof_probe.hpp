// The roof of the moment (issue 33): a short, validated read probe of the level a memory-bound GEMV/GEMM
// point's operands sit in, taken right before and right after the point's repetitions (the runner's
// SpecBracket), so that the point can be judged against the memory speed it actually had. A shared host
// moves a guest's DRAM between two states within minutes (1.4-1.8x); the run's roof, measured a minute
// earlier by the bandwidth suite, may belong to the other state.
//
// The probe is the roof's own kernel (read, kRoofKernel), on the same thread count and binding as the
// point, over a working set the size of the point's operands, on arrays mapped and advised like the
// operands' (2 MiB transparent huge pages from 4 MiB up, as GemmBuffers and the bandwidth sweep) and first
// touched by the point's pinned team. Its figure is the best of its samples, as a ceiling is the best
// repetition; every sample is kept so that the analysis can say how noisy the probe itself was.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <map>

#include <nlohmann/json.hpp>

#include "roofline/facts/machine.hpp"
#include "roofline/harness/run_config.hpp"
#include "stream_arena.hpp"

namespace roofline {

// A probe's sampling: at least kProbeMinSamples samples and kProbeMinSeconds in all (at most
// kProbeMaxSamples), each sample at least kProbeSampleBytes read (several passes over a cache-sized set).
inline constexpr int kProbeMinSamples = 3;
inline constexpr int kProbeMaxSamples = 8;
inline constexpr double kProbeMinSeconds = 0.010;
inline constexpr std::uint64_t kProbeSampleBytes = 64ull << 20;
// When a probe is the last one again (RoofProbe::measure): asked within this long of its end, for elements within this
// fraction of its own.
inline constexpr double kProbeReuseSeconds = 0.05;
inline constexpr double kProbeReuseSize = 0.02;

class RoofProbe {
 public:
  RoofProbe(const MachineFacts& machine, const RunConfig& config)
      : machine_(machine), config_(config), shared_(machine.numa_nodes <= 1) {}

  // Maps and first-touches the probe's array for `threads` (at least `bytes`), outside any timing; the
  // array is kept for later probes, grown when a larger one is asked for. On a machine of one NUMA node, where the
  // team that first touches a page does not decide where it lies, every thread count reads one array (touched by the
  // team that reserves it, its 2 MiB blocks spread over the team: StreamTouch::shared), so reserve it first with the
  // widest team and the largest size (issue 60: a second array of a DRAM-sized probe was about 0.2 s of fresh pages);
  // on several nodes, one array per thread count, first-touched in the kernel's own split. False when the memory
  // could not be had (or the memory budget does not allow it): no probe then.
  bool reserve(int threads, std::uint64_t bytes);

  // One probe of `bytes` (rounded down to whole steps of the kernel per thread) on `threads` pinned
  // threads: {"kernel", "threads", "working_set_bytes", "pages", "passes_per_sample", "samples"
  // (bytes_per_second of each), "bytes_per_second" (the best), "seconds"}. Throws std::runtime_error when
  // the read's sum is wrong or the array cannot be had.
  // A probe asked for right after the last one ended (within kProbeReuseSeconds), on the same threads and within
  // kProbeReuseSize of its elements, is that one: the runner brackets the points of a group one after another, so a
  // point's "before" would measure the moment its predecessor's "after" just measured (issue 60).
  nlohmann::json measure(int threads, std::uint64_t bytes);

  // Wall time spent in measure() so far (the probes' cost, stated in the suite's context).
  [[nodiscard]] double seconds() const { return seconds_; }

 private:
  struct Array {
    Buffer buffer;
    std::size_t n = 0;
    std::size_t checked_n = 0;  // elements checked since stream_init: a probe of no more checks the read's sum alone
  };
  // The array `threads` reads: the one array on one NUMA node (key 0), else its own.
  [[nodiscard]] int key(int threads) const { return shared_ ? 0 : threads; }
  const MachineFacts& machine_;
  const RunConfig& config_;
  bool shared_;
  std::map<int, Array> arrays_;  // by key(threads)
  double seconds_ = 0.0;
  struct Last {
    int threads = 0;
    std::size_t n = 0;
    std::chrono::steady_clock::time_point end;
    nlohmann::json record;
  };
  std::optional<Last> last_;
};

}  // namespace roofline
