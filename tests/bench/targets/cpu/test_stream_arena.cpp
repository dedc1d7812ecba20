// The bandwidth suite's arrays (bench/targets/cpu/stream_arena.hpp, issue 46): a set shared by the kernels of one
// arity is re-filled only where the last kernel changed an input, and every kernel still validates after any order
// of switches (the interleaved repetitions of the spot sizes), on heap-sized and mapped arrays; sizes of one batch
// carved from the largest's arrays (issue 60) validate after any order of sizes and kernels, and share its memory.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "stream_arena.hpp"

namespace roofline {
namespace {

// Runs `kernels` in order on one arena at n elements, each asking for its arrays as a benchmark body does, and
// validates each after its passes.
void run_sequence(const std::vector<StreamKernel>& kernels, std::size_t n) {
  MachineFacts machine;
  machine.numa_nodes = 1;
  StreamArena arena(machine, BindPolicy::none, 1ull << 30);
  const IsaFeatures features{};
  for (const StreamKernel k : kernels) {
    const StreamArrays x = arena.get(k, n, 1);
    ASSERT_EQ(x.n, n);
    const double sum = run_stream_kernel(k, x, 1, 3, features);
    const StreamCheck check = validate_stream(k, x, sum, 1);
    EXPECT_TRUE(check.ok) << check.message;
  }
}

TEST(StreamArena, EveryKernelValidatesAfterAnyOtherOnASharedSet) {
  using K = StreamKernel;
  // Every ordered pair of kernels of one arity, twice over, on arrays under and over the huge-page threshold.
  const std::vector<std::vector<K>> by_arity = {{K::read, K::write, K::write_nt},
                                                {K::copy, K::scale, K::copy_nt},
                                                {K::add, K::triad, K::triad_nt}};
  for (const std::size_t n : {std::size_t{4096}, std::size_t{(6u << 20) / sizeof(double)}}) {
    for (const std::vector<K>& group : by_arity) {
      std::vector<K> sequence;
      for (const K a : group) {
        for (const K b : group) {
          sequence.push_back(a);
          sequence.push_back(b);
        }
      }
      sequence.insert(sequence.end(), sequence.begin(), sequence.end());
      run_sequence(sequence, n);
    }
  }
}

TEST(StreamArena, AFailedValidationForgetsWhatTheArraysHold) {
  MachineFacts machine;
  machine.numa_nodes = 1;
  StreamArena arena(machine, BindPolicy::none, 1ull << 30);
  const IsaFeatures features{};
  StreamArrays x = arena.get(StreamKernel::triad, 1024, 1);
  x.b[7] = -1.0;  // a broken kernel's doing
  run_stream_kernel(StreamKernel::triad, x, 1, 1, features);
  EXPECT_FALSE(validate_stream(StreamKernel::triad, x, 0.0, 1).ok);
  arena.forget();
  // add reads a and b: both put back, so it validates although triad left a wrong b.
  x = arena.get(StreamKernel::add, 1024, 1);
  const double sum = run_stream_kernel(StreamKernel::add, x, 1, 1, features);
  EXPECT_TRUE(validate_stream(StreamKernel::add, x, sum, 1).ok);
}

TEST(StreamArena, SizesOfOneCapacityShareTheLargestsArraysAndEveryOneValidates) {
  using K = StreamKernel;
  MachineFacts machine;
  machine.numa_nodes = 1;
  StreamArena arena(machine, BindPolicy::none, 1ull << 30);
  const IsaFeatures features{};
  const std::size_t small = (5u << 20) / sizeof(double);  // mapped (4 MiB and more), carved
  const std::size_t large = (9u << 20) / sizeof(double);
  const std::size_t heap = 4096;  // cache-sized: a set of its own whatever the capacity
  // Interleaved as a batch's repetitions are: every kernel of each arity at both sizes, in an order that makes a
  // smaller size write an output that a larger one then reads as an input (add then triad), and back.
  const std::vector<std::vector<K>> by_arity = {{K::read, K::write, K::write_nt},
                                                {K::copy, K::scale, K::copy_nt},
                                                {K::add, K::triad, K::triad_nt}};
  for (const std::vector<K>& group : by_arity) {
    for (int round = 0; round < 2; ++round) {
      for (const K a : group) {
        for (const K b : group) {
          for (const auto& [k, n] : {std::pair{a, small}, std::pair{b, large}, std::pair{a, heap}, std::pair{b, small}}) {
            const StreamArrays x = arena.get(k, n, 1, PageSize::huge_2m, large);
            ASSERT_EQ(x.n, n);
            const double sum = run_stream_kernel(k, x, 1, 2, features);
            const StreamCheck check = validate_stream(k, x, sum, 1);
            EXPECT_TRUE(check.ok) << stream_kernel_info(k).name << " at " << n << ": " << check.message;
          }
        }
      }
    }
  }
  // The small size's arrays are the first elements of the large size's.
  const StreamArrays s = arena.get(K::triad, small, 1, PageSize::huge_2m, large);
  const StreamArrays l = arena.get(K::triad, large, 1, PageSize::huge_2m, large);
  EXPECT_EQ(s.a, l.a);
  EXPECT_EQ(s.b, l.b);
  EXPECT_EQ(s.c, l.c);
  // Without a capacity (or on several NUMA nodes) every size has its own.
  const StreamArrays own = arena.get(K::triad, small, 1);
  EXPECT_NE(own.a, l.a);
  MachineFacts numa = machine;
  numa.numa_nodes = 2;
  StreamArena two(numa, BindPolicy::none, 1ull << 30);
  EXPECT_NE(two.get(K::read, small, 1, PageSize::huge_2m, large).a, two.get(K::read, large, 1, PageSize::huge_2m, large).a);
}

TEST(StreamArena, AMappedSetIsOneMappingThatTheNextSetOfAnyArityTakes) {
  // issue 60: a set's mapped arrays lie in one mapping at whole 2 MiB strides, so the pool hands the mapping of the
  // last batch's set (here triad's three arrays) to the next batch's set of another arity (read's one) whole, with no
  // fresh memory.
  set_mapping_pool_limit(1ull << 30);
  MachineFacts machine;
  machine.numa_nodes = 1;
  StreamArena arena(machine, BindPolicy::none, 1ull << 30, 2);
  const IsaFeatures features{};
  const std::size_t n = (5u << 20) / sizeof(double);  // 5 MiB an array: mapped
  const StreamArrays t = arena.get(StreamKernel::triad, n, 1);
  const auto stride = static_cast<std::ptrdiff_t>(huge_page_multiple(n * sizeof(double)) / sizeof(double));
  EXPECT_EQ(t.b - t.a, stride);
  EXPECT_EQ(t.c - t.b, stride);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(t.a) % kHugePageBytes, 0u);
  double sum = run_stream_kernel(StreamKernel::triad, t, 1, 2, features);
  EXPECT_TRUE(validate_stream(StreamKernel::triad, t, sum, 1).ok);
  arena.end_batch();
  const std::uint64_t fresh = mapping_pool_counts().fresh_bytes;
  const StreamArrays r = arena.get(StreamKernel::read, 3 * n, 1);  // the three arrays' bytes as one
  EXPECT_EQ(mapping_pool_counts().fresh_bytes, fresh);
  EXPECT_EQ(r.a, t.a);
  sum = run_stream_kernel(StreamKernel::read, r, 1, 2, features);
  EXPECT_TRUE(validate_stream(StreamKernel::read, r, sum, 1).ok);
  arena.release();
  set_mapping_pool_limit(0);
}

}  // namespace
}  // namespace roofline
