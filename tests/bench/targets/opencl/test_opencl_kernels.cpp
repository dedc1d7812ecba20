// The OpenCL target's kernels (issue 22) on the first OpenCL device found (PoCL's CPU device in CI), at small
// sizes: every memory kernel and compute kind in every vector width runs and validates; programs are built
// once and cached; bad input is refused. Skipped, with the reason, when no OpenCL device exists.
#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <string>

#include "roofline/common/errors.hpp"
#include "roofline/opencl/discovery.hpp"
#include "roofline/opencl/measure.hpp"

namespace roofline::opencl {
// Readable parameters in test names and failures (GoogleTest finds these by argument-dependent lookup).
void PrintTo(MemoryKernel k, std::ostream* os) { *os << to_string(k); }
void PrintTo(ComputeKind k, std::ostream* os) { *os << to_string(k); }

namespace {

// One Session for the whole binary: programs are cached in it, as in a run.
Session* session(std::string& why_not) {
  static std::string reason;
  static std::unique_ptr<Session> s = [] {
    const DeviceList list = discover_devices();
    if (list.devices.empty()) {
      reason = list.notes.empty() ? "no OpenCL device" : list.notes.front();
      return std::unique_ptr<Session>();
    }
    return std::make_unique<Session>(list.devices.front());
  }();
  why_not = reason;
  return s.get();
}

#define REQUIRE_DEVICE(s)                    \
  std::string why_not;                       \
  Session* s = session(why_not);             \
  if (s == nullptr) GTEST_SKIP() << why_not;

class OpenClMemory : public ::testing::TestWithParam<std::tuple<MemoryKernel, int>> {};

TEST_P(OpenClMemory, RunsAndValidates) {
  REQUIRE_DEVICE(s);
  const auto [kernel, width] = GetParam();
  const Timing t = measure_memory(*s, kernel, width, 3 * 64 * 1024, 2);
  EXPECT_TRUE(t.validated) << t.validation_error;
  ASSERT_EQ(t.seconds.size(), 2u);
  for (double sec : t.seconds) EXPECT_GT(sec, 0);
  // read counts the words its work-items sum (whole work-groups of 16 vectors each), the others every word.
  if (kernel == MemoryKernel::read) {
    EXPECT_LE(t.work_per_rep, t.bytes_per_buffer);
    EXPECT_GE(t.work_per_rep, t.bytes_per_buffer / 2);
  } else {
    EXPECT_EQ(t.work_per_rep, t.bytes_per_buffer * static_cast<std::uint64_t>(arrays_counted(kernel)));
  }
  // The chunked read (CPU devices, buffers of at least 16 work-groups) may launch larger groups than the others.
  EXPECT_GE(t.local_size, s->local_size());
  EXPECT_EQ(t.global_size % t.local_size, 0u);
}

INSTANTIATE_TEST_SUITE_P(AllKernelsAndWidths, OpenClMemory,
                         ::testing::Combine(::testing::ValuesIn(kMemoryKernels), ::testing::ValuesIn(kVectorWidths)),
                         [](const auto& info) {
                           return to_string(std::get<0>(info.param)) + "_w" + std::to_string(std::get<1>(info.param));
                         });

class OpenClCompute : public ::testing::TestWithParam<std::tuple<ComputeKind, int>> {};

TEST_P(OpenClCompute, RunsAndValidates) {
  REQUIRE_DEVICE(s);
  const auto [kind, width] = GetParam();
  if (kind == ComputeKind::fp64 && !s->facts().fp64) GTEST_SKIP() << s->facts().name << " has no cl_khr_fp64";
  if (kind == ComputeKind::fp16 && !s->facts().fp16) GTEST_SKIP() << s->facts().name << " has no cl_khr_fp16";
  for (std::int64_t steps : {std::int64_t{64}, std::int64_t{65}}) {  // both parities of the closed form
    const Timing t = measure_compute(*s, kind, width, steps, 1, 1);
    EXPECT_TRUE(t.validated) << t.validation_error;
    const std::uint64_t per_step = kind == ComputeKind::int8 ? 8 : 2;  // a 4-lane int8 dot with accumulate: 8
    EXPECT_EQ(t.work_per_rep, t.global_size * static_cast<std::uint64_t>(steps) * 16 * width * per_step);
  }
}

INSTANTIATE_TEST_SUITE_P(AllKindsAndWidths, OpenClCompute,
                         ::testing::Combine(::testing::ValuesIn(kComputeKinds), ::testing::ValuesIn(kVectorWidths)),
                         [](const auto& info) {
                           return to_string(std::get<0>(info.param)) + "_w" + std::to_string(std::get<1>(info.param));
                         });

TEST(OpenClSession, ProgramsAreBuiltOncePerRun) {
  REQUIRE_DEVICE(s);
  const Timing first = measure_memory(*s, MemoryKernel::copy, 4, 64 * 1024, 1);
  const double built = s->total_build_seconds();
  const Timing again = measure_memory(*s, MemoryKernel::copy, 4, 64 * 1024, 1);
  EXPECT_EQ(again.build_seconds, 0);
  EXPECT_EQ(s->total_build_seconds(), built);
  EXPECT_TRUE(again.validated);
  (void)first;
}

TEST(OpenClSession, CapsAtMaxAllocationAndRefusesBadInput) {
  REQUIRE_DEVICE(s);
  DeviceFacts capped = s->facts();
  capped.max_allocation_bytes = 64 * 1024;  // pretend a small device: 1 MiB is capped, and said
  Session small(capped);
  const Timing t = measure_memory(small, MemoryKernel::read, 1, 1 << 20, 1);
  EXPECT_TRUE(t.validated) << t.validation_error;
  EXPECT_EQ(t.bytes_per_buffer, 64u * 1024);
  ASSERT_FALSE(t.notes.empty());
  EXPECT_NE(t.notes.front().find("capped at the device's max allocation"), std::string::npos) << t.notes.front();
  EXPECT_THROW(measure_memory(*s, MemoryKernel::read, 3, 1 << 16, 1), InputError);
  EXPECT_THROW(measure_memory(*s, MemoryKernel::read, 1, 16, 1), InputError);
  EXPECT_THROW(measure_compute(*s, ComputeKind::fp32, 32, 10, 1), InputError);
  DeviceFacts no_fp16 = s->facts();
  no_fp16.fp16 = false;
  Session plain(no_fp16);
  EXPECT_THROW(measure_compute(plain, ComputeKind::fp16, 1, 10, 1), InputError);
}

TEST(OpenClDiscovery, FactsAreFilled) {
  REQUIRE_DEVICE(s);
  const DeviceFacts& d = s->facts();
  EXPECT_FALSE(d.name.empty());
  EXPECT_GT(d.compute_units, 0);
  EXPECT_GT(d.global_memory_bytes, 0u);
  EXPECT_GT(d.max_allocation_bytes, 0u);
  EXPECT_EQ(d.source, "clGetDeviceInfo");
  EXPECT_EQ(d.id(), "opencl:0.0");
}

}  // namespace
}  // namespace roofline::opencl
