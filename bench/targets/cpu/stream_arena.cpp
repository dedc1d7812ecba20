// Allocating the bandwidth suite's arrays: see stream_arena.hpp.
#include "stream_arena.hpp"

namespace roofline {

Buffer allocate(std::size_t n, PageSize pages, int index) {
  const std::size_t bytes = n * sizeof(double);
  if (bytes < kHugePageThreshold) {
    const std::size_t offset = kArrayStagger * static_cast<std::size_t>(index);
    char* base = static_cast<char*>(std::aligned_alloc(4096, (bytes + offset + 4095) / 4096 * 4096));
    if (base == nullptr) return nullptr;
    return Buffer(reinterpret_cast<double*>(base + offset), BufferDeleter{0, offset});
  }
  std::size_t length = 0;
  void* p = take_mapping(bytes, pages, &length);
  if (p == nullptr) return nullptr;
  return Buffer(static_cast<double*>(p), BufferDeleter{length});
}

}  // namespace roofline
