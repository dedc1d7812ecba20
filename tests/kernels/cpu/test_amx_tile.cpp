// AMX tile semantics without AMX: the scalar replay of TDPBF16PS/TDPFP16PS/TDPBSSD/TDPBUSD (amx_tile.hpp)
// checked on hand-computed tiles, then used as a stand-in for the tile peak kernels so that the expected
// accumulators (peak_expected) and the validator (validate_peak) are tested on any x86-64.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include "roofline/kernels/cpu/amx_tile.hpp"
#include "roofline/kernels/cpu/peak.hpp"

namespace roofline {
namespace {

using Acc = std::array<std::uint32_t, kTileElements>;

const PeakVariant& variant(std::string_view name) {
  for (const PeakVariant& v : peak_variants()) {
    if (v.name == name) return v;
  }
  ADD_FAILURE() << "no variant " << name;
  return peak_variants()[0];
}

// What the tile kernel of `v` writes for one thread after n trips, replayed in scalar code: chain c starts at
// start + c * chain_step and gains one instruction per trip.
std::vector<double> replay(const PeakVariant& v, TileOp op, std::int64_t n, const PeakInputs& in) {
  const TileBytes a = tile_a_operand(op, in.multiplier), b = tile_b_operand(op, in.addend);
  std::vector<double> out(static_cast<std::size_t>(v.accumulators()));
  for (int c = 0; c < v.chains; ++c) {
    Acc acc;
    tile_fill(op, acc, in.start + c * in.chain_step);
    for (std::int64_t t = 0; t < n; ++t) tile_dot_reference(op, acc, a, b);
    for (int i = 0; i < kTileElements; ++i) out[static_cast<std::size_t>(c * kTileElements + i)] = tile_element(op, acc, i);
  }
  return out;
}

void set_byte(TileBytes& t, int row, int index, int value) {
  t.bytes[static_cast<std::size_t>(row * kTileBytesPerRow + index)] = static_cast<std::uint8_t>(static_cast<std::int8_t>(value));
}

void set_bf16(TileBytes& t, int row, int element, float value) {
  const auto h = static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(value) >> 16);
  std::memcpy(&t.bytes[static_cast<std::size_t>(row * kTileBytesPerRow + 2 * element)], &h, 2);
}

TEST(AmxTileReference, Bf16FollowsTheVnniLayout) {
  // A[m][2k+i] = m + 1 and B[k][2n+i] = k - n (B's row k holds the K-pair k of every column n):
  // C[m][n] = sum_k 2 (m + 1)(k - n) = 2 (m + 1) (120 - 16 n).
  TileBytes a, b;
  for (int r = 0; r < kTileRows; ++r) {
    for (int e = 0; e < 32; ++e) {
      set_bf16(a, r, e, static_cast<float>(r + 1));
      set_bf16(b, r, e, static_cast<float>(r - e / 2));
    }
  }
  Acc c;
  tile_fill(TileOp::bf16_ps, c, 0.5);
  tile_dot_reference(TileOp::bf16_ps, c, a, b);
  for (int m = 0; m < kTileRows; ++m) {
    for (int n = 0; n < kTileGroups; ++n) {
      EXPECT_EQ(tile_element(TileOp::bf16_ps, c, m * 16 + n), 0.5 + 2.0 * (m + 1) * (120 - 16 * n)) << m << "," << n;
    }
  }
}

TEST(AmxTileReference, SignednessOfTheInt8Forms) {
  // A's byte 0xFE is -2 for TDPBSSD (s8 x s8) and 254 for TDPBUSD (u8 x s8); B is signed in both.
  TileBytes a, b;
  set_byte(a, 0, 0, -2);
  set_byte(b, 0, 0, -3);  // row 0 = K-group 0; byte 0 = column 0's first product
  set_byte(a, 1, 7, 5);   // A row 1, group 1, byte 3
  set_byte(b, 1, 3, 4);   // B row 1 (group 1), column 0, byte 3
  Acc ss{}, us{};
  tile_dot_reference(TileOp::s8s8, ss, a, b);
  tile_dot_reference(TileOp::u8s8, us, a, b);
  EXPECT_EQ(tile_element(TileOp::s8s8, ss, 0), 6.0);     // (-2)(-3)
  EXPECT_EQ(tile_element(TileOp::u8s8, us, 0), -762.0);  // 254 (-3)
  EXPECT_EQ(tile_element(TileOp::s8s8, ss, 16), 20.0);   // C[1][0] = 5 x 4
  EXPECT_EQ(tile_element(TileOp::s8s8, ss, 1), 0.0);
}

TEST(AmxTileReference, Int32AccumulatorsWrapAsTheInstructionDoes) {
  TileBytes a = tile_a_operand(TileOp::s8s8, 127), b = tile_b_operand(TileOp::s8s8, 127);
  Acc c;
  tile_fill(TileOp::s8s8, c, 2147483647.0);
  tile_dot_reference(TileOp::s8s8, c, a, b);  // + 32 x 127 x 127 = 516128
  EXPECT_EQ(tile_element(TileOp::s8s8, c, 0), static_cast<double>(static_cast<std::int32_t>(2147483647u + 516128u)));
}

struct TileCase {
  const char* variant;
  TileOp op;
};

class TilePeak : public ::testing::TestWithParam<TileCase> {};

TEST_P(TilePeak, ReplayMatchesTheClosedFormAndTheValidatorCatchesErrors) {
  const PeakVariant& v = variant(GetParam().variant);
  const PeakInputs in = default_peak_inputs(v);
  EXPECT_EQ(v.op, PeakOp::tile);
  EXPECT_EQ(v.chains, 4);
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{37}}) {
    const std::vector<double> out = replay(v, GetParam().op, n, in);
    for (int c = 0; c < v.chains; ++c) EXPECT_EQ(out[static_cast<std::size_t>(c * kTileElements)], peak_expected(v, n, in, c));
    EXPECT_FALSE(validate_peak(v, n, in, 1, out.data()).has_value()) << *validate_peak(v, n, in, 1, out.data());
  }
  // The closed form is 32 m a per trip on every element.
  EXPECT_EQ(peak_expected(v, 10, in, 0) - peak_expected(v, 9, in, 0), 32.0 * in.multiplier * in.addend);
  // A missed trip, and one wrong element of the last tile, are both caught.
  std::vector<double> out = replay(v, GetParam().op, 5, in);
  EXPECT_TRUE(validate_peak(v, 6, in, 1, out.data()).has_value());
  out[static_cast<std::size_t>(3 * kTileElements + 255)] += 1.0;
  const auto err = validate_peak(v, 5, in, 1, out.data());
  ASSERT_TRUE(err.has_value());
  EXPECT_NE(err->find("chain 3 lane 255"), std::string::npos) << *err;
}

