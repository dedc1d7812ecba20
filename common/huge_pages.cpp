// Large buffers asked for transparent huge pages, from a pool of mappings kept for reuse: see huge_pages.hpp.
// (A pool of our own: glibc's malloc maps requests above at most 32 MiB on their own and unmaps them on free,
// with no say over their alignment or page advice, and no allocator Debian packages keeps mappings per page size.)
#include "roofline/common/huge_pages.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

namespace roofline {

namespace {

struct Mapping {
  std::uintptr_t base = 0;
  std::size_t length = 0;
  PageSize pages = PageSize::huge_2m;
  bool in_use = false;
  std::uint64_t given_back = 0;  // the pool's clock when it was given back (oldest unmapped first)
  std::uint64_t origin = 0;      // the mmap it is part of: pieces of one split mapping share it (take_mapping)
};

// A kept mapping that holds a request with at least this much to spare is split: the request gets its own piece, the
// rest stays kept for the next one (issue 60: the roof probe's 148 MiB took the bandwidth suite's whole 258 MiB set,
// and the GEMM operands beside it were first-touched fresh). Pieces of one mapping given back are joined again.
constexpr std::size_t kSplitSpareBytes = 32ull << 20;

struct Pool {
  std::mutex mutex;
  std::vector<Mapping> mappings;
  std::uint64_t limit = 0;
  std::uint64_t clock = 0;
  std::uint64_t origins = 0;
  MappingPoolCounts counts;
};

Pool& pool() {
  static Pool p;
  return p;
}

std::size_t round_up(std::size_t bytes) {
  return (std::max<std::size_t>(bytes, 1) + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
}

// `length` bytes (a multiple of 2 MiB) mapped fresh at a 2 MiB boundary and advised for `pages`; 0 when refused.
std::uintptr_t map_fresh(std::size_t length, PageSize pages) {
  void* raw = mmap(nullptr, length + kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return 0;
  // One huge page more than needed, trimmed to the 2 MiB boundary inside it.
  const auto base = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (base + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  if (aligned > base) munmap(raw, aligned - base);
  const std::uintptr_t end = base + length + kHugePageBytes;
  if (aligned + length < end) munmap(reinterpret_cast<void*>(aligned + length), end - aligned - length);
  // Advice only: a kernel without THP refuses it, and the pages stay 4 KiB (the measuring side records it).
  madvise(reinterpret_cast<void*>(aligned), length, pages == PageSize::huge_2m ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  return aligned;
}

// Unmaps kept mappings, the oldest first, until the pool's mappings in use, those kept and `more` bytes about to
// be mapped fit in `limit` (all kept ones go when they cannot). Under the pool's lock.
void trim(Pool& p, std::uint64_t limit, std::uint64_t more = 0) {
  for (;;) {
    std::uint64_t kept = 0, in_use = 0;
    auto oldest = p.mappings.end();
    for (auto it = p.mappings.begin(); it != p.mappings.end(); ++it) {
      if (it->in_use) {
        in_use += it->length;
        continue;
      }
      kept += it->length;
      if (oldest == p.mappings.end() || it->given_back < oldest->given_back) oldest = it;
    }
    p.counts.kept_bytes = kept;
    if (oldest == p.mappings.end() || in_use + kept + more <= limit) return;
    munmap(reinterpret_cast<void*>(oldest->base), oldest->length);
    p.mappings.erase(oldest);
  }
}

// The kept mapping `m` grown to `length` bytes: its pages moved (not copied) to the start of a fresh mapping of
// that length, both 2 MiB aligned so that huge pages move whole. False (m unchanged) when refused.
bool grow(Pool& p, Mapping& m, std::size_t length) {
  const std::uintptr_t fresh = map_fresh(length, m.pages);
  if (fresh == 0) return false;
  void* moved = mremap(reinterpret_cast<void*>(m.base), m.length, m.length, MREMAP_MAYMOVE | MREMAP_FIXED,
                       reinterpret_cast<void*>(fresh));
  if (moved == MAP_FAILED) {
    munmap(reinterpret_cast<void*>(fresh), length);
    return false;
  }
  p.counts.fresh_bytes += length - m.length;
  p.counts.reused_bytes += m.length;
  m.base = fresh;
  m.length = length;
  m.origin = ++p.origins;  // a new mmap now: never joined with the pieces it came from
  return true;
}

// The kept mapping at `i` joined with the kept pieces of its own mmap right before and after it (mremap and munmap
// take a range of one mapping, never one across two). Under the pool's lock.
void join_pieces(Pool& p, std::size_t i) {
  for (bool joined = true; joined;) {
    joined = false;
    for (std::size_t j = 0; j < p.mappings.size() && !joined; ++j) {
      Mapping& a = p.mappings[i];
      const Mapping& b = p.mappings[j];
      if (j == i || b.in_use || b.origin != a.origin || b.pages != a.pages) continue;
      if (b.base == a.base + a.length) {
        a.length += b.length;
      } else if (a.base == b.base + b.length) {
        a.base = b.base;
        a.length += b.length;
      } else {
        continue;
      }
      a.given_back = std::max(a.given_back, b.given_back);
      p.mappings.erase(p.mappings.begin() + static_cast<std::ptrdiff_t>(j));
      if (j < i) --i;
      joined = true;
    }
  }
}

}  // namespace

void* take_mapping(std::size_t bytes, PageSize pages, std::size_t* length) {
  const std::size_t need = round_up(bytes);
  Pool& p = pool();
  const std::lock_guard<std::mutex> lock(p.mutex);
  // The smallest kept mapping that holds the request (split when it has kSplitSpareBytes to spare), else the largest
  // one to grow to it.
  Mapping* fits = nullptr;
  Mapping* largest = nullptr;
  for (Mapping& m : p.mappings) {
    if (m.in_use || m.pages != pages) continue;
    if (m.length >= need && (fits == nullptr || m.length < fits->length)) fits = &m;
    if (m.length < need && (largest == nullptr || m.length > largest->length)) largest = &m;
  }
  Mapping* out = fits;
  if (out != nullptr) {
    if (out->length - need >= kSplitSpareBytes) {
      const Mapping rest{out->base + need, out->length - need, out->pages, false, out->given_back, out->origin};
      out->length = need;
      const std::size_t at = static_cast<std::size_t>(out - p.mappings.data());
      p.mappings.push_back(rest);
      out = &p.mappings[at];
    }
    p.counts.reused_bytes += out->length;
  } else if (largest != nullptr && grow(p, *largest, need)) {
    out = largest;
  } else {
    trim(p, p.limit, need);  // room for it first: the kept ones are the pool's to give back, never the run's
    const std::uintptr_t fresh = map_fresh(need, pages);
    if (fresh == 0) return nullptr;
    p.counts.fresh_bytes += need;
    p.mappings.push_back({fresh, need, pages, false, 0, ++p.origins});
    out = &p.mappings.back();
  }
  out->in_use = true;
  const std::uintptr_t base = out->base;
  if (length != nullptr) *length = out->length;
  trim(p, p.limit);  // in use and kept within the limit, and the kept count up to date
  return reinterpret_cast<void*>(base);
}

void give_mapping(void* ptr) {
  if (ptr == nullptr) return;
  Pool& p = pool();
  const std::lock_guard<std::mutex> lock(p.mutex);
  for (std::size_t i = 0; i < p.mappings.size(); ++i) {
    Mapping& m = p.mappings[i];
    if (m.base == reinterpret_cast<std::uintptr_t>(ptr) && m.in_use) {
      m.in_use = false;
      m.given_back = ++p.clock;
      join_pieces(p, i);
      trim(p, p.limit);
      return;
    }
  }
  std::fputs("give_mapping: not a mapping the pool handed out\n", stderr);  // a broken invariant
  std::abort();
}

void* allocate_large(std::size_t bytes, std::size_t alignment) {
  bytes = std::max<std::size_t>(bytes, 1);
  if (bytes < kHugePageThreshold || alignment > kHugePageBytes) {
    return std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
  }
  return take_mapping(bytes, PageSize::huge_2m, nullptr);
}

void free_large(void* ptr) {
  if (ptr == nullptr) return;
  {
    Pool& p = pool();
    const std::lock_guard<std::mutex> lock(p.mutex);
    const bool pooled = std::any_of(p.mappings.begin(), p.mappings.end(), [&](const Mapping& m) {
      return m.base == reinterpret_cast<std::uintptr_t>(ptr) && m.in_use;
    });
    if (!pooled) {
      std::free(ptr);
      return;
    }
  }
  give_mapping(ptr);
}

void set_mapping_pool_limit(std::uint64_t bytes) {
  Pool& p = pool();
  const std::lock_guard<std::mutex> lock(p.mutex);
  p.limit = bytes;
  trim(p, p.limit);
}

void release_kept_mappings() {
  Pool& p = pool();
  const std::lock_guard<std::mutex> lock(p.mutex);
  trim(p, 0);
}

MappingPoolCounts mapping_pool_counts() {
  Pool& p = pool();
  const std::lock_guard<std::mutex> lock(p.mutex);
  return p.counts;
}

}  // namespace roofline
