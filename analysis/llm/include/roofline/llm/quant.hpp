// How the weights are stored and what multiplies them: the native precisions (bf16, fp32, int8: the
// element as the GEMM reads it) and the quantized formats llama.cpp and vLLM store, with the bytes of
// their block formats, the precision the kernel multiplies in and the dequantization work per weight
// that runs on the vector units before (or inside) that multiply. Bytes come from the blocks:
//   Q8_0  34 bytes per 32 weights (fp16 scale + 32 x int8)                           8.5 bits/weight
//   Q4_0  18 bytes per 32 (fp16 scale + 32 nibbles)                                  4.5
//   Q4_K  144 bytes per 256 (fp16 d, dmin, 12 bytes of 6-bit sub-block scales, nibbles)  4.5
//   Q5_K  176 bytes per 256 (Q4_K + 32 bytes of fifth bits)                          5.5
//   Q6_K  210 bytes per 256 (128 low nibbles, 64 of high bits, 16 int8 scales, fp16 d)   6.5625
//   fp8   1 byte per weight (per-tensor scale not counted)                           8
//   int4-gG  4 bits per weight + one fp16 scale per G weights (GPTQ/AWQ symmetric)   4 + 16/G
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "roofline/common/vocabulary.hpp"

namespace roofline::llm {

struct WeightFormat {
  std::string name;              // bf16, q4_0, int4-g128, ...
  double bits_per_weight = 16.0;
  std::int64_t block = 1;        // weights per block: a row's length must be a multiple of it
  Precision compute = Precision::bf16;  // what the kernel multiplies in
  double dequant_ops_per_weight = 0.0;  // vector element operations to unpack and scale one weight
  Precision vectors = Precision::bf16;  // 1-D tensors (norms, biases) stay at this precision
  std::string kernel;            // who multiplies it and how, said in the output
  [[nodiscard]] bool quantized() const { return dequant_ops_per_weight > 0.0; }
  [[nodiscard]] double bytes(double weights) const { return weights * bits_per_weight / 8.0; }
};

// The element of a native precision as stored (bits = its size, no dequantization, norms at it too).
WeightFormat native_format(Precision p);

// bf16, fp32, int8, q8_0, q4_0, q4_k, q5_k, q6_k, fp8, int4-gG (G a positive multiple of 8, at most
// 4096). Throws InputError naming `flag` and what is allowed otherwise.
WeightFormat parse_weight_format(const std::string& text, const std::string& flag);
// The formats parse_weight_format accepts, as help texts and errors list them.
const char* weight_format_names();

// The dequant-dot kernel family that measures a format (roofline.dequant_ceilings' "format"): the format's
// own name for q8_0, q4_0, q4_k, q5_k and q6_k, "int4" for every int4-gG (measured at G = 128; the scale per
// group is a small share of the work), "" for formats without a measured kernel (fp8, the native precisions).
std::string dequant_family(const std::string& format);

// What the formats mean, for the conventions table.
std::string quant_conventions();

}  // namespace roofline::llm
