// STREAM kernels: each kernel's result and byte count on small arrays, at every ISA level this CPU has,
// on 1 and 2 threads; the validator catching a corrupted array; the static partition.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "host_features.hpp"
#include "roofline/kernels/cpu/stream.hpp"

namespace roofline {
namespace {

struct AlignedFree {
  void operator()(double* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<double[], AlignedFree>;

Buffer make_buffer(std::size_t n) {
  const std::size_t bytes = (n * sizeof(double) + 63) / 64 * 64 + 64;
  return Buffer(static_cast<double*>(std::aligned_alloc(64, bytes)));
}

struct Arrays {
  Buffer a, b, c;
  StreamArrays view;
  explicit Arrays(std::size_t n) : a(make_buffer(n)), b(make_buffer(n)), c(make_buffer(n)) {
    view = {a.get(), b.get(), c.get(), n};
  }
};

using testing::cpu_has;
using testing::features_for;

TEST(StreamTable, BytesFromTheTableFollowStreamConvention) {
  EXPECT_EQ(stream_kernels().size(), 9u);
  const std::size_t n = 1000;
  // kernel, STREAM bytes per element, working set per element, bytes with write-allocate per element.
  struct Expected {
    StreamKernel kernel;
    std::size_t stream, working_set, write_allocate;
  };
  const Expected table[] = {
      {StreamKernel::copy, 16, 16, 24},     {StreamKernel::scale, 16, 16, 24},   {StreamKernel::add, 24, 24, 32},
      {StreamKernel::triad, 24, 24, 32},    {StreamKernel::read, 8, 8, 8},       {StreamKernel::write, 8, 8, 16},
      {StreamKernel::copy_nt, 16, 16, 16},  {StreamKernel::triad_nt, 24, 24, 24}, {StreamKernel::write_nt, 8, 8, 8},
  };
  for (const Expected& e : table) {
    SCOPED_TRACE(stream_kernel_info(e.kernel).name);
    EXPECT_EQ(stream_bytes_per_pass(e.kernel, n), e.stream * n);
    EXPECT_EQ(stream_working_set_bytes(e.kernel, n), e.working_set * n);
    // With write-allocate each cached store also reads its line; streaming stores do not.
    EXPECT_EQ(stream_bytes_per_pass_write_allocate(e.kernel, n), e.write_allocate * n);
  }
  EXPECT_EQ(stream_kernel_info(StreamKernel::triad).flops_per_element, 2);
  for (const StreamKernelInfo& k : stream_kernels()) {
    const int stream_words = k.words_read + k.words_written;
    EXPECT_EQ(k.words_write_allocate, k.non_temporal ? stream_words : stream_words + k.words_written) << k.name;
  }
  for (const StreamKernelInfo& k : stream_kernels()) {
    EXPECT_EQ(parse_stream_kernel(k.name), k.kernel);
    EXPECT_EQ(&stream_kernel_info(k.kernel), &k);
  }
  EXPECT_FALSE(parse_stream_kernel("stream").has_value());
}

TEST(StreamChunk, CoversAllElementsWithLineAlignedBoundaries) {
  for (std::size_t n : {0ul, 7ul, 8ul, 100ul, 1001ul, 4096ul}) {
    for (int threads : {1, 2, 3, 7}) {
      std::size_t next = 0;
      for (int t = 0; t < threads; ++t) {
        const StreamRange r = stream_chunk(n, threads, t);
        EXPECT_EQ(r.begin, next) << n << " " << threads << " " << t;
        EXPECT_LE(r.begin, r.end);
        EXPECT_EQ(r.begin % 8, 0u);
        next = r.end;
      }
      EXPECT_EQ(next, n);
    }
  }
}

// n not a multiple of 8 or of the thread count, to exercise the tails of vector and streaming loops.
class StreamKernels : public ::testing::TestWithParam<std::tuple<StreamKernel, Isa, int>> {};

TEST_P(StreamKernels, ResultIsExactAndValidatorAccepts) {
  const auto [kernel, isa, threads] = GetParam();
  if (!cpu_has(isa)) GTEST_SKIP() << "CPU lacks " << to_string(isa);
  const IsaFeatures features = features_for(isa);
  ASSERT_EQ(stream_kernel_isa(kernel, features), isa);
  // 1003 and 4099: every piece of read's tail (a block of 8 vectors, single vectors, scalars); 200 and 72:
  // whole-vector tails only; 2048: whole steps, no tail at all.
  for (std::size_t n : {1ul, 13ul, 72ul, 200ul, 1003ul, 2048ul, 4099ul}) {
    Arrays x(n);
    stream_init(kernel, x.view, threads);
    const double sum = run_stream_kernel(kernel, x.view, threads, 3, features);
    const StreamCheck check = validate_stream(kernel, x.view, sum, threads);
    EXPECT_TRUE(check.ok) << check.message;
    const StreamArrayUse use = stream_kernel_uses(kernel);
    // Spot-check the closed forms directly too.
    switch (kernel) {
      case StreamKernel::copy:
      case StreamKernel::copy_nt: EXPECT_EQ(x.view.c[n - 1], 1.0); break;
      case StreamKernel::scale: EXPECT_EQ(x.view.b[n - 1], 1.5); break;
      case StreamKernel::add: EXPECT_EQ(x.view.c[n - 1], 3.0); break;
      case StreamKernel::triad:
      case StreamKernel::triad_nt: EXPECT_EQ(x.view.a[n - 1], 3.5); break;
      case StreamKernel::read: EXPECT_EQ(sum, static_cast<double>(n)); break;
      case StreamKernel::write:
      case StreamKernel::write_nt: EXPECT_EQ(x.view.a[0], 4.0); break;
    }
    EXPECT_EQ(stream_array_count(kernel), int(use.a) + int(use.b) + int(use.c));
  }
}

TEST_P(StreamKernels, SharedFirstTouchWritesEveryElement) {
  // issue 60: the blocks of 2 MiB handed to whichever thread is free (StreamTouch::shared) cover the arrays whole,
  // a partial last block included: the kernel then validates as after the own-chunks touch.
  const auto [kernel, isa, threads] = GetParam();
  if (!cpu_has(isa)) GTEST_SKIP();
  const std::size_t n = 2 * (2u << 20) / sizeof(double) + 1003;
  Arrays x(n);
  stream_init(kernel, x.view, threads, StreamTouch::shared);
  const double sum = run_stream_kernel(kernel, x.view, threads, 1, features_for(isa));
  const StreamCheck check = validate_stream(kernel, x.view, sum, threads);
  EXPECT_TRUE(check.ok) << check.message;
}

TEST_P(StreamKernels, EachThreadsOwnTimeIsAddedWhenAsked) {
  // issue 59: the per-thread times the gate compares (bandwidth_specs.cpp's thread_rate_spread): every thread that had
  // elements gets its time added, call after call; the result is the same as without.
  const auto [kernel, isa, threads] = GetParam();
  if (!cpu_has(isa)) GTEST_SKIP();
  const std::size_t n = 64 * 1024;
  Arrays x(n);
  stream_init(kernel, x.view, threads);
  std::vector<double> seconds(static_cast<std::size_t>(threads), 0.0);
  double sum = run_stream_kernel(kernel, x.view, threads, 2, features_for(isa), seconds.data());
  const std::vector<double> first = seconds;
  sum = run_stream_kernel(kernel, x.view, threads, 2, features_for(isa), seconds.data());
  for (int t = 0; t < threads; ++t) {
    EXPECT_GT(first[t], 0.0) << "thread " << t;
    EXPECT_GT(seconds[t], first[t]) << "thread " << t;
  }
  const StreamCheck check = validate_stream(kernel, x.view, sum, threads);
  EXPECT_TRUE(check.ok) << check.message;
}

TEST_P(StreamKernels, ValidatorCatchesACorruptedElement) {
  const auto [kernel, isa, threads] = GetParam();
  if (!cpu_has(isa)) GTEST_SKIP();
  const std::size_t n = 1003;
  Arrays x(n);
  stream_init(kernel, x.view, threads);
  double sum = run_stream_kernel(kernel, x.view, threads, 1, features_for(isa));
  const StreamArrayUse use = stream_kernel_uses(kernel);
  double* target = use.c ? x.view.c : (use.b ? x.view.b : x.view.a);
  target[517] += 1e-9;  // a tiny error is still far above the 1e-13 tolerance
  StreamCheck check = validate_stream(kernel, x.view, sum, threads);
  EXPECT_FALSE(check.ok);
  EXPECT_NE(check.message.find("[517]"), std::string::npos) << check.message;
  EXPECT_NE(check.message.find(std::string(stream_kernel_info(kernel).name)), std::string::npos);
}

TEST(StreamValidator, CatchesAKernelThatDidNothingAndAWrongSum) {
  const std::size_t n = 256;
  for (const StreamKernelInfo& k : stream_kernels()) {
    Arrays x(n);
    stream_init(k.kernel, x.view, 1);
    const double wrong_sum = 0.0;
    EXPECT_FALSE(validate_stream(k.kernel, x.view, wrong_sum, 1).ok) << k.name;
  }
}

std::vector<StreamKernel> all_kernels() {
  std::vector<StreamKernel> out;
  for (const StreamKernelInfo& k : stream_kernels()) out.push_back(k.kernel);
  return out;
}

INSTANTIATE_TEST_SUITE_P(AllKernels, StreamKernels,
                         ::testing::Combine(::testing::ValuesIn(all_kernels()),
                                            ::testing::ValuesIn(testing::stream_isas()),
                                            ::testing::Values(1, 2)),
                         [](const auto& info) {
                           return std::string(stream_kernel_info(std::get<0>(info.param)).name) + "_" +
                                  std::string(to_string(std::get<1>(info.param))) + "_t" +
                                  std::to_string(std::get<2>(info.param));
                         });

}  // namespace
}  // namespace roofline

namespace roofline {
namespace {

// The read's own result (issue 60: the roof probe reading an array it checked whole before checks only this): its
// sum against n x a, whatever the array holds.
TEST(StreamValidation, TheReadSumAloneIsCheckedAgainstNTimesA) {
  std::vector<double> a(4096, kStreamInitA);
  const StreamArrays x{a.data(), nullptr, nullptr, a.size()};
  EXPECT_TRUE(validate_read_sum(x, kStreamInitA * 4096.0).ok);
  const StreamCheck wrong = validate_read_sum(x, kStreamInitA * 4095.0);
  EXPECT_FALSE(wrong.ok);
  EXPECT_NE(wrong.message.find("read: sum"), std::string::npos) << wrong.message;
}

}  // namespace
}  // namespace roofline
