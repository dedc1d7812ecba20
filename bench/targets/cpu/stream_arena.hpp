// The arrays of the bandwidth suite's kernels (suite_bandwidth.cpp): allocated on the page size asked for,
// first-touched by the pinned team, kept alive across interleaved repetitions within a bound, with the pages they got
// recorded.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <vector>

#include "roofline/facts/machine.hpp"
#include "roofline/facts/memory.hpp"
#include "roofline/facts/pinning.hpp"
#include "roofline/common/huge_pages.hpp"
#include "roofline/harness/phase_clock.hpp"
#include "roofline/kernels/cpu/stream.hpp"

namespace roofline {

// Arrays of kHugePageThreshold and more (roofline/common/huge_pages.hpp) are aligned to a huge page and asked for
// transparent huge pages (fewer TLB misses in DRAM), or, for the 4 KiB-page runs, told not to use them.

// Frees either kind of array: mapped ones (mapped_bytes > 0) go back to the pool of mappings
// (roofline/common/huge_pages.hpp), heap ones to free.
struct BufferDeleter {
  std::size_t mapped_bytes = 0;
  std::size_t offset_bytes = 0;  // heap arrays: where the array starts past the allocation (kArrayStagger)
  void operator()(double* p) const {
    if (mapped_bytes > 0) give_mapping(p);
    else std::free(reinterpret_cast<char*>(p) - offset_bytes);
  }
};
using Buffer = std::unique_ptr<double, BufferDeleter>;

// Where the `index`-th array of a set starts within its 4 KiB page (heap arrays): fixed, and far apart. A store and a
// load whose addresses agree in their low 12 bits look dependent to the core (4K aliasing), so arrays placed by the
// heap, whose offsets in a page change with every process, made the L1 triad at 2 threads 340 or 540 GB/s by run
// (issue 59: one build, 7 runs of the gate profile). STREAM's OFFSET fixes the same thing by hand.
inline constexpr std::size_t kArrayStagger = 1088;  // 17 lines: array i starts i x 1088 bytes into a page

// Arrays under 4 MiB (cache-sized: no page size bounds them) come from the heap, page-aligned plus the array's
// stagger (kArrayStagger x `index`). Larger
// ones are mappings of the process's pool (roofline/common/huge_pages.hpp: kept after use, since first-touching fresh
// memory is most of a sweep's overhead on a guest whose host takes freed memory back), 2 MiB aligned (a huge page
// can back the first byte), and advised before their first touch: MADV_HUGEPAGE for the main sweep,
// MADV_NOHUGEPAGE for the 4 KiB-page runs. A mapping may be larger than asked for (a kept one that fits). (A
// StreamArena set of mapped arrays takes one mapping for all of them instead.)
Buffer allocate(std::size_t n, PageSize pages, int index = 0);

// The arrays of the bandwidth suite. Google Benchmark interleaves the repetitions of a batch of benchmarks (random
// interleaving), so a batch's sizes alternate: each set of arrays (kernel arity, elements, threads, pages) stays
// alive after use, up to `keep_bytes` in all (least recently used sets freed first; 0: one set at a time), so that
// a set is allocated and first-touched once per thread count instead of once per repetition (issue 46: allocation
// and first touch were most of the quick sweep's overhead). A freed set's mappings go back to the process's pool
// (roofline/common/huge_pages.hpp), which hands them to later sets that fit, the next thread count's included.
class StreamArena {
 public:
  // `touch_threads`: the widest team of the run (0: each set's own). On one NUMA node, where a page lies whoever
  // touches it first, fresh mapped arrays are first-touched by that team, pinned as it is measured, and the set's
  // own team pinned back after: the kernel's zeroing of fresh 2 MiB pages, most of a DRAM-sized set's set-up on a
  // guest (issue 60: 0.4-0.9 GB/s a thread), goes that many times faster for the 1-thread sweep.
  StreamArena(const MachineFacts& machine, BindPolicy bind, std::uint64_t keep_bytes = 0, int touch_threads = 0)
      : machine_(machine), bind_(bind), keep_bytes_(keep_bytes), touch_threads_(touch_threads) {}

