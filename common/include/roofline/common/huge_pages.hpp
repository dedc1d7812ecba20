// Large buffers on the same pages as the DRAM roof they are judged against. The bandwidth suite's main sweep
// asks for 2 MiB transparent huge pages (bench/targets/cpu/suite_bandwidth.cpp, issue 24); with THP in "madvise" mode a
// plain aligned_alloc gets 4 KiB pages, which under nested paging read up to 2x slower. GEMV/GEMM operands
// and the LLM chain's memory roof therefore come from here, so that a DRAM-sized point runs on the pages its
// roof was measured on. Freed with std::free.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>

namespace roofline {

// At least `bytes` (1 when 0), aligned to `alignment` (a power of two); from 4 MiB up, 2 MiB aligned and
// madvise(MADV_HUGEPAGE)d before anyone touches it (whether the kernel grants it is recorded by whoever
// measures, from /proc/self/smaps). nullptr when memory is short.
void* allocate_large(std::size_t bytes, std::size_t alignment = 64);

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
inline constexpr std::size_t kHugePageThreshold = 2 * kHugePageBytes;

// allocate_large as a standard allocator: a std::vector of DRAM-sized weights (the dequant-dot GEMVs' block-format
// matrices, issue 48) on the pages of the roof it is judged against.
template <class T>
struct LargePageAllocator {
  using value_type = T;
  LargePageAllocator() = default;
  template <class U>
  explicit LargePageAllocator(const LargePageAllocator<U>& /*other*/) {}
  T* allocate(std::size_t n) {
    void* p = allocate_large(n * sizeof(T), alignof(T) < 64 ? 64 : alignof(T));
    if (p == nullptr) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t /*n*/) { std::free(p); }
  template <class U>
  bool operator==(const LargePageAllocator<U>& /*other*/) const { return true; }
};

}  // namespace roofline
