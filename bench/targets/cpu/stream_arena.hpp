// The arrays of the bandwidth suite's kernel now being measured (suite_bandwidth.cpp): allocated on the page size
// asked for, first-touched by the pinned team, one set alive at a time, with the pages they got recorded.
#pragma once

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <vector>

#include "roofline/bench/machine.hpp"
#include "roofline/bench/memory.hpp"
#include "roofline/bench/pinning.hpp"
#include "roofline/common/huge_pages.hpp"
#include "roofline/kernels/stream.hpp"

namespace roofline {

// Arrays of kHugePageThreshold and more (common/huge_pages.hpp) are aligned to a huge page and asked for
// transparent huge pages (fewer TLB misses in DRAM), or, for the 4 KiB-page runs, told not to use them.

// Frees either kind of array: munmap for mapped ones (mapped_bytes > 0), free for heap ones.
struct BufferDeleter {
  std::size_t mapped_bytes = 0;
  void operator()(double* p) const {
    if (mapped_bytes > 0) munmap(p, mapped_bytes);
    else std::free(p);
  }
};
using Buffer = std::unique_ptr<double, BufferDeleter>;

// Arrays under 4 MiB (cache-sized: no page size bounds them) come from the heap, 64-byte aligned. Larger
// ones are mapped fresh, so that every page is first touched by the kernel's team and the mapping is theirs
// alone in /proc/self/smaps, 2 MiB aligned (a huge page can back the first byte), and advised before the
// first touch: MADV_HUGEPAGE for the main sweep, MADV_NOHUGEPAGE for the 4 KiB-page runs.
Buffer allocate(std::size_t n, PageSize pages);

// The arrays of the kernel now being measured. One set is alive at a time: asking for another size,
// arity or thread count frees the old one first, so peak memory is one working set. Google Benchmark runs
// a benchmark's repetitions back to back, so each set is allocated and first-touched once.
class StreamArena {
 public:
  StreamArena(const MachineFacts& machine, BindPolicy bind) : machine_(machine), bind_(bind) {}

  // Arrays for `kernel` at n elements on `pages`, initialized, first touched by the pinned team of `threads`.
  // Empty (n == 0) when memory could not be allocated.
  StreamArrays get(StreamKernel kernel, std::size_t n, int threads, PageSize pages = PageSize::huge_2m) {
    const int arity = stream_array_count(kernel);
    bool fresh = false;
    if (arity != arity_ || n != n_ || threads != threads_ || pages != pages_) {
      release();
      pin_openmp_threads(threads, binding_plan(machine_, threads, bind_));
      for (int i = 0; i < arity; ++i) {
        buffers_[i] = allocate(n, pages);
        if (!buffers_[i]) {
          release();
          return {};
        }
      }
      arity_ = arity;
      n_ = n;
      threads_ = threads;
      pages_ = pages;
      fresh = true;
    }
    // Same arrays, another kernel: put back the initial values the validator expects.
    StreamArrays x = view(kernel);
    if (!has_kernel_ || kernel != kernel_) {
      stream_init(kernel, x, threads);
      kernel_ = kernel;
      has_kernel_ = true;
    }
    if (fresh) record_pages();
    return x;
  }

  void release() {
    for (Buffer& b : buffers_) b.reset();
    arity_ = 0;
    n_ = 0;
    threads_ = 0;
    has_kernel_ = false;
    record_.reset();
  }

  // What the mapped arrays now held got, read once after their first touch; nullptr for heap arrays.
  [[nodiscard]] const PageRecord* pages() const { return record_ ? &*record_ : nullptr; }

 private:
  // Buffers go to the arrays the kernel uses, in the order a, b, c.
  StreamArrays view(StreamKernel kernel) const {
    const StreamArrayUse use = stream_kernel_uses(kernel);
    StreamArrays x;
    x.n = n_;
    int next = 0;
    if (use.a) x.a = buffers_[next++].get();
    if (use.b) x.b = buffers_[next++].get();
    if (use.c) x.c = buffers_[next++].get();
    return x;
  }

  // After the first touch of mapped arrays: the pages the kernel gave them.
  void record_pages() {
    if (buffers_[0].get_deleter().mapped_bytes == 0) return;
    std::vector<AddressRange> ranges;
    for (int i = 0; i < arity_; ++i) {
      const auto begin = reinterpret_cast<std::uintptr_t>(buffers_[i].get());
      ranges.push_back({begin, begin + buffers_[i].get_deleter().mapped_bytes});
    }
    record_ = page_record(ranges, pages_);
  }

  const MachineFacts& machine_;
  BindPolicy bind_;
  Buffer buffers_[3];
  PageSize pages_ = PageSize::huge_2m;
  std::optional<PageRecord> record_;
  int arity_ = 0;
  std::size_t n_ = 0;
  int threads_ = 0;
  StreamKernel kernel_ = StreamKernel::copy;
  bool has_kernel_ = false;
};


}  // namespace roofline
