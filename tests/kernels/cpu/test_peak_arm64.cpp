// ARM64's compute-peak rows and kernels (cmake/arch/arm64.cmake): NEON FMLA fp64/fp32/fp16, SDOT and SMMLA int8,
// BFDOT and BFMMLA bf16, SVE FMLA/FMAD fp64/fp32/fp16 and SDOT int8 at the CPU's vector length, their counts by the
// conventions, dispatch by HWCAP's features and --max-isa, and a run of every row this (emulated) CPU
// supports, each validated by its closed form; a row whose feature the CPU lacks skips with its reason (qemu's
// cortex-a72 has none of them). Under qemu the rows run at every SVE setting (NEON is always there).
#include <gtest/gtest.h>
#include <sys/prctl.h>

#include <algorithm>
#include <cstdlib>
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

// This process's SVE vector length in bits (the kernel's word, prctl), 0 without SVE.
int sve_bits() {
  const int vl = prctl(PR_SVE_GET_VL, 0, 0, 0, 0);
  return vl < 0 ? 0 : 8 * (vl & PR_SVE_VL_LEN_MASK);
}

// The vector length qemu-user was told to emulate (QEMU_CPU's largest sveN=on, which the guest sees in its
// environment), 0 when it names none.
int qemu_sve_bits() {
  const char* cpu = std::getenv("QEMU_CPU");
  if (cpu == nullptr) return 0;
  int bits = 0;
  for (const int n : {128, 256, 384, 512, 640, 768, 896, 1024, 1152, 1280, 1408, 1536, 1664, 1792, 1920, 2048}) {
    if (std::string(cpu).find("sve" + std::to_string(n) + "=on") != std::string::npos) bits = n;
  }
  return bits;
}

// Runs `v` at 1 and 2 threads for 1, 2001 and 2^18 trips, each validated by its closed form, and checks that a
// wrong lane is caught.
void expect_validates(const PeakVariant& v) {
  SCOPED_TRACE(std::string(v.name));
  const PeakInputs in = default_peak_inputs(v);
  for (int threads : {1, 2}) {
    for (std::int64_t n : {std::int64_t{1}, std::int64_t{2001}, std::int64_t{1} << 18}) {
      std::vector<double> out(static_cast<std::size_t>(threads) * v.accumulators(), -7.0);
      run_peak(v, threads, n, in, out.data());
      const auto err = validate_peak(v, n, in, threads, out.data());
      EXPECT_FALSE(err.has_value()) << *err;
      out[1] += 1.0;
      EXPECT_TRUE(validate_peak(v, n, in, threads, out.data()).has_value());
    }
  }
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
  const PeakVariant& f16 = variant("fma_fp16_neon");
  EXPECT_EQ(f16.precision, Precision::fp16);
  EXPECT_EQ(f16.vector_bits, 128);
  EXPECT_EQ(f16.lanes(), 8);
  EXPECT_EQ(f16.ops_per_instruction, 16);  // 8 lanes x FMA 2 FLOP
  EXPECT_EQ(f16.required, kNeedsNeonFp16);
  EXPECT_EQ(f16.instruction, "fmla v.8h");
  EXPECT_EQ(f16.kernel(), "fma");
  EXPECT_FALSE(f16.scalable);
  for (const PeakVariant& v : peak_variants()) EXPECT_FALSE(peak_build_gap(v).has_value()) << v.name;
}

