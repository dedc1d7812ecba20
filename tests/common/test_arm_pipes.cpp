// The ARM64 pipe table (issue 62): what each known core issues per cycle, and nothing for rows it does not run.
#include <gtest/gtest.h>

#include "roofline/common/arm_pipes.hpp"

namespace roofline {
namespace {

using Pipes = std::vector<double>;

TEST(ArmPipes, NeoverseV2RunsFourFmaPipesOf128BitsInNeonAndSve) {
  EXPECT_EQ(known_arm_pipes("neoverse_v2", "fma", "fp64", "neon", 128), Pipes{4.0});
  EXPECT_EQ(known_arm_pipes("neoverse_v2", "fma", "fp32", "sve", 128), Pipes{4.0});
  EXPECT_EQ(known_arm_pipes("neoverse_v2", "dot", "int8", "sve", 128), Pipes{4.0});
  EXPECT_EQ(known_sve_bits("neoverse_v2"), 128);
}

TEST(ArmPipes, NeoverseV1RunsSveAt256BitsOnPairsOfPipes) {
  EXPECT_EQ(known_arm_pipes("neoverse_v1", "fma", "fp64", "neon", 128), Pipes{4.0});
  EXPECT_EQ(known_arm_pipes("neoverse_v1", "fma", "fp64", "sve", 256), Pipes{2.0});
  // Not its vector length: no row.
  EXPECT_TRUE(known_arm_pipes("neoverse_v1", "fma", "fp64", "sve", 128).empty());
  EXPECT_EQ(known_sve_bits("neoverse_v1"), 256);
}

TEST(ArmPipes, CoresWithoutSveOrOutsideTheTableHaveNoRow) {
  EXPECT_EQ(known_arm_pipes("neoverse_n1", "fma", "fp32", "neon", 128), Pipes{2.0});
  EXPECT_TRUE(known_arm_pipes("neoverse_n1", "fma", "fp32", "sve", 128).empty());
  EXPECT_EQ(known_sve_bits("neoverse_n1"), 0);
  EXPECT_TRUE(known_arm_pipes("cortex_a53", "fma", "fp32", "neon", 128).empty());
  EXPECT_TRUE(known_arm_pipes("zen4", "fma", "fp32", "neon", 128).empty());
  // A64FX: two 512-bit SVE pipes, no NEON row at 128 bits in the table and no dot row.
  EXPECT_EQ(known_arm_pipes("a64fx", "fma", "fp64", "sve", 512), Pipes{2.0});
  EXPECT_TRUE(known_arm_pipes("a64fx", "dot", "int8", "sve", 512).empty());
  // bf16 and int8 matrix rows are not in the table yet.
  EXPECT_TRUE(known_arm_pipes("neoverse_v2", "mmla", "bf16", "sve", 128).empty());
}

TEST(ArmPipes, TheTableGivesGracesAdvertisedFp64Peak) {
  // NVIDIA's Grace CPU Superchip: 144 Neoverse V2 cores, FP64 peak 7.1 TFLOPS: 4 pipes x 2 fp64 lanes x 2 FLOP per
  // FMA = 16 FLOP a cycle a core, so the datasheet assumes about 3.1 GHz.
  const double per_cycle = known_arm_pipes("neoverse_v2", "fma", "fp64", "neon", 128).at(0) * 2.0 * 2.0;
  EXPECT_DOUBLE_EQ(per_cycle, 16.0);
  EXPECT_NEAR(7.1e12 / (144.0 * per_cycle) / 1e9, 3.1, 0.05);
}

}  // namespace
}  // namespace roofline
