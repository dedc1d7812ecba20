// Allocating the bandwidth suite's arrays: see stream_arena.hpp.
#include "stream_arena.hpp"

#include <sys/mman.h>

namespace roofline {

Buffer allocate(std::size_t n, PageSize pages) {
  const std::size_t bytes = n * sizeof(double);
  if (bytes < kHugePageThreshold) return Buffer(static_cast<double*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64)));
  const std::size_t length = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  void* raw = mmap(nullptr, length + kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  // One huge page more than needed, trimmed to the 2 MiB boundary inside it.
  const auto base = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (base + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  if (aligned > base) munmap(raw, aligned - base);
  if (aligned + length < base + length + kHugePageBytes) {
    munmap(reinterpret_cast<void*>(aligned + length), base + length + kHugePageBytes - aligned - length);
  }
  void* p = reinterpret_cast<void*>(aligned);
  madvise(p, length, pages == PageSize::huge_2m ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  return Buffer(static_cast<double*>(p), BufferDeleter{length});
}

}  // namespace roofline