TEST(PeakDispatchArm64, DotNeedsTheDotProductExtension) {
  IsaFeatures a72 = features_for(Isa::neon);
  a72.neon_dotprod = false;  // Cortex-A72: ARMv8.0, NEON without SDOT
  a72.neon_fp16 = false;     // nor half-precision arithmetic, int8 matrix multiply, bf16 or SVE
  a72.neon_i8mm = a72.neon_bf16 = a72.sve = false;
  const PeakSelection s = select_peak_variants(a72);
  EXPECT_EQ(s.runnable.size(), 2u);
  std::vector<std::string_view> missing;
  for (const PeakVariant* v : s.not_supported) {
    if (v->isa == Isa::neon) missing.push_back(v->name);
  }
  std::sort(missing.begin(), missing.end());
  EXPECT_EQ(missing, (std::vector<std::string_view>{"dot_bf16_neon", "dot_int8_neon", "fma_fp16_neon",
                                                    "mmla_bf16_neon", "mmla_int8_neon"}));
  // Every NEON row at once: SDOT and SMMLA (BFDOT and BFMMLA) are rows of their own, not alternatives.
  EXPECT_EQ(select_peak_variants(features_for(Isa::neon)).runnable.size(), 7u);
  EXPECT_TRUE(select_peak_variants(features_for(Isa::scalar)).runnable.empty());
}

TEST(PeakDispatchArm64, Fp16NeedsHalfPrecisionArithmetic) {
  IsaFeatures a75 = features_for(Isa::neon);
  EXPECT_TRUE(peak_runnable(variant("fma_fp16_neon"), a75));
  a75.neon_fp16 = false;
  EXPECT_FALSE(peak_runnable(variant("fma_fp16_neon"), a75));
  EXPECT_TRUE(peak_runnable(variant("fma_fp32_neon"), a75));
}

TEST(PeakTableArm64, MatrixAndBf16RowsCountAsTheArmArmSays) {
  // SMMLA: 2x8 by 8x2 int8 into 2x2 int32, 32 multiply-adds = 64 OP; BFMMLA: 2x4 by 4x2 bf16 into 2x2 fp32, 16 = 32
  // FLOP; BFDOT: 4 lanes x 2 products = 16 FLOP.
  struct Row {
    const char* name;
    PeakOp op;
    Precision precision;
    int ops_per_instruction;
    std::uint32_t required;
    const char* instruction;
    const char* kernel;
  };
  for (const Row& r : {Row{"mmla_int8_neon", PeakOp::mmla, Precision::int8, 64, kNeedsNeonI8mm, "smmla v.4s", "mmla"},
                       Row{"dot_bf16_neon", PeakOp::dot, Precision::bf16, 16, kNeedsNeonBf16, "bfdot v.4s", "dot"},
                       Row{"mmla_bf16_neon", PeakOp::mmla, Precision::bf16, 32, kNeedsNeonBf16, "bfmmla v.4s", "mmla"}}) {
    SCOPED_TRACE(r.name);
    const PeakVariant& v = variant(r.name);
    EXPECT_EQ(v.op, r.op);
    EXPECT_EQ(v.precision, r.precision);
    EXPECT_EQ(v.isa, Isa::neon);
    EXPECT_EQ(v.vector_bits, 128);
    EXPECT_EQ(v.lanes(), 4);  // 32-bit accumulators
    EXPECT_EQ(v.ops_per_instruction, r.ops_per_instruction);
    EXPECT_EQ(v.required, r.required);
    EXPECT_EQ(v.instruction, r.instruction);
    EXPECT_EQ(v.kernel(), r.kernel);
    EXPECT_EQ(v.engine(), Engine::vector);  // the vector pipes, as x86's vpdpbusd and vdpbf16ps rows
    EXPECT_EQ(v.unit(), r.precision == Precision::int8 ? "OP/s" : "FLOP/s");
    EXPECT_FALSE(v.scalable);
  }
}

