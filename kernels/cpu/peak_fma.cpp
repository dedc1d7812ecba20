// VEX FMA peak at every width: vfmadd213sd/ss (scalar), vfmadd213pd/ps on xmm and on ymm. FMA3 on ymm
// needs AVX and FMA only, so one translation unit compiled with -mavx -mfma holds them all; the ymm rows
// still sit at the avx2 --max-isa level and ask for AVX2 too (kNeedsAvx2Fma), as the 256-bit rows always did.
#include "peak_isa.hpp"

namespace roofline::peak_isa {
namespace {

ROOFLINE_FP_PEAK(fma_fp64_scalar, PeakOp::fma, Isa::scalar, double, 8, kChainsLegacy, kNeedsFma, "vfmadd213sd", ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213sd"), ROOFLINE_ACC12("+x"), m, a, "x"))
ROOFLINE_FP_PEAK(fma_fp32_scalar, PeakOp::fma, Isa::scalar, float, 4, kChainsLegacy, kNeedsFma, "vfmadd213ss", ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213ss"), ROOFLINE_ACC12("+x"), m, a, "x"))
ROOFLINE_FP_PEAK(fma_fp64_sse, PeakOp::fma, Isa::sse, double, 16, kChainsLegacy, kNeedsFma, "vfmadd213pd xmm", ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213pd"), ROOFLINE_ACC12("+x"), m, a, "x"))
ROOFLINE_FP_PEAK(fma_fp32_sse, PeakOp::fma, Isa::sse, float, 16, kChainsLegacy, kNeedsFma, "vfmadd213ps xmm", ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213ps"), ROOFLINE_ACC12("+x"), m, a, "x"))

ROOFLINE_FP_PEAK(fma_fp64_avx2, PeakOp::fma, Isa::avx2, double, 32, kChainsLegacy, kNeedsAvx2Fma, "vfmadd213pd ymm", ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213pd"), ROOFLINE_ACC12("+x"), m, a, "x"))
ROOFLINE_FP_PEAK(fma_fp32_avx2, PeakOp::fma, Isa::avx2, float, 32, kChainsLegacy, kNeedsAvx2Fma, "vfmadd213ps ymm", ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213ps"), ROOFLINE_ACC12("+x"), m, a, "x"))

}  // namespace

ROOFLINE_PEAK_TABLE(kFmaRows, fma_fp64_scalar_row, fma_fp32_scalar_row, fma_fp64_sse_row, fma_fp32_sse_row,
                    fma_fp64_avx2_row, fma_fp32_avx2_row)

}  // namespace roofline::peak_isa
