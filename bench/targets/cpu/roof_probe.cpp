// The roof-of-the-moment probe: see roof_probe.hpp.
#include "roof_probe.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "roofline/facts/pinning.hpp"
#include "roofline/harness/stream_probe.hpp"
#include "roofline/common/huge_pages.hpp"
#include "roofline/common/roof_probe.hpp"
#include "roofline/kernels/cpu/stream.hpp"

namespace roofline {
using nlohmann::json;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Elements of `bytes`, whole steps of the read kernel on every thread (no tail: blocks of whole lines).
std::size_t probe_elements(std::uint64_t bytes, int threads, const IsaFeatures& features) {
  const std::size_t step = stream_step_elements(StreamKernel::read, features) * static_cast<std::size_t>(threads);
  return std::max<std::size_t>(step, bytes / sizeof(double) / step * step);
}

}  // namespace

bool RoofProbe::reserve(int threads, std::uint64_t bytes) {
  // Shared by every thread count: the most elements any of them rounds `bytes` to (one thread's steps, the finest).
  const std::size_t n = probe_elements(bytes, shared_ ? 1 : threads, config_.features);
  Array& a = arrays_[key(threads)];
  if (a.n >= n) return true;
  a.buffer.reset();
  a.n = 0;
  a.checked_n = 0;
  std::uint64_t held = 0;
  for (const auto& [t, other] : arrays_) held += other.n * sizeof(double);
  if (config_.memory_budget_bytes > 0 && held + n * sizeof(double) > config_.memory_budget_bytes / 4) return false;
  pin_openmp_threads(threads, binding_plan(machine_, threads, config_.bind));
  a.buffer = allocate(n, PageSize::huge_2m);
  if (!a.buffer) return false;
  a.n = n;
  stream_init(StreamKernel::read, StreamArrays{a.buffer.get(), nullptr, nullptr, n}, threads,  // first touch
              shared_ ? StreamTouch::shared : StreamTouch::own_chunks);
  return true;
}

json RoofProbe::measure(int threads, std::uint64_t bytes) {
  const auto start = std::chrono::steady_clock::now();
  const std::size_t n = probe_elements(bytes, threads, config_.features);
  if (last_ && last_->threads == threads &&
      std::fabs(static_cast<double>(n) - static_cast<double>(last_->n)) <= kProbeReuseSize * static_cast<double>(last_->n) &&
      std::chrono::duration<double>(start - last_->end).count() <= kProbeReuseSeconds) {
    return last_->record;
  }
  if (!reserve(threads, bytes)) throw std::runtime_error(fmt::format("no memory for a {}-byte read probe", bytes));
  Array& array = arrays_.at(key(threads));
  const StreamArrays x{array.buffer.get(), nullptr, nullptr, n};
  pin_openmp_threads(threads, binding_plan(machine_, threads, config_.bind));
  const std::uint64_t pass_bytes = stream_bytes_per_pass(StreamKernel::read, n);
  const int passes = static_cast<int>(std::max<std::uint64_t>(1, (kProbeSampleBytes + pass_bytes - 1) / pass_bytes));
  const StreamProbeSampling sampling{.passes_per_sample = passes,
                                     .min_samples = kProbeMinSamples,
                                     .max_samples = kProbeMaxSamples,
                                     .min_seconds = kProbeMinSeconds,
                                     .arrays_checked = n <= array.checked_n};
  StreamProbeResult probe = probe_stream(StreamKernel::read, x, threads, sampling, config_.features, "read probe");
  array.checked_n = std::max(array.checked_n, n);  // probe_stream threw otherwise
  if (probe.samples.empty()) throw std::runtime_error("read probe: no sample took measurable time");
  const double took = seconds_since(start);
  seconds_ += took;
  RoofProbeRecord record;
  record.kernel = std::string(kRoofKernel);
  record.threads = threads;
  record.working_set_bytes = stream_working_set_bytes(StreamKernel::read, n);
  record.pages = n * sizeof(double) >= kHugePageThreshold ? "2M" : "heap";
  record.passes_per_sample = passes;
  record.samples = std::move(probe.samples);
  record.bytes_per_second = probe.best_bytes_per_second;
  record.seconds = took;
  json out = roof_probe_json(record);  // the one writer of a probe (roofline/common/roof_probe.hpp; the analysis reads it back)
  last_ = Last{threads, n, std::chrono::steady_clock::now(), out};
  return out;
}

}  // namespace roofline
