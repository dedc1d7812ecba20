// The int8 dot-product peak on ARM64's NEON with the dot-product extension (SDOT: ARMv8.2's asimddp, every Neoverse
// and Cortex-A76 or later; compiled with +dotprod for this translation unit only, run where HWCAP says asimddp): each
// 32-bit lane adds the 4 products of its signed bytes. The bytes are peak_int8.hpp's (m, m, m, m) . (a, a, a, -a), all
// below 128, so SDOT's signed products equal the x86 kernels' unsigned-by-signed ones: the same closed form.
#include "peak_arm64.hpp"
#include "peak_int8.hpp"

namespace roofline::peak_isa {
namespace {

ROOFLINE_INT8_PEAK(dot_int8_neon, Isa::neon, 16, kChainsA64, kNeedsNeonDotprod, "sdot v.4s", ROOFLINE_A64_LOOP20(n, "sdot", "4s", "16b", m, a))

}  // namespace

ROOFLINE_PEAK_TABLE(kNeonDotRows, dot_int8_neon_row)

}  // namespace roofline::peak_isa
