// ARM64's dequant-dot rows (issue 62; cmake/arch/arm64.cmake): every format on NEON (smull+sadalp) and on NEON with
// the dot-product extension (SDOT; no int4, which has no int8 product), their names and instructions, dispatch by
// HWCAP's asimddp and --max-isa, and each ISA's kernels run on this (emulated) CPU against the double reference:
// skipped, with the reason, where HWCAP lacks the feature (under qemu, `-cpu cortex-a72` has no asimddp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "host_features.hpp"
#include "roofline/kernels/cpu/quant_dot.hpp"

namespace roofline {
namespace {
using testing::features_for;
using testing::host_features;

const QuantDotVariant* find(QuantFormat f, std::string_view isa) {
  for (const QuantDotVariant& v : quant_dot_variants()) {
    if (v.format == f && v.isa_name == isa) return &v;
  }
  return nullptr;
}

// The best runnable row of a format, as the plan (cpu_plan.cpp) and the llm chain pick it: the last in table order.
std::string best(QuantFormat f, const IsaFeatures& features) {
  std::string name = "none";
  for (const QuantDotVariant& v : quant_dot_variants()) {
    if (v.format == f && quant_dot_runnable(v, features)) name = std::string(v.isa_name);
  }
  return name;
}

TEST(QuantDotArm64, EveryFormatHasItsNeonRows) {
  for (const QuantFormat f : all_quant_formats()) {
    SCOPED_TRACE(std::string(to_string(f)));
    const QuantDotVariant* neon = find(f, "neon");
    ASSERT_NE(neon, nullptr);
    EXPECT_EQ(neon->name, "dequant_dot_" + std::string(to_string(f)) + "_neon");
    EXPECT_EQ(neon->isa, Isa::neon);
    EXPECT_EQ(neon->vector_bits, 128);
    EXPECT_FALSE(neon->needs_f16c);  // FCVT converts the fp16 scales on every ARMv8-A
    EXPECT_EQ(neon->instruction, f == QuantFormat::int4 ? "scvtf+fmla v.4s" : "smull+sadalp v.8h");
    const QuantDotVariant* dot = find(f, "neon_dotprod");
    if (f == QuantFormat::int4) {
      EXPECT_EQ(dot, nullptr);  // fp32 activations: no int8 product to put on SDOT
      continue;
    }
    ASSERT_NE(dot, nullptr);
    EXPECT_EQ(dot->isa, Isa::neon);
    EXPECT_EQ(dot->instruction, "sdot v.4s");
  }
}

TEST(QuantDotArm64, DotProductRowsNeedAsimddp) {
  IsaFeatures a72 = features_for(Isa::neon);
  a72.neon_dotprod = false;  // Cortex-A72 (Graviton 1): ARMv8.0, NEON without SDOT
  const IsaFeatures n1 = features_for(Isa::neon);
  for (const QuantFormat f : all_quant_formats()) {
    SCOPED_TRACE(std::string(to_string(f)));
    EXPECT_EQ(best(f, a72), "neon");
    EXPECT_EQ(best(f, n1), f == QuantFormat::int4 ? "neon" : "neon_dotprod");
    EXPECT_EQ(best(f, features_for(Isa::scalar)), "scalar");  // --max-isa scalar
  }
}

// Every format of one ISA's rows on odd shapes (an odd q8_0/q4_0 block count: the two-block loop's tail; 3 K blocks;
// 3 int4 groups), 13 rows, a batch of 3, 1 and 2 threads; a corrupted output must fail.
void validate_isa(std::string_view isa) {
  int ran = 0;
  for (const QuantFormat f : all_quant_formats()) {
    const QuantDotVariant* v = find(f, isa);
    if (v == nullptr) continue;
    SCOPED_TRACE(std::string(v->name));
    const std::int64_t cols = f == QuantFormat::int4 ? 3 * 128 : (f == QuantFormat::q8_0 || f == QuantFormat::q4_0) ? 32 * 11 : 3 * 256;
    const QuantMatrix w = make_quant_matrix(f, 13, cols, 11);
    std::vector<QuantVector> x;
    for (int c = 0; c < 3; ++c) x.push_back(make_quant_vector(f, cols, 200 + c));
    for (const int threads : {1, 2}) {
      std::vector<float> y(static_cast<std::size_t>(3 * w.rows), -1.0f);
      run_quant_gemv(*v, w, x.data(), 3, threads, y.data());
      const auto err = validate_quant_gemv(w, x.data(), 3, y.data());
      EXPECT_FALSE(err.has_value()) << threads << " threads: " << err.value_or("");
      double magnitude = 0.0;
      quant_dot_reference(w, x[1], 5, &magnitude);
      y[w.rows + 5] += static_cast<float>(0.01 * magnitude);
      EXPECT_TRUE(validate_quant_gemv(w, x.data(), 3, y.data()).has_value());
    }
    ++ran;
  }
  EXPECT_GE(ran, 5);
}

TEST(QuantDotArm64, NeonKernelsValidate) {
  if (!host_features().neon) GTEST_SKIP() << "HWCAP lacks asimd (Advanced SIMD)";
  validate_isa("neon");
}

TEST(QuantDotArm64, NeonDotprodKernelsValidate) {
  if (!host_features().neon_dotprod) GTEST_SKIP() << "HWCAP lacks asimddp (the dot-product extension, SDOT)";
  validate_isa("neon_dotprod");
}

}  // namespace
}  // namespace roofline
