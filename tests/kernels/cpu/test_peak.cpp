// Compute-peak kernels: the metadata table's counting, dispatch under --max-isa caps, the closed-form
// validators, and a short run of every variant this CPU supports.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "roofline/kernels/cpu/peak.hpp"

#include "host_features.hpp"

namespace roofline {
namespace {

IsaFeatures all_features() {
  IsaFeatures f;
  f.sse2 = f.sse4_2 = f.avx = f.avx2 = f.fma = f.f16c = true;
  f.avx512f = f.avx512dq = f.avx512bw = f.avx512vl = true;
  f.avx512_vnni = f.avx512_bf16 = f.avx512_fp16 = f.avx_vnni = true;
  f.amx_tile = f.amx_bf16 = f.amx_int8 = f.amx_fp16 = true;
  return f;
}

// Rows this build cannot run whatever the CPU (AMX-FP16 without a toolchain that encodes it).
std::size_t build_gaps() {
  std::size_t n = 0;
  for (const PeakVariant& v : peak_variants()) n += peak_build_gap(v).has_value() ? 1 : 0;
  return n;
}

// An AVX2 machine without AVX-512 or VNNI (Haswell .. Zen 3).
IsaFeatures avx2_only() {
  IsaFeatures f;
  f.sse2 = f.sse4_2 = f.avx = f.avx2 = f.fma = f.f16c = true;
  return f;
}

using testing::host_features;

std::set<std::string> names(const std::vector<const PeakVariant*>& vs) {
  std::set<std::string> out;
  for (const PeakVariant* v : vs) out.insert(std::string(v->name));
  return out;
}

// The row named `name`; a missing one fails the test with its name (rows are found by name, never by
// their place in the sorted table).
const PeakVariant& variant(std::string_view name) {
  for (const PeakVariant& v : peak_variants()) {
    if (v.name == name) return v;
  }
  throw std::runtime_error("no peak variant " + std::string(name));
}

// fp64 x5, fp32 x5 (scalar, sse, avx2, avx512 at 256 and 512 bits), bf16 x3, fp16 x3, int8 x5 (precision x
// isa x width), and 4 AMX tile rows (bf16, fp16, int8 s8 x s8 and u8 x s8: each tile instruction is its own
// row). Pinned on purpose: a row that appears or vanishes is a change to review.
constexpr std::size_t kRows = 25;
constexpr std::size_t kTileRows = 4;

TEST(PeakTable, CountsFollowTheConventions) {
  std::set<std::string> seen;
  for (const PeakVariant& v : peak_variants()) {
    SCOPED_TRACE(std::string(v.name));
    EXPECT_TRUE(seen.insert(std::string(v.name)).second) << "duplicate name";
    // The row counts by the header's one formula (peak_lanes x peak_ops_per_lane); that formula is pinned
    // against datasheet numbers, one instruction of each kind, in KnownInstructionsCountAsDatasheetsDo.
    EXPECT_EQ(v.ops_per_instruction, peak_lanes(v.op, v.precision, v.vector_bits) * peak_ops_per_lane(v.op, v.precision));
    EXPECT_EQ(v.instructions_per_iteration, v.op == PeakOp::muladd ? 2 * v.chains : v.chains);
    EXPECT_EQ(v.accumulators(), v.chains * v.lanes());
    EXPECT_GE(v.chains, v.op == PeakOp::tile ? 4 : v.vector_bits == 512 ? 12 : 8);
    EXPECT_EQ(v.engine(), v.isa == Isa::amx ? Engine::matrix : Engine::vector);
    EXPECT_EQ(v.unit(), v.precision == Precision::int8 ? "OP/s" : "FLOP/s");
    if (v.isa == Isa::scalar) {
      EXPECT_EQ(v.vector_bits, element_bytes(v.precision) * 8);
      EXPECT_EQ(v.lanes(), 1);
    } else if (v.precision == Precision::fp64 || v.precision == Precision::fp32) {
      // The ISA's width, or AVX-512's 256-bit (AVX512VL) forms.
      EXPECT_TRUE(v.vector_bits == vector_bits(v.isa) || (v.isa == Isa::avx512 && v.vector_bits == 256)) << v.vector_bits;
    }
    if (v.fn == nullptr) {
      EXPECT_TRUE(peak_build_gap(v).has_value());
    }
  }
}

TEST(PeakTable, KnownInstructionsCountAsDatasheetsDo) {
  const auto find = variant;
  EXPECT_EQ(find("fma_fp64_avx512").ops_per_instruction, 16);    // 8 lanes x 2
  EXPECT_EQ(find("fma_fp32_avx512").ops_per_instruction, 32);    // 16 lanes x 2
  EXPECT_EQ(find("fma_fp32_avx2").ops_per_instruction, 16);
  EXPECT_EQ(find("fma_fp64_avx512_256").ops_per_instruction, 8);    // 4 lanes x 2, EVEX ymm
  EXPECT_EQ(find("fma_fp32_avx512_256").ops_per_instruction, 16);   // 8 lanes x 2
  EXPECT_EQ(find("fma_fp32_avx512_256").chains, 20);                // AVX-512's 32 registers, not AVX2's 12 chains
  EXPECT_EQ(find("fma_fp32_avx512_256").vector_bits, 256);
  EXPECT_EQ(find("fma_fp64_scalar").ops_per_instruction, 2);
  EXPECT_EQ(find("muladd_fp64_sse").ops_per_instruction, 2);        // mulpd or addpd: 2 lanes x 1
  EXPECT_EQ(find("muladd_fp64_sse").instructions_per_iteration, 2 * find("muladd_fp64_sse").chains);
  EXPECT_EQ(find("dot_bf16_avx512_512").ops_per_instruction, 64);   // 16 lanes x 4
  EXPECT_EQ(find("fma_fp16_avx512_512").ops_per_instruction, 64);   // 32 lanes x 2
  EXPECT_EQ(find("dot_int8_avx512_512").ops_per_instruction, 128);  // 16 lanes x 8
  EXPECT_EQ(find("dot_int8_avx_vnni_256").ops_per_instruction, 64);
  EXPECT_EQ(find("fma_fp64_avx512").ops_per_iteration(), 16.0 * find("fma_fp64_avx512").chains);
  // One TDPBF16PS on full tiles: 16 x 16 x 32 multiply-adds = 16384 FLOP; TDPBSSD 16 x 16 x 64 = 32768 OP.
  EXPECT_EQ(find("tile_bf16_amx").ops_per_instruction, 16384);
  EXPECT_EQ(find("tile_int8_ss_amx").ops_per_instruction, 32768);
  EXPECT_EQ(find("tile_int8_us_amx").ops_per_instruction, 32768);
  EXPECT_EQ(find("tile_fp16_amx").ops_per_instruction, 16384);  // TDPFP16PS: as TDPBF16PS
  EXPECT_EQ(find("tile_bf16_amx").lanes(), 256);
  EXPECT_EQ(find("tile_fp16_amx").lanes(), 256);  // fp32 accumulators
  EXPECT_EQ(find("tile_bf16_amx").ops_per_cycle_per_core, 1024);
  EXPECT_EQ(find("tile_int8_ss_amx").ops_per_cycle_per_core, 2048);
}

TEST(PeakDispatch, EverythingRunsWithEveryFeature) {
  const PeakSelection s = select_peak_variants(all_features());
  EXPECT_EQ(s.runnable.size(), kRows - build_gaps());
  EXPECT_EQ(s.not_supported.size(), build_gaps());
  EXPECT_TRUE(names(s.runnable).count("tile_int8_ss_amx"));  // both int8 tile instructions run
  EXPECT_TRUE(names(s.runnable).count("tile_int8_us_amx"));
  EXPECT_TRUE(names(s.runnable).count("fma_fp64_scalar"));  // FMA preferred over mul+add
  EXPECT_FALSE(names(s.runnable).count("muladd_fp64_scalar"));
}

TEST(PeakDispatch, CapAtAvx2DropsAvx512Rows) {
  const PeakSelection s = select_peak_variants(all_features().capped(Isa::avx2));
  EXPECT_EQ(s.runnable.size() + s.not_supported.size(), kRows);
  for (const PeakVariant* v : s.runnable) EXPECT_NE(v->isa, Isa::avx512) << v->name;
  for (const PeakVariant* v : s.not_supported) EXPECT_TRUE(v->isa == Isa::avx512 || v->isa == Isa::amx) << v->name;
  const auto run = names(s.runnable);
  EXPECT_TRUE(run.count("fma_fp32_avx2"));
  EXPECT_TRUE(run.count("dot_int8_avx_vnni_256"));  // AVX_VNNI sits beside avx2
  // fp64/fp32 at 256 and 512 bits, bf16, fp16, int8 EVEX, tiles
  EXPECT_EQ(s.not_supported.size(), 4u + 3u + 3u + 3u + kTileRows);
}

TEST(PeakDispatch, CapAtAvx512RunsNoTileKernel) {
  const PeakSelection s = select_peak_variants(all_features().capped(Isa::avx512));
  for (const PeakVariant* v : s.runnable) EXPECT_NE(v->isa, Isa::amx) << v->name;
  EXPECT_EQ(s.not_supported.size(), kTileRows);
  EXPECT_TRUE(names(s.runnable).count("dot_bf16_avx512_512"));
}

TEST(PeakDispatch, CapAtSseFallsBackToMulAdd) {
  const PeakSelection s = select_peak_variants(all_features().capped(Isa::sse));
  const auto run = names(s.runnable);
  EXPECT_EQ(run, (std::set<std::string>{"muladd_fp64_scalar", "muladd_fp64_sse", "muladd_fp32_scalar",
                                        "muladd_fp32_sse"}));
  EXPECT_EQ(s.not_supported.size(), kRows - 4);
}

TEST(PeakDispatch, CapAtScalarKeepsOnlyScalar) {
  const PeakSelection s = select_peak_variants(all_features().capped(Isa::scalar));
  EXPECT_EQ(names(s.runnable), (std::set<std::string>{"muladd_fp64_scalar", "muladd_fp32_scalar"}));
}

TEST(PeakDispatch, Avx2MachineSaysNotSupportedForLowPrecision) {
  const PeakSelection s = select_peak_variants(avx2_only());
  EXPECT_EQ(s.runnable.size(), 6u);  // fp64/fp32 at scalar, 128, 256 bits
  for (const PeakVariant* v : s.not_supported) {
    EXPECT_TRUE(v->isa == Isa::avx512 || v->isa == Isa::avx_vnni || v->isa == Isa::amx) << v->name;
  }
}

TEST(PeakValidator, ClosedForms) {
  for (const PeakVariant& v : peak_variants()) {
    const PeakInputs in = default_peak_inputs(v);
    SCOPED_TRACE(std::string(v.name));
    EXPECT_EQ(peak_expected(v, 0, in, 3), in.start + 3 * in.chain_step);
  }
  PeakVariant fma = variant("fma_fp64_scalar");
  EXPECT_EQ(peak_expected(fma, 1000, {1.0, 0.5, 1.0, 0.25}, 2), 1.5 + 500.0);
  EXPECT_EQ(peak_expected(fma, 7, {-1.0, 3.0, 1.0, 0.0}, 0), 2.0);  // odd: 3 - x0
  EXPECT_EQ(peak_expected(fma, 8, {-1.0, 3.0, 1.0, 0.0}, 0), 1.0);  // even: x0
  EXPECT_DOUBLE_EQ(peak_expected(fma, 3, {0.5, 1.0, 0.0, 0.0}, 0), 1.75);  // 0 -> 1 -> 1.5 -> 1.75
  PeakVariant dot = fma;
  dot.op = PeakOp::dot;
  EXPECT_EQ(peak_expected(dot, 10, {2.0, 3.0, 5.0, 0.0}, 0), 5.0 + 10 * 12.0);  // int8: +2*m*a per trip
}

TEST(PeakValidator, CatchesAWrongLaneAndTheClock) {
  const PeakVariant& v = variant("muladd_fp64_scalar");  // runs on any x86-64
  const PeakInputs in = default_peak_inputs(v);
  std::vector<double> out(2 * v.accumulators());
  run_peak(v, 2, 1000, in, out.data());
  EXPECT_FALSE(validate_peak(v, 1000, in, 2, out.data()).has_value());
  EXPECT_TRUE(validate_peak(v, 999, in, 2, out.data()).has_value());  // a missed trip is caught
  out.back() += std::ldexp(1.0, -20);
  const auto err = validate_peak(v, 1000, in, 2, out.data());
  ASSERT_TRUE(err.has_value());
  EXPECT_NE(err->find("thread 1"), std::string::npos) << *err;

  std::vector<std::int64_t> clk(2);
  run_clock(2, 1000, 3, clk.data());
  EXPECT_EQ(clk[0], 1000 * kClockAddsPerIteration * 3);
  EXPECT_FALSE(validate_clock(2, 1000, 3, clk.data()).has_value());
  clk[1] -= 1;
  EXPECT_TRUE(validate_clock(2, 1000, 3, clk.data()).has_value());
}

TEST(PeakKernels, EverySupportedVariantValidatesOnThisCpu) {
  const IsaFeatures host = host_features();
  int ran = 0;
  for (const PeakVariant& v : peak_variants()) {
    if (!peak_runnable(v, host)) continue;
    SCOPED_TRACE(std::string(v.name));
    const PeakInputs in = default_peak_inputs(v);
    for (int threads : {1, 2}) {
      for (std::int64_t n : {std::int64_t{1}, std::int64_t{2001}}) {  // odd and even (fp16 alternates)
        std::vector<double> out(static_cast<std::size_t>(threads) * v.accumulators(), -7.0);
        run_peak(v, threads, n, in, out.data());
        const auto err = validate_peak(v, n, in, threads, out.data());
        EXPECT_FALSE(err.has_value()) << *err;
      }
    }
    ++ran;
  }
  EXPECT_GE(ran, 2);  // at least the SSE2 mul+add variants exist on every x86-64
}

TEST(PeakKernels, ExactUpToTheIterationBound) {
  // The closed form must hold at the largest trip count the harness may use (acc near its bound).
  const IsaFeatures host = host_features();
  for (const PeakVariant& v : peak_variants()) {
    if (!peak_runnable(v, host) || v.vector_bits != 128) continue;
    if (v.precision == Precision::fp16) continue;  // unbounded by construction
    SCOPED_TRACE(std::string(v.name));
    const PeakInputs in = default_peak_inputs(v);
    const std::int64_t n = std::min<std::int64_t>(max_peak_iterations(v), std::int64_t{1} << 22);
    std::vector<double> out(v.accumulators());
    run_peak(v, 1, n, in, out.data());
    const auto err = validate_peak(v, n, in, 1, out.data());
    EXPECT_FALSE(err.has_value()) << *err;
  }
}

}  // namespace
}  // namespace roofline
