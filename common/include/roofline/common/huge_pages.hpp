// Large buffers on the same pages as the DRAM roof they are judged against. The bandwidth suite's main sweep
// asks for 2 MiB transparent huge pages (bench/targets/cpu/suite_bandwidth.cpp, issue 24); with THP in "madvise" mode a
// plain aligned_alloc gets 4 KiB pages, which under nested paging read up to 2x slower. GEMV/GEMM operands
// and the LLM chain's memory roof therefore come from here, so that a DRAM-sized point runs on the pages its
// roof was measured on. Freed with free_large.
//
// From 4 MiB up they are mappings of a process-wide pool that keeps them after use (issue 46). A guest whose
// host takes back the memory it frees (virtio free page reporting, within 2-3 s of a munmap) first-touches fresh
// memory at about 0.5 GB/s, against 6-7 GB/s for pages it still holds: on the 2-vCPU guests we measure, allocating
// and first-touching fresh arrays was most of the quick profile's time outside the kernels. A buffer given back is
// therefore kept, up to the pool's limit, and handed to the next request of its page size that fits; a request
// larger than every kept mapping grows the largest one (mremap keeps its touched pages, 2 MiB aligned, so huge
// pages stay huge) instead of mapping all of it fresh. A kept mapping far larger than a request (32 MiB or more to
// spare) is split: the request gets a piece of it, the rest is kept for the next one, and pieces given back are joined
// again. Contents of a reused mapping are stale: every user fills what it reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

#include "roofline/common/vocabulary.hpp"  // PageSize

namespace roofline {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
inline constexpr std::size_t kHugePageThreshold = 2 * kHugePageBytes;

// `bytes` rounded up to whole 2 MiB: the stride of arrays that share one mapping (each starting on a huge page, as
// its own mapping would), so that the pool keeps one mapping of a whole working set for the next one of any arity.
constexpr std::size_t huge_page_multiple(std::size_t bytes) {
  return (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
}

// At least `bytes` (1 when 0), aligned to `alignment` (a power of two); from 4 MiB up, a pooled mapping, 2 MiB
// aligned and madvise(MADV_HUGEPAGE)d before anyone touches it (whether the kernel grants it is recorded by whoever
// measures, from /proc/self/smaps). nullptr when memory is short. Give it back with free_large.
void* allocate_large(std::size_t bytes, std::size_t alignment = 64);
// Gives back what allocate_large returned (nullptr: nothing): a pooled mapping to the pool, the rest to std::free.
void free_large(void* p);

// A pooled mapping of at least `bytes` (rounded up to 2 MiB; `*length` says how much), 2 MiB aligned and advised
// for `pages` (MADV_HUGEPAGE or MADV_NOHUGEPAGE). nullptr when memory is short. Give it back with give_mapping.
void* take_mapping(std::size_t bytes, PageSize pages, std::size_t* length);
void give_mapping(void* p);

// How many bytes the pool's mappings, in use and kept, may take together: kept ones are unmapped (the oldest first)
// to stay within it, a request in use never refused for it. 0, the default, keeps none: every mapping given back
// is unmapped at once. `roofline run` sets it to its memory budget.
void set_mapping_pool_limit(std::uint64_t bytes);
// Unmaps every mapping the pool keeps (a machine of several NUMA nodes, where the team that first touched a page
// decides where it lies, between thread counts).
void release_kept_mappings();

// What the pool did so far in this process: bytes mapped fresh (first touches to come), bytes handed out again.
struct MappingPoolCounts {
  std::uint64_t fresh_bytes = 0;
  std::uint64_t reused_bytes = 0;
  std::uint64_t kept_bytes = 0;  // given back and kept now
};
MappingPoolCounts mapping_pool_counts();

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
  void deallocate(T* p, std::size_t /*n*/) { free_large(p); }
  template <class U>
  bool operator==(const LargePageAllocator<U>& /*other*/) const { return true; }
};

// A deleter for std::unique_ptr of allocate_large's buffers.
struct LargeFree {
  void operator()(void* p) const { free_large(p); }
};

}  // namespace roofline