  // Arrays for `kernel` at n elements on `pages`, initialized, first touched by the pinned team of `threads`.
  // Empty (n == 0) when memory could not be allocated. `capacity` (elements, at least n): mapped arrays are the first
  // n elements of a set of that many, shared by every size of one arity that asks for the same capacity (a batch's:
  // bandwidth_specs.cpp), so that a batch's DRAM sizes first-touch the memory of its largest once instead of each
  // their own (issue 60: fresh memory, at 0.5-1 GB/s on the guests we measure, was a third of the sweep's wall).
  // Heap (cache-sized) arrays, and every array on a machine of several NUMA nodes (where the team that first touched
  // a page decides where it lies, and a prefix's chunks are not the whole's), are sets of exactly n.
  StreamArrays get(StreamKernel kernel, std::size_t n, int threads, PageSize pages = PageSize::huge_2m,
                   std::size_t capacity = 0) {
    const PhaseClock::Scope setting_up = PhaseClock::open(phases_, Phase::setup);
    const int arity = stream_array_count(kernel);
    const std::size_t extent = set_elements(n, capacity);
    Set* set = find(arity, extent, threads, pages);
    if (set == nullptr) {
      set = allocate_set(arity, extent, threads, pages);
      if (set == nullptr) return {};
    }
    set->last_use = ++clock_;
    current_ = set;
    if (!set->initialized) {
      // Fresh arrays: all of each first touched by the team (the widest one where it may: see the constructor).
      const bool anywhere = touches_anywhere(*set);
      const int team = anywhere ? std::max(touch_threads_, threads) : threads;
      if (team != threads) pin_openmp_threads(team, pus_for(team));
      stream_init(kernel, view(*set, kernel, set->n), team, anywhere ? StreamTouch::shared : StreamTouch::own_chunks);
      if (team != threads) pin_openmp_threads(threads, pus_for(threads));
      set->initialized = true;
      for (int role = 0; role < 3; ++role) {
        if (const int i = buffer_of(kernel, role); i >= 0) set->held[i] = kInitial[role];
      }
    } else {
      restore_inputs(*set, kernel, threads);
    }
    // What the kernel leaves in its output after any number of passes over those inputs: the whole array's value when
    // it writes all of it (or the rest already holds that value), else no one value (an input there is refilled).
    if (const StreamOutput out = stream_output(kernel); out.role >= 0) {
      double& held = set->held[buffer_of(kernel, out.role)];
      held = n == set->n || held == out.value ? out.value : kUnknown;
    }
    const StreamArrays x = view(*set, kernel, n);
    if (!set->recorded) {
      record_pages(*set);
      set->recorded = true;
    }
    return x;
  }

  // Every team of this arena bound to `pus` instead of --bind's plan (a core kind's PU: bandwidth_kind_specs), from its
  // next set on.
  void bind_to(std::vector<int> pus) { pus_ = std::move(pus); }
  [[nodiscard]] const MachineFacts& machine() const { return machine_; }
  // The clock get() counts its set-up on (allocation, first touch, inputs put back), and the bodies their validations
  // (phase_clock.hpp: the runner's); nullptr: none (the plan's stand-in arena).
  void count_on(PhaseClock* phases) { phases_ = phases; }
  [[nodiscard]] PhaseClock* phases() const { return phases_; }

  // A validation failed on the arrays last asked for: what they hold is no longer known (all re-initialized next).
  void forget() {
    if (current_ != nullptr) current_->held = {kUnknown, kUnknown, kUnknown};
  }

  // Ends a batch of interleaved repetitions: its sets go, their mappings back to the pool, where the next batch's
  // larger sets grow from them (a sweep's sizes ascend: only the growth is touched fresh).
  void end_batch() {
    sets_.clear();
    current_ = nullptr;
  }

  // Ends a thread count: its sets go. Their mappings stay in the pool for the next thread count's sets on a machine
  // of one NUMA node (where the team that first touched a page does not decide where it lies); on more, the pool's
  // kept mappings are unmapped.
  void release() {
    sets_.clear();
    current_ = nullptr;
    if (machine_.numa_nodes > 1) release_kept_mappings();
  }

