// Large buffers on the same pages as the DRAM roof they are judged against. The bandwidth suite's main sweep
// asks for 2 MiB transparent huge pages (bench/targets/cpu/suite_bandwidth.cpp, issue 24); with THP in "madvise" mode a
// plain aligned_alloc gets 4 KiB pages, which under nested paging read up to 2x slower. GEMV/GEMM operands
// and the LLM chain's memory roof therefore come from here, so that a DRAM-sized point runs on the pages its
// roof was measured on. Freed with std::free.
#pragma once

#include <cstddef>

namespace roofline {

// At least `bytes` (1 when 0), aligned to `alignment` (a power of two); from 4 MiB up, 2 MiB aligned and
// madvise(MADV_HUGEPAGE)d before anyone touches it (whether the kernel grants it is recorded by whoever
// measures, from /proc/self/smaps). nullptr when memory is short.
void* allocate_large(std::size_t bytes, std::size_t alignment = 64);

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
inline constexpr std::size_t kHugePageThreshold = 2 * kHugePageBytes;

}  // namespace roofline
