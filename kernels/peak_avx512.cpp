// 512-bit FMA peak: EVEX vfmadd213pd/ps on zmm registers. Compiled with -mavx512f/dq/bw/vl.
#include "peak_isa.hpp"

namespace roofline::peak_isa {
namespace {

ROOFLINE_FP_KERNEL(fma_fp64_avx512, double, 64, kChainsEvex, ROOFLINE_CHAIN_LOOP20(n, "vfmadd213pd", m, a))
ROOFLINE_FP_KERNEL(fma_fp32_avx512, float, 64, kChainsEvex, ROOFLINE_CHAIN_LOOP20(n, "vfmadd213ps", m, a))

}  // namespace

// The rows of this file's kernels (peak_isa.hpp). FMA: 2 FLOP per lane.
const PeakVariant kAvx512Data[] = {
    {"fma_fp64_avx512", PeakOp::fma, Precision::fp64, Isa::avx512, 512, kChainsEvex, kChainsEvex, 16, kNeedsAvx512, "vfmadd213pd zmm", fma_fp64_avx512},
    {"fma_fp32_avx512", PeakOp::fma, Precision::fp32, Isa::avx512, 512, kChainsEvex, kChainsEvex, 32, kNeedsAvx512, "vfmadd213ps zmm", fma_fp32_avx512},
};
extern const PeakRows kAvx512Rows = {kAvx512Data, std::size(kAvx512Data)};

}  // namespace roofline::peak_isa
