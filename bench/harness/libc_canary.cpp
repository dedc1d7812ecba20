// The environment guard's canaries our code cannot move (issue 59; environment.hpp): glibc's memcpy over a DRAM-sized
// working set and over 128 KiB per thread (L2), timed, validated after timing.
//
// Why these cannot move with our code: the copy is the C library's own memcpy, the variant glibc's ifunc resolver
// picked from cpuid when the program was loaded (GLIBC_TUNABLES aside), never our ISA dispatch (`--max-isa`, the
// IsaFeatures every kernel of ours is chosen by: no function here takes them), nor our kernels, nor our compile
// flags: it is called through a pointer the compiler cannot see through, so no -m flag can expand it inline as a
// builtin, and the loop around it is one call per pass. This file is compiled with the harness's flags, which name
// no ISA (the ISA flags are on kernels/cpu's own translation units only). The old canaries (our triad and read
// kernels) stay, but a slower read kernel or a narrower --max-isa moved them with the figures they spoke for: a
// real 74% fp32 regression read "unclear" (issue 59).
#include "roofline/harness/environment.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "roofline/common/huge_pages.hpp"

namespace roofline {
namespace {

using CopyFunction = void* (*)(void*, const void*, std::size_t);
// The C library's memcpy as a call the optimizer cannot replace (a volatile pointer: read at every sample).
CopyFunction volatile libc_memcpy = &::memcpy;

// One thread's source and destination.
struct CopySlice {
  char* source = nullptr;
  char* destination = nullptr;
};

// `passes` copies of every thread's slice (`bytes` each) on `threads` threads, one OpenMP region.
void copy_passes(const std::vector<CopySlice>& slices, std::size_t bytes, int threads, int passes) {
  const CopyFunction copy = libc_memcpy;
#pragma omp parallel num_threads(threads)
  {
    const CopySlice& s = slices[static_cast<std::size_t>(omp_get_thread_num())];
    for (int p = 0; p < passes; ++p) copy(s.destination, s.source, bytes);
  }
}

// The best of `samples` timed samples of `passes` copies each, in STREAM's bytes (a copy reads and writes each byte:
// 2 x bytes per slice and pass), B/s; then every destination compared with its source (throws on a difference).
double best_copy_rate(const std::vector<CopySlice>& slices, std::size_t bytes, int threads, int passes, int samples,
                      int warmup_passes, const char* what) {
  using Clock = std::chrono::steady_clock;
  if (warmup_passes > 0) copy_passes(slices, bytes, threads, warmup_passes);
  const double sample_bytes = 2.0 * static_cast<double>(bytes) * threads * passes;
  double best = 0.0;
  for (int i = 0; i < samples; ++i) {
    const auto t0 = Clock::now();
    copy_passes(slices, bytes, threads, passes);
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (s > 0.0) best = std::max(best, sample_bytes / s);
  }
  for (const CopySlice& s : slices) {
    if (std::memcmp(s.source, s.destination, bytes) != 0) throw std::runtime_error(std::string(what) + ": memcpy's copy differs from its source");
  }
  return best;
}

// Each thread's source filled with its own pattern and its destination cleared, by the thread that copies them
// (first touch).
void first_touch(const std::vector<CopySlice>& slices, std::size_t bytes, int threads) {
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const CopySlice& s = slices[static_cast<std::size_t>(t)];
    std::memset(s.source, 0x5a ^ (t & 0xff), bytes);
    std::memset(s.destination, 0, bytes);
  }
}

}  // namespace

std::uint64_t libc_canary_slice_bytes(std::uint64_t bytes, int threads) {
  return std::max<std::uint64_t>(64, bytes / 2 / static_cast<std::uint64_t>(std::max(1, threads)) / 64 * 64);
}

double measure_libc_canary(std::uint64_t bytes, int threads) {
  // Half the working set read, half written, each thread its own contiguous part.
  const std::size_t slice = libc_canary_slice_bytes(bytes, threads);
  const std::size_t half = slice * static_cast<std::size_t>(threads);
  // On 2 MiB pages where granted, as the triad canary (huge_pages.hpp), and like it in one mapping: the source at its
  // start, the destination a whole number of 2 MiB in (each on a huge page, as its own mapping was).
  const std::size_t stride = huge_page_multiple(half);
  std::unique_ptr<char, LargeFree> block(static_cast<char*>(allocate_large(2 * stride)));
  if (!block) return 0.0;  // no memory for it now: no canary, said by a 0
  char* const source = block.get();
  char* const destination = block.get() + stride;
  std::vector<CopySlice> slices;
  for (int t = 0; t < threads; ++t) {
    const std::size_t at = slice * static_cast<std::size_t>(t);
    slices.push_back({source + at, destination + at});
  }
  first_touch(slices, slice, threads);
  return best_copy_rate(slices, slice, threads, 1, kLibcCanaryPasses, 0, "environment libc canary");
}

double measure_libc_core_canary(int threads) {
  // 64 KiB read and 64 KiB written per thread: 128 KiB, where the read kernel's core canary sits (L2).
  const std::size_t slice = kCoreCanaryBytesPerThread / 2;
  struct FreeDeleter {
    void operator()(char* p) const { std::free(p); }
  };
  std::vector<std::unique_ptr<char, FreeDeleter>> buffers;
  std::vector<CopySlice> slices;
  for (int t = 0; t < threads; ++t) {
    buffers.emplace_back(static_cast<char*>(std::aligned_alloc(64, 2 * slice)));
    if (!buffers.back()) return 0.0;
    slices.push_back({buffers.back().get(), buffers.back().get() + slice});
  }
  first_touch(slices, slice, threads);
  return best_copy_rate(slices, slice, threads, kLibcCoreCanaryPasses, kLibcCoreCanarySamples,
                        4 * kLibcCoreCanaryPasses, "environment libc core canary");
}

}  // namespace roofline
