// fp16 FMA peak: vfmadd213ph (AVX512_FP16) on zmm, ymm and xmm: 2 FLOP per 16-bit lane. Compiled with
// -mavx512f/dq/bw/vl -mavx512fp16; runs only where cpuid reports AVX512_FP16 (Sapphire Rapids and later).
#include "peak_isa.hpp"

namespace roofline::peak_isa {
namespace {

#define ROOFLINE_FP16_LOOP ROOFLINE_CHAIN_LOOP20(n, "vfmadd213ph", m, a)
ROOFLINE_FP_KERNEL(fma_fp16_avx512_512, _Float16, 64, kChainsEvex, ROOFLINE_FP16_LOOP)
ROOFLINE_FP_KERNEL(fma_fp16_avx512_256, _Float16, 32, kChainsEvex, ROOFLINE_FP16_LOOP)
ROOFLINE_FP_KERNEL(fma_fp16_avx512_128, _Float16, 16, kChainsEvex, ROOFLINE_FP16_LOOP)
#undef ROOFLINE_FP16_LOOP

}  // namespace

// The rows of this file's kernels (peak_isa.hpp). FMA on 16-bit lanes: 2 FLOP per lane.
const PeakVariant kAvx512Fp16Data[] = {
    {"fma_fp16_avx512_128", PeakOp::fma, Precision::fp16, Isa::avx512, 128, kChainsEvex, kChainsEvex, 16, kNeedsAvx512 | kNeedsAvx512Fp16, "vfmadd213ph xmm", fma_fp16_avx512_128},
    {"fma_fp16_avx512_256", PeakOp::fma, Precision::fp16, Isa::avx512, 256, kChainsEvex, kChainsEvex, 32, kNeedsAvx512 | kNeedsAvx512Fp16, "vfmadd213ph ymm", fma_fp16_avx512_256},
    {"fma_fp16_avx512_512", PeakOp::fma, Precision::fp16, Isa::avx512, 512, kChainsEvex, kChainsEvex, 64, kNeedsAvx512 | kNeedsAvx512Fp16, "vfmadd213ph zmm", fma_fp16_avx512_512},
};
extern const PeakRows kAvx512Fp16Rows = {kAvx512Fp16Data, std::size(kAvx512Fp16Data)};

}  // namespace roofline::peak_isa
