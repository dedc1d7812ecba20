// Sizing the bandwidth sweep (roofline/cpu/bandwidth_plan.hpp): grid, end past the caches, the memory cap,
// --sizes checks, batches, elements and passes per call, and which kernels each profile sweeps.
#include <gtest/gtest.h>

#include <cmath>

#include "roofline/common/errors.hpp"
#include "roofline/cpu/bandwidth_plan.hpp"

namespace roofline {
namespace {

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

TEST(BandwidthPlan, GeometricGridHasTheRequestedDensity) {
  const auto quick = geometric_sizes(4 * KiB, 64 * KiB, 2);
  EXPECT_EQ(quick.size(), 9u);  // 4 octaves x 2 + 1
  EXPECT_EQ(quick.front(), 4 * KiB);
  EXPECT_EQ(quick.back(), 64 * KiB);
  for (std::size_t i = 1; i < quick.size(); ++i) {
    EXPECT_NEAR(double(quick[i]) / double(quick[i - 1]), std::sqrt(2.0), 0.02);
    EXPECT_EQ(quick[i] % 64, 0u);
  }
  EXPECT_EQ(geometric_sizes(4 * KiB, 64 * KiB, 4).size(), 17u);
}

TEST(BandwidthPlan, SweepGoesFromAFewKiBToEightTimesTheCaches) {
  const SweepPlan full = plan_sweep(Profile::full, {}, 260 * MiB, 16 * GiB);
  EXPECT_EQ(full.per_octave, 4);
  EXPECT_EQ(full.sizes.front(), 4 * KiB);
  EXPECT_GE(full.sizes.back(), 8 * 260 * MiB);
  EXPECT_LT(full.sizes[full.sizes.size() - 2], 8 * 260 * MiB);
  EXPECT_FALSE(full.capped);
  const SweepPlan quick = plan_sweep(Profile::quick, {}, 260 * MiB, 16 * GiB);
  EXPECT_EQ(quick.per_octave, 2);
  EXPECT_GE(quick.sizes.back(), 8 * 260 * MiB);
  EXPECT_EQ(plan_sweep(Profile::quick, {}, 260 * MiB, 16 * GiB, 1).per_octave, 1);
  // Unknown or tiny caches: still far enough to see DRAM.
  EXPECT_GE(plan_sweep(Profile::quick, {}, 0, 16 * GiB).sizes.back(), kSweepDefaultEndBytes);
  EXPECT_GE(plan_sweep(Profile::quick, {}, 1 * MiB, 16 * GiB).sizes.back(), 8 * MiB);
}

TEST(BandwidthPlan, MemoryBudgetCapsTheSweepAndSaysSo) {
  const SweepPlan p = plan_sweep(Profile::full, {}, 260 * MiB, 300 * MiB);
  EXPECT_TRUE(p.capped);
  EXPECT_LE(p.sizes.back(), 300 * MiB);
  EXPECT_EQ(p.planned_end_bytes, 8 * 260 * MiB);
}

TEST(BandwidthPlan, UserSizesAreSortedAndCheckedAgainstTheBudget) {
  const SweepPlan p = plan_sweep(Profile::quick, {1 * MiB, 64 * KiB, 1 * MiB}, 260 * MiB, 1 * GiB);
  EXPECT_TRUE(p.from_user);
  EXPECT_EQ(p.sizes, (std::vector<std::uint64_t>{64 * KiB, 1 * MiB}));
  EXPECT_THROW(plan_sweep(Profile::quick, {2 * GiB}, 0, 1 * GiB), InputError);
  EXPECT_THROW(plan_sweep(Profile::quick, {0}, 0, 1 * GiB), InputError);
}

TEST(BandwidthPlan, BatchesAreOctaves) {
  const auto sizes = geometric_sizes(4 * KiB, 64 * KiB, 2);
  const auto batches = octave_batches(sizes, 2);
  ASSERT_EQ(batches.size(), 5u);
  EXPECT_EQ(batches[0], (std::vector<std::uint64_t>{sizes[0], sizes[1]}));
  EXPECT_EQ(batches.back().size(), 1u);
  EXPECT_EQ(octave_batches(sizes, 0).size(), 1u);  // a --sizes list is one batch
}

TEST(BandwidthPlan, ElementsAndPassesPerCall) {
  EXPECT_EQ(elements_for(StreamKernel::read, 64 * KiB), 8192u);
  EXPECT_EQ(elements_for(StreamKernel::copy, 64 * KiB), 4096u);
  EXPECT_EQ(elements_for(StreamKernel::triad, 4096), 168u);  // 4096/24 = 170, whole lines: 168
  EXPECT_EQ(elements_for(StreamKernel::triad, 1), 8u);
  // Whole steps per thread: read with AVX-512 unrolls 128 doubles, so 2 threads round to 256 elements.
  IsaFeatures avx512;
  avx512.sse2 = avx512.avx = avx512.avx2 = avx512.fma = true;
  avx512.avx512f = avx512.avx512dq = avx512.avx512bw = avx512.avx512vl = true;
  ASSERT_EQ(element_unit(StreamKernel::read, 2, avx512), 256u);
  EXPECT_EQ(element_unit(StreamKernel::triad, 2, avx512), 16u);
  EXPECT_EQ(elements_for(StreamKernel::read, 5824, 256), 768u);    // 728 elements -> 3 units (6 KiB)
  EXPECT_EQ(elements_for(StreamKernel::read, 11584, 256), 1536u);  // 1448 -> 6 units
  EXPECT_EQ(elements_for(StreamKernel::read, 100, 256), 256u);     // at least one unit
  for (std::uint64_t size : geometric_sizes(4 * KiB, 64 * MiB, 4)) {
    for (int threads : {1, 2, 3}) {
      const std::size_t unit = element_unit(StreamKernel::read, threads, avx512);
      const std::size_t n = elements_for(StreamKernel::read, size, unit);
      for (int t = 0; t < threads; ++t) {
        const StreamRange r = stream_chunk(n, threads, t);
        EXPECT_EQ((r.end - r.begin) % 128, 0u) << size << " " << threads;
      }
    }
  }
  // 16 KiB read = 16 KiB per pass: 1024 passes move 16 MiB; a DRAM-sized array needs one pass.
  EXPECT_EQ(passes_per_call(StreamKernel::read, 2048, 16 * MiB), 1024);
  EXPECT_EQ(passes_per_call(StreamKernel::triad, 64 * MiB, 16 * MiB), 1);
}

TEST(BandwidthPlan, QuickSweepsReadAndTriadAndSpotsTheRest) {
  EXPECT_EQ(swept_kernels(Profile::quick, false), (std::vector<StreamKernel>{StreamKernel::read, StreamKernel::triad}));
  EXPECT_EQ(spot_kernels(Profile::quick, false).size(), 7u);
  EXPECT_EQ(swept_kernels(Profile::full, false).size(), 9u);
  EXPECT_TRUE(spot_kernels(Profile::full, false).empty());
  EXPECT_EQ(swept_kernels(Profile::quick, true).size(), 9u);
  EXPECT_TRUE(spot_kernels(Profile::quick, true).empty());
  const auto sizes = geometric_sizes(4 * KiB, 64 * MiB, 2);
  EXPECT_EQ(middle_size(sizes, 64 * KiB, 1 * MiB), 256 * KiB);
}

// Read and triad on 4 KiB pages: where DRAM starts by the curve, else by the reported caches (twice the
// last), at one size (the profile's sweep) or every size from there (--sizes), else nowhere.
TEST(BandwidthPlan, SmallPageSizesAreDramSizes) {
  const auto sizes = geometric_sizes(4 * KiB, 1 * GiB, 2);
  const auto spot = small_page_sizes(sizes, 128.0 * MiB, 32.0 * MiB, false);
  ASSERT_EQ(spot.size(), 1u);
  EXPECT_EQ(spot.front(), middle_size(sizes, 128.0 * MiB, 256.0 * MiB));
  // No DRAM on the curve: from twice the reported caches, one size.
  EXPECT_EQ(small_page_sizes(sizes, 0.0, 32.0 * MiB, false),
            (std::vector<std::uint64_t>{middle_size(sizes, 64.0 * MiB, 128.0 * MiB)}));
  // The curve never got past the caches: none.
  EXPECT_TRUE(small_page_sizes(geometric_sizes(4 * KiB, 32 * MiB, 2), 0.0, 32.0 * MiB, false).empty());
  // --sizes: every size in DRAM.
  EXPECT_EQ(small_page_sizes({64 * KiB, 1 * GiB}, 0.0, 32.0 * MiB, true), (std::vector<std::uint64_t>{1 * GiB}));
  EXPECT_EQ(small_page_sizes({64 * KiB, 64 * MiB, 1 * GiB}, 0.0, 32.0 * MiB, true),
            (std::vector<std::uint64_t>{64 * MiB, 1 * GiB}));
  EXPECT_TRUE(small_page_sizes({64 * KiB, 1 * GiB}, 0.0, 0.0, true).empty());
  EXPECT_TRUE(small_page_sizes({}, 128.0 * MiB, 0.0, false).empty());
}

}  // namespace
}  // namespace roofline
