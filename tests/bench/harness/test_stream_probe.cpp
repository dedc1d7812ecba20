// The one timed, validated STREAM probe (roofline/harness/stream_probe.hpp, issue 47) behind the environment's
// canaries, the CPU target's roof of the moment and the llm chain's memory roof: how many samples it takes, that
// its rates are positive and its best is the best sample, and that a wrong answer throws, named by its caller.
// Correctness only: no figure is compared with any speed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>

#include "roofline/harness/stream_probe.hpp"

namespace roofline {
namespace {

constexpr std::size_t kElements = 4096;  // 32 KiB an array: small, whole steps of every ISA's loop
constexpr int kThreads = 2;

struct FreeDeleter {
  void operator()(double* p) const { std::free(p); }
};
using Array = std::unique_ptr<double, FreeDeleter>;

Array array() { return Array(static_cast<double*>(std::aligned_alloc(64, kElements * sizeof(double)))); }

// Arrays a, b and c of kElements, initialized for `kernel` as a caller does before probing.
struct Prepared {
  Array a = array(), b = array(), c = array();
  StreamArrays arrays{a.get(), b.get(), c.get(), kElements};
  explicit Prepared(StreamKernel kernel) { stream_init(kernel, arrays, kThreads); }
};

// The message of the std::runtime_error `probe` throws, or "" when it throws none.
template <typename F>
std::string error_of(F&& probe) {
  try {
    probe();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(StreamProbe, TakesTheSamplesAskedAndReturnsTheirBest) {
  const Prepared p(StreamKernel::triad);
  const StreamProbeSampling sampling{.passes_per_sample = 2, .min_samples = 3, .max_samples = 3};
  const StreamProbeResult r = probe_stream(StreamKernel::triad, p.arrays, kThreads, sampling, IsaFeatures{}, "test");
  ASSERT_EQ(r.samples.size(), 3u);
  for (const double s : r.samples) EXPECT_GT(s, 0.0);
  EXPECT_EQ(r.best_bytes_per_second, *std::max_element(r.samples.begin(), r.samples.end()));
  EXPECT_GT(r.seconds, 0.0);
}

TEST(StreamProbe, SamplesUntilItsMinimumTimeUpToItsMaximumCount) {
  const Prepared p(StreamKernel::read);
  // A minimum time no probe reaches: the maximum count ends it.
  const StreamProbeSampling sampling{
      .passes_per_sample = 4, .warmup_passes = 2, .min_samples = 2, .max_samples = 5, .min_seconds = 1e9};
  const StreamProbeResult r = probe_stream(StreamKernel::read, p.arrays, kThreads, sampling, IsaFeatures{}, "test");
  ASSERT_EQ(r.samples.size(), 5u);
  for (const double s : r.samples) EXPECT_GT(s, 0.0);
  EXPECT_GT(r.best_bytes_per_second, 0.0);
  // No minimum time: the minimum count ends it; at least one sample even when none is asked for.
  const StreamProbeSampling few{.min_samples = 2, .max_samples = 5};
  EXPECT_EQ(probe_stream(StreamKernel::read, p.arrays, kThreads, few, IsaFeatures{}, "test").samples.size(), 2u);
  const StreamProbeSampling none{.min_samples = 0, .max_samples = 0};
  EXPECT_EQ(probe_stream(StreamKernel::read, p.arrays, kThreads, none, IsaFeatures{}, "test").samples.size(), 1u);
}

TEST(StreamProbe, AWrongSumThrowsNamedByItsCaller) {
  const Prepared p(StreamKernel::read);
  p.arrays.a[7] = 99.0;  // the read's sum and the array are no longer what the validator expects
  const std::string error = error_of([&] {
    probe_stream(StreamKernel::read, p.arrays, kThreads, StreamProbeSampling{}, IsaFeatures{}, "environment core canary");
  });
  EXPECT_EQ(error.rfind("environment core canary: ", 0), 0u) << error;
}

TEST(StreamProbe, AWrongArrayThrowsNamedByItsCaller) {
  const Prepared p(StreamKernel::triad);
  p.arrays.b[kElements - 1] = -1.0;  // an input of triad: its output at that element is wrong too
  const std::string error = error_of([&] {
    probe_stream(StreamKernel::triad, p.arrays, kThreads, StreamProbeSampling{}, IsaFeatures{}, "read probe");
  });
  EXPECT_EQ(error.rfind("read probe: ", 0), 0u) << error;
}

TEST(StreamProbe, ACorrectProbeDoesNotThrow) {
  const Prepared p(StreamKernel::triad);
  EXPECT_EQ(error_of([&] {
              probe_stream(StreamKernel::triad, p.arrays, kThreads, StreamProbeSampling{}, IsaFeatures{}, "test");
            }),
            "");
}

}  // namespace
}  // namespace roofline
