// The bandwidth suite's arrays (bench/targets/cpu/stream_arena.hpp, issue 46): a set shared by the kernels of one
// arity is re-filled only where the last kernel changed an input, and every kernel still validates after any order
// of switches (the interleaved repetitions of the spot sizes), on heap-sized and mapped arrays.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace roofline
