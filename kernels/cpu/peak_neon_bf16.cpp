// The bf16 peaks on NEON (the BF16 extension of ARMv8.6, optional from ARMv8.2: Neoverse V1, N2, V2 and later; compiled
// with +bf16 for this translation unit only, run where HWCAP2 says bf16), fp32 accumulators as x86's vdpbf16ps:
//   BFDOT v.4s, v.8h, v.8h: each 32-bit lane adds the 2 products of its bf16 pair, 16 FLOP per instruction;
//   BFMMLA v.4s, v.8h, v.8h: the 2x4 bf16 of the first source by the 4x2 of the second (each column 4 contiguous
//   elements) into a 2x2 block of fp32 accumulators, 16 multiply-adds: 32 FLOP per instruction.
// Every bf16 element holds m or a (peak_bf16.hpp), powers of two, so each lane adds exactly 2 m a (BFDOT) or 4 m a
// (BFMMLA) per trip whatever the instructions' rounding (round to odd without FEAT_EBF16): the closed forms of
// peak_expected's dot and mmla.
#include "peak_arm64.hpp"
#include "peak_bf16.hpp"

namespace roofline::peak_isa {
namespace {

ROOFLINE_BF16_KERNEL(dot_bf16_neon, 16, kChainsA64, ROOFLINE_A64_LOOP20(n, "bfdot", "4s", "8h", m, a))
ROOFLINE_PEAK_ROW(dot_bf16_neon, PeakOp::dot, Precision::bf16, Isa::neon, 128, kChainsA64, kNeedsNeonBf16, "bfdot v.4s")
ROOFLINE_BF16_KERNEL(mmla_bf16_neon, 16, kChainsA64, ROOFLINE_A64_LOOP20(n, "bfmmla", "4s", "8h", m, a))
ROOFLINE_PEAK_ROW(mmla_bf16_neon, PeakOp::mmla, Precision::bf16, Isa::neon, 128, kChainsA64, kNeedsNeonBf16, "bfmmla v.4s")

}  // namespace

ROOFLINE_PEAK_TABLE(kNeonBf16Rows, dot_bf16_neon_row, mmla_bf16_neon_row)

}  // namespace roofline::peak_isa