TEST(PeakDispatchArm64, MatrixAndBf16RowsNeedHwcap2Features) {
  IsaFeatures f = features_for(Isa::neon);
  f.neon_i8mm = false;  // bf16 without i8mm
  EXPECT_FALSE(peak_runnable(variant("mmla_int8_neon"), f));
  EXPECT_TRUE(peak_runnable(variant("dot_int8_neon"), f));  // SDOT stays
  EXPECT_TRUE(peak_runnable(variant("dot_bf16_neon"), f));
  EXPECT_TRUE(peak_runnable(variant("mmla_bf16_neon"), f));
  f.neon_i8mm = true;
  f.neon_bf16 = false;
  EXPECT_TRUE(peak_runnable(variant("mmla_int8_neon"), f));
  EXPECT_FALSE(peak_runnable(variant("dot_bf16_neon"), f));
  EXPECT_FALSE(peak_runnable(variant("mmla_bf16_neon"), f));
  EXPECT_FALSE(peak_runnable(variant("mmla_int8_neon"), features_for(Isa::scalar)));  // --max-isa scalar
}

TEST(PeakClosedFormArm64, MatrixRowsAddFourProductsPerLane) {
  // int8: a row of 8 bytes 2 by a column (3, 3, 3, -3, 3, 3, 3, -3) adds 2 * 3 * (6 - 2) = 24 per trip, an exact
  // integer; chain c starts at 1000 c.
  const PeakVariant& i8 = variant("mmla_int8_neon");
  const PeakInputs in8 = default_peak_inputs(i8);
  EXPECT_EQ(peak_expected(i8, 2001, in8, 3), 3000.0 + 24.0 * 2001);
  EXPECT_EQ(peak_expected(variant("dot_int8_neon"), 2001, in8, 3), 3000.0 + 12.0 * 2001);  // SDOT: half
  // The most trips keep every accumulator an int32: 24 * 2^26 + 19000 < 2^31.
  EXPECT_EQ(max_peak_iterations(i8), std::int64_t{1} << 26);
  EXPECT_LT(peak_expected(i8, max_peak_iterations(i8), in8, 19), 2147483647.0);
  // bf16: 1 x 2^-20 products, 4 per lane per trip (BFDOT: 2); below 32 after the most trips, where fp32 is exact to
  // 2^-19.
  const PeakVariant& b16 = variant("mmla_bf16_neon");
  const PeakInputs inb = default_peak_inputs(b16);
  EXPECT_EQ(peak_expected(b16, 2001, inb, 2), 1.0 + 2.0 / 256 + 2001 * 4.0 / (1 << 20));
  EXPECT_EQ(peak_expected(variant("dot_bf16_neon"), 2001, inb, 2), 1.0 + 2.0 / 256 + 2001 * 2.0 / (1 << 20));
  EXPECT_LT(peak_expected(b16, max_peak_iterations(b16), inb, 19), 32.0);
}

TEST(PeakTableArm64, SveRowsCarryTheVectorLengthOfTheCpu) {
  // 128 bits (SVE's shortest) in the files; the CPU's length once peak_variants() has read it.
  const int bits = sve_bits();
  EXPECT_EQ(bits > 0, host_features().sve);
  const int expected = bits > 0 ? bits : 128;
  if (qemu_sve_bits() > 0) {
    EXPECT_EQ(expected, qemu_sve_bits());  // what the emulator was told
  }
  struct Row {
    const char* name;
    PeakOp op;
    Precision precision;
    int lane_bits, ops_per_lane;
    const char* instruction;
  };
  for (const Row& r : {Row{"fma_fp64_sve", PeakOp::fma, Precision::fp64, 64, 2, "fmla z.d"},
                       Row{"fma_fp32_sve", PeakOp::fma, Precision::fp32, 32, 2, "fmla z.s"},
                       Row{"fma_fp16_sve", PeakOp::fma, Precision::fp16, 16, 2, "fmad z.h"},
                       Row{"dot_int8_sve", PeakOp::dot, Precision::int8, 32, 8, "sdot z.s"}}) {
    SCOPED_TRACE(r.name);
    const PeakVariant& v = variant(r.name);
    EXPECT_EQ(v.isa, Isa::sve);
    EXPECT_TRUE(v.scalable);
    EXPECT_EQ(v.op, r.op);
    EXPECT_EQ(v.precision, r.precision);
    EXPECT_EQ(v.vector_bits, expected);
    EXPECT_EQ(v.lanes(), expected / r.lane_bits);
    EXPECT_EQ(v.ops_per_instruction, expected / r.lane_bits * r.ops_per_lane);
    EXPECT_EQ(v.chains, 20);
    EXPECT_EQ(v.required, 0u);  // FP16 arithmetic and SDOT are in SVE's base set
    EXPECT_EQ(v.instruction, r.instruction);
    EXPECT_EQ(v.engine(), Engine::vector);
  }
}

