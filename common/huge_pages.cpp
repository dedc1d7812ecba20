// Large buffers asked for transparent huge pages: see huge_pages.hpp.
#include "roofline/common/huge_pages.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>

namespace roofline {

void* allocate_large(std::size_t bytes, std::size_t alignment) {
  bytes = std::max<std::size_t>(bytes, 1);
  if (bytes < kHugePageThreshold) {
    return std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
  }
  const std::size_t size = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  void* p = std::aligned_alloc(std::max(alignment, kHugePageBytes), size);
  // Advice only: a kernel without THP refuses it, and the pages stay 4 KiB (the measuring side records it).
  if (p != nullptr) madvise(p, size, MADV_HUGEPAGE);
  return p;
}

}  // namespace roofline
