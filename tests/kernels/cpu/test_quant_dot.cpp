// The dequant-dot kernels (issue 38): the block sizes llm counts, the reference's decoding of hand-made
// blocks (ggml's formulas), every format x ISA kernel this CPU runs validated against it (odd block counts,
// several rows, batch and threads), and a validator that fails a wrong result. Every architecture (issue 62: x86-64's
// rows and ARM64's NEON rows alike; test_quant_dot_arm64.cpp has ARM64's dispatch and per-ISA runs).
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "host_features.hpp"
#include "roofline/kernels/cpu/quant_dot.hpp"

namespace roofline {
namespace {

IsaFeatures features() { return testing::host_features(); }

TEST(QuantDot, BlockBytesAreTheFormatsLlmCounts) {
  // bits per weight as analysis/llm/quant.cpp counts them: 8.5, 4.5, 4.5, 5.5, 6.5625, 4 + 16/G.
  EXPECT_EQ(quant_block_bytes(QuantFormat::q8_0) * 8.0 / quant_block_weights(QuantFormat::q8_0), 8.5);
  EXPECT_EQ(quant_block_bytes(QuantFormat::q4_0) * 8.0 / quant_block_weights(QuantFormat::q4_0), 4.5);
  EXPECT_EQ(quant_block_bytes(QuantFormat::q4_k) * 8.0 / quant_block_weights(QuantFormat::q4_k), 4.5);
  EXPECT_EQ(quant_block_bytes(QuantFormat::q5_k) * 8.0 / quant_block_weights(QuantFormat::q5_k), 5.5);
  EXPECT_EQ(quant_block_bytes(QuantFormat::q6_k) * 8.0 / quant_block_weights(QuantFormat::q6_k), 6.5625);
  EXPECT_EQ(quant_block_bytes(QuantFormat::int4, 128) * 8.0 / 128, 4.0 + 16.0 / 128);
  EXPECT_EQ(quant_activation_bytes(QuantFormat::q4_k, 512), 2 * 292);
  EXPECT_EQ(quant_activation_bytes(QuantFormat::q4_0, 64), 2 * 34);
  EXPECT_EQ(quant_activations(QuantFormat::int4), "fp32");
}

TEST(QuantDot, ReferenceDecodesHandMadeBlocks) {
  // q4_0: d = 0.5 (fp16 0x3800); byte j holds weight j (low nibble) and j + 16 (high).
  QuantMatrix w{QuantFormat::q4_0, 128, 1, 32, decltype(QuantMatrix::bytes)(18, 0)};
  const std::uint16_t half = 0x3800;
  std::memcpy(w.bytes.data(), &half, 2);
  w.bytes[2] = 0xF0;  // weight 0 = 0.5 (0 - 8) = -4, weight 16 = 0.5 (15 - 8) = 3.5; others 0.5 (0 - 8)
  QuantVector x = make_quant_vector(QuantFormat::q4_0, 32, 1);
  // Activations: e_i = 1 at 0 and 16 only, with d = 1 (fp16 0x3c00).
  std::vector<std::uint8_t> xb(34, 0);
  const std::uint16_t one = 0x3c00;
  std::memcpy(xb.data(), &one, 2);
  xb[2] = 1;
  xb[2 + 16] = 1;
  x.bytes.assign(xb.begin(), xb.end());
  EXPECT_DOUBLE_EQ(quant_dot_reference(w, x, 0), -4.0 + 3.5);

  // q4_k: sub-block 5's scale (j >= 4: low nibble of byte j + 4, high bits from byte j - 4) and min.
  QuantMatrix k{QuantFormat::q4_k, 128, 1, 256, decltype(QuantMatrix::bytes)(144, 0)};
  std::memcpy(k.bytes.data(), &one, 2);   // d = 1
  std::memcpy(k.bytes.data() + 2, &one, 2);  // dmin = 1
  std::uint8_t* scales = k.bytes.data() + 4;
  scales[9] = 0x32;            // sub-block 5: scale low 4 bits 2, min low 4 bits 3
  scales[1] = 1u << 6;         // scale bit 4 from byte j - 4 = 1: scale = 2 + 16 = 18
  scales[5] = 2u << 6;         // min bits 4..5 from byte j = 5: min = 3 + 32 = 35
  k.bytes[16 + 32 * 2 + 7] = 0x40;  // chunk 2, high nibble (sub-block 5), l = 7: q = 4
  std::vector<std::uint8_t> kb(292, 0);
  const float d1 = 1.0f;
  std::memcpy(kb.data(), &d1, 4);
  kb[4 + 64 * 2 + 32 + 7] = 1;  // activation of weight 64 * 2 + 32 + 7
  QuantVector kx{QuantFormat::q4_k, 256, {kb.begin(), kb.end()}};
  EXPECT_DOUBLE_EQ(quant_dot_reference(k, kx, 0), 18.0 * 4 - 35.0);
}

// The activation vector is 64-byte aligned whatever the heap did before (quant_dot.hpp): int4's fp32 activations are
// loaded a 512-bit vector at a time, and a heap block's 16-byte alignment split every load over two cache lines in
// some runs and not others (issue 59: dequant int4 at 16-17 or 19-20 Gweights/s by run).
TEST(QuantDot, ActivationsAreAlignedToACacheLine) {
  std::vector<std::vector<char>> heap_noise;
  for (const QuantFormat f : {QuantFormat::q8_0, QuantFormat::q4_k, QuantFormat::int4}) {
    for (int i = 0; i < 8; ++i) {
      heap_noise.emplace_back(static_cast<std::size_t>(8 + 24 * i));
      const QuantVector x = make_quant_vector(f, 256, static_cast<std::uint64_t>(i));
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(x.bytes.data()) % 64, 0u) << to_string(f) << " after " << i;
    }
  }
}

TEST(QuantDot, EveryKernelThisCpuRunsValidates) {
  const IsaFeatures f = features();
  std::set<std::string> ran;
  for (const QuantDotVariant& v : quant_dot_variants()) {
    if (!quant_dot_runnable(v, f)) continue;
    // Odd block counts (the 512-bit q8_0/q4_0 tails), 3 K blocks, 2 int4 groups of 128 plus one.
    const std::int64_t cols = v.format == QuantFormat::int4 ? 3 * 128 : (v.format == QuantFormat::q8_0 || v.format == QuantFormat::q4_0) ? 32 * 11 : 3 * 256;
    const QuantMatrix w = make_quant_matrix(v.format, 13, cols, 7);
    std::vector<QuantVector> x;
    for (int c = 0; c < 3; ++c) x.push_back(make_quant_vector(v.format, cols, 100 + c));
    for (const int threads : {1, 2}) {
      std::vector<float> y(static_cast<std::size_t>(3 * w.rows), -1.0f);
      run_quant_gemv(v, w, x.data(), 3, threads, y.data());
      const auto err = validate_quant_gemv(w, x.data(), 3, y.data());
      EXPECT_FALSE(err.has_value()) << v.name << " at " << threads << " threads: " << err.value_or("");
    }
    ran.insert(std::string(v.isa_name));
  }
  EXPECT_TRUE(ran.count("scalar"));
  if (f.supports(Isa::avx512) && f.avx512_vnni) {
    EXPECT_TRUE(ran.count("avx512_vnni"));
  }
  if (f.avx_vnni && f.supports(Isa::avx2)) {
    EXPECT_TRUE(ran.count("avx_vnni"));
  }
  if (f.neon) {  // ARM64 (issue 62)
    EXPECT_TRUE(ran.count("neon"));
  }
  if (f.neon && f.neon_dotprod) {
    EXPECT_TRUE(ran.count("neon_dotprod"));
  }
}

TEST(QuantDot, TheTeamFillsTheSameBytesAsOneThreadsSequence) {
  // issue 60: the weights' random bytes are filled by the OpenMP team; each 8-byte step is splitmix64 of its own
  // state, so any team gives the bytes of one thread's sequence (the last step cut short: 3 blocks of 34 bytes).
  for (const int threads : {1, 2, 3, 7}) {
    const int before = omp_get_max_threads();
    omp_set_num_threads(threads);
    const QuantMatrix w = make_quant_matrix(QuantFormat::q8_0, 3, 32, 42);
    omp_set_num_threads(before);
    ASSERT_EQ(w.bytes.size(), 102u);
    std::vector<std::uint8_t> expected(w.bytes.size());
    std::uint64_t state = 42;
    for (std::size_t i = 0; i < expected.size(); i += 8) {
      std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      z ^= z >> 31;
      std::memcpy(expected.data() + i, &z, std::min<std::size_t>(8, expected.size() - i));
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
      if (i % 34 < 2) continue;  // each block's fp16 scale, drawn after the fill
      EXPECT_EQ(w.bytes[i], expected[i]) << "byte " << i << " with " << threads << " threads";
    }
  }
}

TEST(QuantDot, EachThreadsOwnTimeIsAddedAndItsRowsCoverTheMatrix) {
  // issue 59: the per-thread times and rows behind the dequant-dot rows' thread_rate_spread.
  const QuantMatrix w = make_quant_matrix(QuantFormat::q8_0, 37, 32 * 4, 5);
  const QuantVector x = make_quant_vector(QuantFormat::q8_0, 32 * 4, 6);
  std::vector<float> y(static_cast<std::size_t>(w.rows));
  std::vector<double> seconds(2, 0.0);
  run_quant_gemv(quant_dot_scalar(QuantFormat::q8_0), w, &x, 1, 2, y.data(), 3, seconds.data());
  EXPECT_GT(seconds[0], 0.0);
  EXPECT_GT(seconds[1], 0.0);
  EXPECT_FALSE(validate_quant_gemv(w, &x, 1, y.data()).has_value());
  for (const int threads : {1, 2, 3, 5}) {
    std::int64_t next = 0;
    for (int t = 0; t < threads; ++t) {
      const auto [begin, end] = quant_gemv_rows(w.rows, threads, t);
      EXPECT_EQ(begin, next);
      EXPECT_LE(begin, end);
      next = end;
    }
    EXPECT_EQ(next, w.rows);
  }
}

TEST(QuantDot, ValidatorFailsAWrongResult) {
  const QuantMatrix w = make_quant_matrix(QuantFormat::q6_k, 4, 256, 3);
  const QuantVector x = make_quant_vector(QuantFormat::q6_k, 256, 4);
  std::vector<float> y(4);
  run_quant_gemv(quant_dot_scalar(QuantFormat::q6_k), w, &x, 1, 1, y.data());
  EXPECT_FALSE(validate_quant_gemv(w, &x, 1, y.data()).has_value());
  double magnitude = 0.0;
  quant_dot_reference(w, x, 2, &magnitude);
  y[2] += static_cast<float>(0.01 * magnitude);
  const auto err = validate_quant_gemv(w, &x, 1, y.data());
  ASSERT_TRUE(err.has_value());
  EXPECT_NE(err->find("row 2"), std::string::npos) << *err;
}

TEST(QuantDot, BadShapesAreRefused) {
  EXPECT_THROW(make_quant_matrix(QuantFormat::q4_k, 2, 128, 1), std::invalid_argument);
  EXPECT_THROW(make_quant_matrix(QuantFormat::int4, 2, 256, 1, 48), std::invalid_argument);
  EXPECT_EQ(parse_quant_format("q5_k"), QuantFormat::q5_k);
  EXPECT_FALSE(parse_quant_format("q5_1").has_value());
}

}  // namespace
}  // namespace roofline
