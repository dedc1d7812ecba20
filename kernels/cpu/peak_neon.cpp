// Peak kernels on ARM64's Advanced SIMD (NEON, part of every ARMv8-A core, so no flags): FMLA on 128-bit registers,
// fp64 (2 lanes) and fp32 (4 lanes). FMLA only accumulates (x += m * a); no NEON form multiplies the accumulator. With
// the FMA rows' inputs (default_peak_inputs: m = 1) x * m + a and x + m * a are the same exact number at every trip,
// so the FMA closed form (peak_expected) validates these kernels; the peak tests run them under qemu.
#include "peak_arm64.hpp"

namespace roofline::peak_isa {
namespace {

ROOFLINE_FP_PEAK(fma_fp64_neon, PeakOp::fma, Isa::neon, double, 16, kChainsA64, 0, "fmla v.2d", ROOFLINE_A64_LOOP20(n, "fmla", "2d", "2d", m, a))
ROOFLINE_FP_PEAK(fma_fp32_neon, PeakOp::fma, Isa::neon, float, 16, kChainsA64, 0, "fmla v.4s", ROOFLINE_A64_LOOP20(n, "fmla", "4s", "4s", m, a))

}  // namespace

ROOFLINE_PEAK_TABLE(kNeonRows, fma_fp64_neon_row, fma_fp32_neon_row)

}  // namespace roofline::peak_isa