  // Whether get() gives n elements as the first of a set of `capacity` (mapped arrays, one NUMA node), not a set of
  // their own: the one rule, which the plan's estimate asks too.
  [[nodiscard]] bool carves(std::size_t n, std::size_t capacity) const {
    return capacity > n && n * sizeof(double) >= kHugePageThreshold && machine_.numa_nodes <= 1;
  }

  // The elements of each array of the set that get() gives n elements from: capacity where carved, else n.
  [[nodiscard]] std::size_t set_elements(std::size_t n, std::size_t capacity) const {
    return carves(n, capacity) ? capacity : n;
  }

  // What the mapped arrays of the set last asked for got, read once after their first touch; nullptr for heap arrays.
  [[nodiscard]] const PageRecord* pages() const {
    return current_ != nullptr && current_->record ? &*current_->record : nullptr;
  }

 private:
  struct Set {
    int arity = 0;
    std::size_t n = 0;
    int threads = 0;
    PageSize pages = PageSize::huge_2m;
    // Heap arrays (cache-sized) are one allocation each, mapped ones one mapping for the set: its arrays at whole
    // 2 MiB strides in it, so that a kept mapping serves the next set of any arity (issue 60: the spot sizes' sets
    // of one, two and three arrays at 190 MB, and the 4 KiB-page read and triad, no longer each need their own).
    Buffer buffers[3];
    Buffer block;
    std::size_t block_bytes = 0;  // the mapping's length (0: heap arrays)
    double* arrays[3] = {nullptr, nullptr, nullptr};
    std::optional<PageRecord> record;
    bool recorded = false;
    bool initialized = false;
    std::array<double, 3> held{kUnknown, kUnknown, kUnknown};  // each buffer's value (every element alike)
    std::uint64_t last_use = 0;
    [[nodiscard]] std::uint64_t bytes() const { return static_cast<std::uint64_t>(arity) * n * sizeof(double); }
  };

  // Every array of a kernel holds one value in all its elements: the initial ones (stream_init), and what a kernel
  // writes from them (all the STREAM kernels are idempotent: the same inputs give the same outputs however many
  // passes). Sets shared by the kernels of one arity (the spot sizes: copy and scale, add and triad, read and
  // write) therefore need only the inputs the last kernel changed put back, not every array (issue 46: re-filling
  // 128 MiB sets at each switch of the interleaved repetitions was a second of the quick sweep).
  static constexpr double kUnknown = -1.0;  // no kernel's value
  static constexpr std::array<double, 3> kInitial{kStreamInitA, kStreamInitB, kStreamInitC};
  struct StreamOutput {
    int role = -1;  // 0 a, 1 b, 2 c; -1: none (read)
    double value = 0.0;
  };
  static StreamOutput stream_output(StreamKernel kernel) {
    switch (kernel) {
      case StreamKernel::copy:
      case StreamKernel::copy_nt: return {2, kStreamInitA};
      case StreamKernel::scale: return {1, kStreamScalar * kStreamInitC};
      case StreamKernel::add: return {2, kStreamInitA + kStreamInitB};
      case StreamKernel::triad:
      case StreamKernel::triad_nt: return {0, kStreamInitB + kStreamScalar * kStreamInitC};
      case StreamKernel::write:
      case StreamKernel::write_nt: return {0, kStreamFillValue};
      case StreamKernel::read: return {};
    }
    return {};
  }
  // The buffer of a set that holds `role` for `kernel` (view()'s order), -1 when the kernel does not use it.
  static int buffer_of(StreamKernel kernel, int role) {
    const StreamArrayUse u = stream_kernel_uses(kernel);
    const bool used[3] = {u.a, u.b, u.c};
    if (!used[role]) return -1;
    int i = 0;
    for (int r = 0; r < role; ++r) i += used[r] ? 1 : 0;
    return i;
  }
  // Puts back the initial value of each array `kernel` reads that does not hold it, by the pinned team.
  static void restore_inputs(Set& set, StreamKernel kernel, int threads) {
    const int output = stream_output(kernel).role;
    for (int role = 0; role < 3; ++role) {
      const int i = buffer_of(kernel, role);
      if (i < 0 || role == output || set.held[i] == kInitial[role]) continue;
      stream_fill(set.arrays[i], set.n, kInitial[role], threads);
      set.held[i] = kInitial[role];
    }
  }

