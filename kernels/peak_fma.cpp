// Scalar and 128-bit FMA peak: VEX vfmadd213sd/ss and vfmadd213pd/ps on xmm registers. Compiled with
// -mavx -mfma; runs where cpuid reports FMA.
#include "peak_isa.hpp"

namespace roofline::peak_isa {
namespace {

ROOFLINE_FP_KERNEL(fma_fp64_scalar, double, 8, kChainsLegacy, ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213sd"), ROOFLINE_ACC12("+x"), m, a, "x"))
ROOFLINE_FP_KERNEL(fma_fp32_scalar, float, 4, kChainsLegacy, ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213ss"), ROOFLINE_ACC12("+x"), m, a, "x"))
ROOFLINE_FP_KERNEL(fma_fp64_sse, double, 16, kChainsLegacy, ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213pd"), ROOFLINE_ACC12("+x"), m, a, "x"))
ROOFLINE_FP_KERNEL(fma_fp32_sse, float, 16, kChainsLegacy, ROOFLINE_CHAIN_LOOP(n, ROOFLINE_STEPS12("vfmadd213ps"), ROOFLINE_ACC12("+x"), m, a, "x"))

}  // namespace

// The rows of this file's kernels (peak_isa.hpp). FMA: 2 FLOP per lane.
const PeakVariant kFmaData[] = {
    {"fma_fp64_scalar", PeakOp::fma, Precision::fp64, Isa::scalar, 64, kChainsLegacy, kChainsLegacy, 2, kNeedsFma, "vfmadd213sd", fma_fp64_scalar},
    {"fma_fp64_sse", PeakOp::fma, Precision::fp64, Isa::sse, 128, kChainsLegacy, kChainsLegacy, 4, kNeedsFma, "vfmadd213pd xmm", fma_fp64_sse},
    {"fma_fp32_scalar", PeakOp::fma, Precision::fp32, Isa::scalar, 32, kChainsLegacy, kChainsLegacy, 2, kNeedsFma, "vfmadd213ss", fma_fp32_scalar},
    {"fma_fp32_sse", PeakOp::fma, Precision::fp32, Isa::sse, 128, kChainsLegacy, kChainsLegacy, 8, kNeedsFma, "vfmadd213ps xmm", fma_fp32_sse},
};
extern const PeakRows kFmaRows = {kFmaData, std::size(kFmaData)};

}  // namespace roofline::peak_isa
