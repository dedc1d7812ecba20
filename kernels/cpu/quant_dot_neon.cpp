// The NEON dequant-dot kernels (issue 62; Advanced SIMD, every ARMv8-A core, no extension flags): 16 signed bytes
// times 16 signed bytes by smull on each half into int16 products, then sadalp into int32 lanes (ggml's
// ggml_vdotq_s32 without __ARM_FEATURE_DOTPROD: Cortex-A72, Graviton 1). Kernels: quant_dot_neon.hpp.
#include <arm_neon.h>

#include "quant_blocks.hpp"

namespace roofline::quant {
namespace {
struct Dot {
  static constexpr bool kInt4 = true;
  static int32x4_t s8s8(int32x4_t acc, int8x16_t a, int8x16_t b) {
    // Each product fits int16 (|a b| <= 128 x 128); sadalp adds pairs of them into the int32 lanes.
    acc = vpadalq_s16(acc, vmull_s8(vget_low_s8(a), vget_low_s8(b)));
    return vpadalq_s16(acc, vmull_high_s8(a, b));
  }
};
}  // namespace
}  // namespace roofline::quant

#include "quant_dot_neon.hpp"

namespace roofline::quant {
const QuantIsaKernels kNeonKernels = kKernelsNeon;
}  // namespace roofline::quant