TEST(PeakDispatchArm64, SveRowsNeedSveAndItsCap) {
  const IsaFeatures all = features_for(Isa::sve);
  EXPECT_TRUE(peak_runnable(variant("fma_fp64_sve"), all));
  EXPECT_TRUE(peak_runnable(variant("dot_int8_sve"), all));
  EXPECT_FALSE(peak_runnable(variant("fma_fp64_sve"), features_for(Isa::neon)));  // --max-isa neon
  IsaFeatures n1 = all;
  n1.sve = false;  // Neoverse N1: NEON with SDOT and fp16, no SVE
  EXPECT_FALSE(peak_runnable(variant("fma_fp16_sve"), n1));
  EXPECT_TRUE(peak_runnable(variant("fma_fp16_neon"), n1));
}

TEST(PeakClosedFormArm64, Fp16AlternatesAroundItsFixedPoint) {
  // x * -1 + 3 from x0 = 1 + c / 32: x0 after an even count of trips, 3 - x0 after an odd one (FMLA runs it as y = -y
  // around 1.5).
  const PeakVariant& v = variant("fma_fp16_neon");
  const PeakInputs in = default_peak_inputs(v);
  EXPECT_EQ(in.multiplier, -1.0);
  EXPECT_EQ(in.addend, 3.0);
  EXPECT_EQ(peak_expected(v, 2000, in, 0), 1.0);
  EXPECT_EQ(peak_expected(v, 2001, in, 0), 2.0);
  EXPECT_EQ(peak_expected(v, 2001, in, 4), 3.0 - (1.0 + 4.0 / 32));
}

TEST(PeakKernelsArm64, NeonFp16FmlaValidates) {
  if (!host_features().neon_fp16) GTEST_SKIP() << "HWCAP lacks asimdhp (ARMv8.2 half-precision arithmetic: FMLA .8h)";
  expect_validates(variant("fma_fp16_neon"));
}

TEST(PeakKernelsArm64, NeonSmmlaValidates) {
  if (!host_features().neon_i8mm) GTEST_SKIP() << "HWCAP2 lacks i8mm (the int8 matrix multiply extension: SMMLA)";
  expect_validates(variant("mmla_int8_neon"));
}

TEST(PeakKernelsArm64, NeonBfdotAndBfmmlaValidate) {
  if (!host_features().neon_bf16) GTEST_SKIP() << "HWCAP2 lacks bf16 (the BFloat16 extension: BFDOT, BFMMLA)";
  expect_validates(variant("dot_bf16_neon"));
  expect_validates(variant("mmla_bf16_neon"));
}

TEST(PeakKernelsArm64, SveRowsValidateAtThisVectorLength) {
  if (!host_features().sve) GTEST_SKIP() << "HWCAP lacks sve (the Scalable Vector Extension)";
  for (const char* name : {"fma_fp64_sve", "fma_fp32_sve", "fma_fp16_sve", "dot_int8_sve"}) {
    expect_validates(variant(name));
  }
}

TEST(PeakKernelsArm64, EverySupportedVariantValidatesOnThisCpu) {
  const IsaFeatures host = host_features();
  int ran = 0;
  for (const PeakVariant& v : peak_variants()) {
    if (!peak_runnable(v, host)) continue;
    expect_validates(v);
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
