// The int8 matrix multiply-accumulate peak on NEON (SMMLA: the int8 matrix multiply extension, I8MM, of ARMv8.6 and
// optional from ARMv8.2: Neoverse V1, N2, V2 and later; compiled with +i8mm for this translation unit only, run where
// HWCAP2 says i8mm). One instruction multiplies the 2x8 signed bytes of its first source by the 8x2 of its second (each
// column 8 contiguous bytes) into a 2x2 block of int32 accumulators: 32 multiply-adds, 64 OP, twice SDOT's 32 on the
// same register. The bytes are peak_int8.hpp's, (m, m, m, m) and (a, a, a, -a) in every 32-bit group, so each lane adds
// 8 products, net 4 m a, per trip: peak_expected's mmla closed form. Engine, precision and labels as SDOT's row.
#include "peak_arm64.hpp"
#include "peak_int8.hpp"

namespace roofline::peak_isa {
namespace {

ROOFLINE_INT8_KERNEL(mmla_int8_neon, 16, kChainsA64, ROOFLINE_A64_LOOP20(n, "smmla", "4s", "16b", m, a))
ROOFLINE_PEAK_ROW(mmla_int8_neon, PeakOp::mmla, Precision::int8, Isa::neon, 128, kChainsA64, kNeedsNeonI8mm, "smmla v.4s")

}  // namespace

ROOFLINE_PEAK_TABLE(kNeonI8mmRows, mmla_int8_neon_row)

}  // namespace roofline::peak_isa
