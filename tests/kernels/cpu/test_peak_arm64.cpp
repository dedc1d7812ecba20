// ARM64's compute-peak rows and kernels (cmake/arch/arm64.cmake): NEON FMLA fp64/fp32 and SDOT int8, their counts by
// the conventions, dispatch by HWCAP's features and --max-isa, and a run of every row this (emulated) CPU supports,
// each validated by its closed form. Under qemu the rows run at every SVE setting (NEON is always there).
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "host_features.hpp"
#include "roofline/kernels/cpu/peak.hpp"

namespace roofline {
namespace {
using testing::features_for;
using testing::host_features;

const PeakVariant& variant(std::string_view name) {
  for (const PeakVariant& v : peak_variants()) {
    if (v.name == name) return v;
  }
  throw std::runtime_error("no peak variant " + std::string(name));
}

TEST(PeakTableArm64, CountsFollowTheConventions) {
  const PeakVariant& f64 = variant("fma_fp64_neon");
  EXPECT_EQ(f64.isa, Isa::neon);
  EXPECT_EQ(f64.vector_bits, 128);
  EXPECT_EQ(f64.lanes(), 2);
  EXPECT_EQ(f64.ops_per_instruction, 4);  // 2 lanes x FMA 2 FLOP
  EXPECT_EQ(f64.chains, 20);
  EXPECT_EQ(variant("fma_fp32_neon").ops_per_instruction, 8);
  const PeakVariant& dot = variant("dot_int8_neon");
  EXPECT_EQ(dot.op, PeakOp::dot);
  EXPECT_EQ(dot.ops_per_instruction, 32);  // 4 lanes x 4 multiply-adds x 2
  EXPECT_EQ(dot.engine(), Engine::vector);
  for (const PeakVariant& v : peak_variants()) EXPECT_FALSE(peak_build_gap(v).has_value()) << v.name;
}

TEST(PeakDispatchArm64, DotNeedsTheDotProductExtension) {
  IsaFeatures a72 = features_for(Isa::neon);
  a72.neon_dotprod = false;  // Cortex-A72: ARMv8.0, NEON without SDOT
  const PeakSelection s = select_peak_variants(a72);
  EXPECT_EQ(s.runnable.size(), 2u);
  ASSERT_EQ(s.not_supported.size(), 1u);
  EXPECT_EQ(s.not_supported[0]->name, "dot_int8_neon");
  EXPECT_EQ(select_peak_variants(features_for(Isa::neon)).runnable.size(), 3u);
  EXPECT_TRUE(select_peak_variants(features_for(Isa::scalar)).runnable.empty());
}

TEST(PeakKernelsArm64, EverySupportedVariantValidatesOnThisCpu) {
  const IsaFeatures host = host_features();
  int ran = 0;
  for (const PeakVariant& v : peak_variants()) {
    if (!peak_runnable(v, host)) continue;
    SCOPED_TRACE(std::string(v.name));
    const PeakInputs in = default_peak_inputs(v);
    for (int threads : {1, 2}) {
      for (std::int64_t n : {std::int64_t{1}, std::int64_t{2001}, std::int64_t{1} << 18}) {
        std::vector<double> out(static_cast<std::size_t>(threads) * v.accumulators(), -7.0);
        run_peak(v, threads, n, in, out.data());
        const auto err = validate_peak(v, n, in, threads, out.data());
        EXPECT_FALSE(err.has_value()) << *err;
        // A wrong lane is caught.
        out[1] += 1.0;
        EXPECT_TRUE(validate_peak(v, n, in, threads, out.data()).has_value());
      }
    }
    ++ran;
  }
  EXPECT_GE(ran, 2);  // FMLA fp64 and fp32 run on every ARM64
}

TEST(PeakClockArm64, ChainAddsSixtyFourStepsPerTrip) {
  EXPECT_EQ(clock_chain(1000, 3), 1000 * kClockAddsPerIteration * 3);
  EXPECT_EQ(clock_chain(0, 3), 0);
  std::vector<std::int64_t> out(2);
  run_clock(2, 500, 7, out.data());
  EXPECT_FALSE(validate_clock(2, 500, 7, out.data()).has_value());
}

}  // namespace
}  // namespace roofline
