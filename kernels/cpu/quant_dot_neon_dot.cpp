// The NEON dot-product dequant-dot kernels (issue 62; -march=armv8.2-a+dotprod for this translation unit only, chosen
// where HWCAP says asimddp: every Neoverse, Cortex-A76 or later, Grace, Graviton 2-4): SDOT adds the 4 products of
// each lane's signed bytes into its int32 (vdotq_s32, ggml's ggml_vdotq_s32 with __ARM_FEATURE_DOTPROD). int4 has no
// int8 product, so no int4 kernel here (the NEON row's runs everywhere). Kernels: quant_dot_neon.hpp.
#include <arm_neon.h>

#include "quant_blocks.hpp"

namespace roofline::quant {
namespace {
struct Dot {
  static constexpr bool kInt4 = false;
  static int32x4_t s8s8(int32x4_t acc, int8x16_t a, int8x16_t b) { return vdotq_s32(acc, a, b); }
};
}  // namespace
}  // namespace roofline::quant

#include "quant_dot_neon.hpp"

namespace roofline::quant {
const QuantIsaKernels kNeonDotKernels = kKernelsNeon;
}  // namespace roofline::quant
