// The vocabulary (precisions, ISA levels, memory levels, engines) and the --max-isa cap.
#include <gtest/gtest.h>

#include "roofline/common/vocabulary.hpp"

namespace roofline {

TEST(Types, PrecisionNamesRoundTrip) {
  for (Precision p : all_precisions()) EXPECT_EQ(parse_precision(to_string(p)), p);
  EXPECT_EQ(to_string(Precision::tf32), "tf32");
  EXPECT_EQ(to_string(Precision::fp8), "fp8");
  EXPECT_FALSE(parse_precision("fp4").has_value());
  EXPECT_FALSE(parse_precision("FP32").has_value());
  EXPECT_EQ(element_bytes(Precision::fp64), 8);
  EXPECT_EQ(element_bytes(Precision::bf16), 2);
  EXPECT_EQ(element_bytes(Precision::int8), 1);
  EXPECT_EQ(element_bytes(Precision::tf32), 4);  // stored as fp32; the tensor cores read 19 bits of it
  EXPECT_EQ(element_bytes(Precision::fp8), 1);
  EXPECT_FALSE(is_integer(Precision::fp8));
  EXPECT_TRUE(is_integer(Precision::int32));
  EXPECT_EQ(rate_unit(Precision::int32), "OP/s");
  EXPECT_TRUE(is_integer(Precision::int8));
  EXPECT_FALSE(is_integer(Precision::fp32));
  EXPECT_EQ(rate_unit(Precision::int8), "OP/s");
  EXPECT_EQ(rate_unit(Precision::bf16), "FLOP/s");
  EXPECT_EQ(all_precisions().size(), 8u);
}

TEST(Types, LevelsInOrderAndRoundTrip) {
  ASSERT_EQ(all_levels().size(), 4u);
  EXPECT_EQ(to_string(all_levels().front()), "L1");
  EXPECT_EQ(to_string(all_levels().back()), "DRAM");
  ASSERT_EQ(cache_levels().size(), 3u);
  EXPECT_EQ(cache_levels().back(), Level::L3);
  for (Level l : all_levels()) EXPECT_EQ(parse_level(to_string(l)), l);
  EXPECT_FALSE(parse_level("L4").has_value());
  EXPECT_FALSE(parse_level("dram").has_value());
}

TEST(Types, PageSizesAndEnginesRoundTrip) {
  EXPECT_EQ(to_string(PageSize::huge_2m), "2M");
  EXPECT_EQ(to_string(PageSize::base_4k), "4K");
  EXPECT_EQ(parse_page_size("4K"), PageSize::base_4k);
  for (const char* bad : {"4k", "1G"}) EXPECT_FALSE(parse_page_size(bad).has_value()) << bad;
  EXPECT_EQ(to_string(Engine::vector), "vector");
  EXPECT_EQ(to_string(Engine::matrix), "matrix");
  EXPECT_EQ(parse_engine("matrix"), Engine::matrix);
  EXPECT_FALSE(parse_engine("tensor").has_value());
}

TEST(Types, IsaNamesAndOrder) {
  for (Isa i : {Isa::scalar, Isa::sse, Isa::avx2, Isa::avx_vnni, Isa::avx512}) EXPECT_EQ(parse_isa(to_string(i)), i);
  EXPECT_FALSE(parse_isa("avx1024").has_value());
  EXPECT_LT(isa_rank(Isa::sse), isa_rank(Isa::avx2));
  EXPECT_EQ(isa_rank(Isa::avx2), isa_rank(Isa::avx_vnni));
  EXPECT_EQ(vector_bits(Isa::avx512), 512);
  EXPECT_EQ(vector_bits(Isa::scalar), 64);
}

IsaFeatures everything() {
  IsaFeatures f;
  f.sse2 = f.sse4_2 = f.avx = f.avx2 = f.fma = f.f16c = true;
  f.avx512f = f.avx512dq = f.avx512bw = f.avx512vl = f.avx512_vnni = f.avx512_bf16 = f.avx512_fp16 = true;
  f.avx_vnni = f.amx_tile = f.amx_bf16 = f.amx_int8 = true;
  return f;
}

TEST(Types, CapSwitchesOffEverythingAbove) {
  const IsaFeatures all = everything();
  EXPECT_TRUE(all.supports(Isa::avx512));
  const IsaFeatures avx2 = all.capped(Isa::avx2);
  EXPECT_FALSE(avx2.supports(Isa::avx512));
  EXPECT_FALSE(avx2.avx512_bf16);
  EXPECT_TRUE(avx2.supports(Isa::avx2));
  EXPECT_TRUE(avx2.supports(Isa::avx_vnni));
  const IsaFeatures sse = all.capped(Isa::sse);
  EXPECT_FALSE(sse.supports(Isa::avx2));
  EXPECT_TRUE(sse.supports(Isa::sse));
  const IsaFeatures scalar = all.capped(Isa::scalar);
  EXPECT_FALSE(scalar.supports(Isa::sse));
  EXPECT_TRUE(scalar.supports(Isa::scalar));
  // A cap never raises: capping at avx512 after avx2 stays at avx2.
  EXPECT_FALSE(avx2.capped(Isa::avx512).supports(Isa::avx512));
}

TEST(Types, MissingFeaturesAreNotSupported) {
  IsaFeatures f;
  f.sse2 = true;
  f.avx2 = true;  // but no FMA
  EXPECT_FALSE(f.supports(Isa::avx2));
  f.avx512f = true;  // F alone is not enough for our avx512 kernels
  EXPECT_FALSE(f.supports(Isa::avx512));
}

}  // namespace roofline
