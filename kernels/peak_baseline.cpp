// Peak kernels without FMA, for CPUs without it or a --max-isa cap below avx2: dependent mul/add pairs in
// SSE2, scalar (mulsd/addsd, mulss/addss) and packed 128-bit (mulpd/addpd, mulps/addps). Baseline x86-64
// flags: every x86-64 runs them.
#include "peak_isa.hpp"

namespace roofline::peak_isa {
namespace {

#define ROOFLINE_MULADD_LOOP(mul, add) \
  ROOFLINE_CHAIN_LOOP(n, ROOFLINE_MULADD12(mul, add), ROOFLINE_ACC12("+x"), m, a, "x")
ROOFLINE_FP_KERNEL(muladd_fp64_scalar, double, 8, kChainsLegacy, ROOFLINE_MULADD_LOOP("mulsd", "addsd"))
ROOFLINE_FP_KERNEL(muladd_fp32_scalar, float, 4, kChainsLegacy, ROOFLINE_MULADD_LOOP("mulss", "addss"))
ROOFLINE_FP_KERNEL(muladd_fp64_sse, double, 16, kChainsLegacy, ROOFLINE_MULADD_LOOP("mulpd", "addpd"))
ROOFLINE_FP_KERNEL(muladd_fp32_sse, float, 16, kChainsLegacy, ROOFLINE_MULADD_LOOP("mulps", "addps"))
#undef ROOFLINE_MULADD_LOOP

}  // namespace

// The rows of this file's kernels (peak_isa.hpp). mul then add: 1 FLOP per lane each, two instructions per chain and trip.
const PeakVariant kBaselineData[] = {
    {"muladd_fp64_scalar", PeakOp::muladd, Precision::fp64, Isa::scalar, 64, kChainsLegacy, 2 * kChainsLegacy, 1, 0, "mulsd+addsd", muladd_fp64_scalar},
    {"muladd_fp64_sse", PeakOp::muladd, Precision::fp64, Isa::sse, 128, kChainsLegacy, 2 * kChainsLegacy, 2, 0, "mulpd+addpd", muladd_fp64_sse},
    {"muladd_fp32_scalar", PeakOp::muladd, Precision::fp32, Isa::scalar, 32, kChainsLegacy, 2 * kChainsLegacy, 1, 0, "mulss+addss", muladd_fp32_scalar},
    {"muladd_fp32_sse", PeakOp::muladd, Precision::fp32, Isa::sse, 128, kChainsLegacy, 2 * kChainsLegacy, 4, 0, "mulps+addps", muladd_fp32_sse},
};
extern const PeakRows kBaselineRows = {kBaselineData, std::size(kBaselineData)};

}  // namespace roofline::peak_isa
