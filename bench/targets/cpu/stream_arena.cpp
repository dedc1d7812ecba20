// Allocating the bandwidth suite's arrays: see stream_arena.hpp.
#include "stream_arena.hpp"

namespace roofline {

Buffer allocate(std::size_t n, PageSize pages) {
  const std::size_t bytes = n * sizeof(double);
  if (bytes < kHugePageThreshold) return Buffer(static_cast<double*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64)));
  std::size_t length = 0;
  void* p = take_mapping(bytes, pages, &length);
  if (p == nullptr) return nullptr;
  return Buffer(static_cast<double*>(p), BufferDeleter{length});
}

}  // namespace roofline