  // Whether any thread may first-touch any part of `set`: mapped arrays (DRAM-sized, where fresh pages cost) on one
  // NUMA node. Such a set is first-touched by the widest team, in blocks shared out (StreamTouch::shared); any other
  // by its own team, each thread its own chunk.
  [[nodiscard]] bool touches_anywhere(const Set& set) const {
    return set.block_bytes > 0 && machine_.numa_nodes <= 1;
  }

  Set* find(int arity, std::size_t n, int threads, PageSize pages) {
    for (const std::unique_ptr<Set>& s : sets_) {
      if (s->arity == arity && s->n == n && s->threads == threads && s->pages == pages) return s.get();
    }
    return nullptr;
  }

  // Frees least recently used sets until `need` more bytes fit in keep_bytes_ (all of them when keeping none).
  void make_room(std::uint64_t need) {
    const auto total = [this] {
      std::uint64_t t = 0;
      for (const std::unique_ptr<Set>& s : sets_) t += s->bytes();
      return t;
    };
    while (!sets_.empty() && (keep_bytes_ == 0 || total() + need > keep_bytes_)) {
      auto oldest = sets_.begin();
      for (auto it = sets_.begin(); it != sets_.end(); ++it) {
        if ((*it)->last_use < (*oldest)->last_use) oldest = it;
      }
      if (oldest->get() == current_) current_ = nullptr;
      sets_.erase(oldest);  // its mappings go back to the pool
    }
  }

  Set* allocate_set(int arity, std::size_t n, int threads, PageSize pages) {
    auto set = std::make_unique<Set>();
    set->arity = arity;
    set->n = n;
    set->threads = threads;
    set->pages = pages;
    make_room(set->bytes());
    pin_openmp_threads(threads, pus_for(threads));
    if (n * sizeof(double) >= kHugePageThreshold) {
      // One mapping, each array at a whole number of 2 MiB (each starts on a huge page, as its own mapping did).
      const std::size_t stride = huge_page_multiple(n * sizeof(double));
      void* p = take_mapping(stride * static_cast<std::size_t>(arity), pages, &set->block_bytes);
      if (p == nullptr) return nullptr;
      set->block = Buffer(static_cast<double*>(p), BufferDeleter{set->block_bytes});
      for (int i = 0; i < arity; ++i) {
        set->arrays[i] = reinterpret_cast<double*>(static_cast<char*>(p) + static_cast<std::size_t>(i) * stride);
      }
    } else {
      for (int i = 0; i < arity; ++i) {
        set->buffers[i] = allocate(n, pages, i);
        if (!set->buffers[i]) return nullptr;
        set->arrays[i] = set->buffers[i].get();
      }
    }
    sets_.push_back(std::move(set));
    return sets_.back().get();
  }

  // The first n elements of the buffers, as the arrays the kernel uses, in the order a, b, c.
  static StreamArrays view(const Set& set, StreamKernel kernel, std::size_t n) {
    const StreamArrayUse use = stream_kernel_uses(kernel);
    StreamArrays x;
    x.n = n;
    int next = 0;
    if (use.a) x.a = set.arrays[next++];
    if (use.b) x.b = set.arrays[next++];
    if (use.c) x.c = set.arrays[next++];
    return x;
  }

  // After the first touch of mapped arrays: the pages the kernel gave them.
  static void record_pages(Set& set) {
    if (set.block_bytes == 0) return;
    const auto begin = reinterpret_cast<std::uintptr_t>(set.block.get());
    const std::vector<AddressRange> ranges{{begin, begin + set.block_bytes}};
    set.record = page_record(ranges, set.pages);
  }

  std::vector<int> pus_for(int threads) const { return pus_.empty() ? binding_plan(machine_, threads, bind_) : pus_; }

  const MachineFacts& machine_;
  BindPolicy bind_;
  std::vector<int> pus_;  // bind_to's, else empty
  PhaseClock* phases_ = nullptr;
  std::uint64_t keep_bytes_ = 0;
  int touch_threads_ = 0;
  std::vector<std::unique_ptr<Set>> sets_;
  Set* current_ = nullptr;
  std::uint64_t clock_ = 0;
};


}  // namespace roofline