TEST_P(TilePeak, ExactAtTheIterationBound) {
  // Every element of a chain takes the same values, so one element stands for the tile: its products added
  // one at a time in its own type, as the replay (and the SDM) does, up to the harness's largest trip count.
  const PeakVariant& v = variant(GetParam().variant);
  const PeakInputs in = default_peak_inputs(v);
  const std::int64_t n = max_peak_iterations(v);
  const int chain = v.chains - 1;
  if (GetParam().op == TileOp::bf16_ps || GetParam().op == TileOp::fp16_ps) {
    auto x = static_cast<float>(in.start + chain * in.chain_step);
    const auto product = static_cast<float>(in.multiplier * in.addend);
    for (std::int64_t t = 0; t < n * 32; ++t) x += product;
    EXPECT_EQ(static_cast<double>(x), peak_expected(v, n, in, chain));
  } else {
    EXPECT_LT(peak_expected(v, n, in, chain), 2147483647.0);  // no int32 wrap-around on the way
  }
  // The full replay agrees with the one-element model on a short run.
  EXPECT_EQ(replay(v, GetParam().op, 3, in)[static_cast<std::size_t>(chain * kTileElements + 17)], peak_expected(v, 3, in, chain));
}

INSTANTIATE_TEST_SUITE_P(AllTileInstructions, TilePeak,
                         ::testing::Values(TileCase{"tile_bf16_amx", TileOp::bf16_ps},
                                           TileCase{"tile_fp16_amx", TileOp::fp16_ps},
                                           TileCase{"tile_int8_ss_amx", TileOp::s8s8},
                                           TileCase{"tile_int8_us_amx", TileOp::u8s8}),
                         [](const auto& info) { return std::string(info.param.variant); });

}  // namespace
}  // namespace roofline
