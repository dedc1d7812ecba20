// The weight formats: see quant.hpp for the block layouts. The dequantization counts are element
// operations per weight on the vector units (one lane of one instruction = one operation), from what
// the kernels do: llama.cpp's CPU vec_dot kernels unpack a block's weights to int8 (mask and shift the
// nibbles, merge the high bits, subtract the offset) and multiply them with activations quantized to 8
// bits in integer dot products, then scale each block's sum; vLLM's fp8 and int4 paths on a machine
// without native support convert each weight to bf16 (and scale it) before a bf16 product.
#include "roofline/llm/quant.hpp"

#include <charconv>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"

namespace roofline::llm {

namespace {

constexpr const char* kGgml = "llama.cpp vec_dot: activations quantized to 8 bits, int8 dot products, one scale per block";
constexpr const char* kAllowed = "bf16, fp32, int8, q8_0, q4_0, q4_k, q5_k, q6_k, fp8 or int4-gG (G a multiple of 8)";

// llama.cpp block formats. Ops per weight: unpack + offset, and the per-block scale work spread over
// the block's weights (Q8_0: one multiply of two scales and one FMA per 32 weights).
WeightFormat ggml(const char* name, double bits, std::int64_t block, double unpack_ops) {
  return {name, bits, block, Precision::int8, unpack_ops, Precision::fp32, kGgml};
}

}  // namespace

WeightFormat native_format(Precision p) {
  return {std::string(to_string(p)), 8.0 * element_bytes(p), 1, p, 0.0, p, "the GEMM backend at this precision"};
}

WeightFormat parse_weight_format(const std::string& text, const std::string& flag) {
  if (text == "bf16") return native_format(Precision::bf16);
  if (text == "fp32") return native_format(Precision::fp32);
  if (text == "int8") return native_format(Precision::int8);
  if (text == "q8_0") return ggml("q8_0", 8.5, 32, 2.0 / 32.0);
  if (text == "q4_0") return ggml("q4_0", 4.5, 32, 2.0 + 2.0 / 32.0);            // mask/shift, subtract 8
  if (text == "q4_k") return ggml("q4_k", 4.5, 256, 2.0 + 4.0 / 32.0);           // + 6-bit scale and min per 32
  if (text == "q5_k") return ggml("q5_k", 5.5, 256, 3.0 + 4.0 / 32.0);           // + the fifth bit merged
  if (text == "q6_k") return ggml("q6_k", 6.5625, 256, 4.0 + 2.0 / 16.0);        // nibble + 2 high bits, - 32
  if (text == "fp8") {
    return {"fp8", 8.0, 1, Precision::bf16, 2.0, Precision::bf16,
            "fp8 (e4m3) weights converted to bf16 on the vector units (shift and rebias), bf16 products"};
  }
  if (text.rfind("int4-g", 0) == 0) {
    int g = 0;
    const char* first = text.data() + 6;
    const char* last = text.data() + text.size();
    const auto [end, ec] = std::from_chars(first, last, g);
    if (ec == std::errc() && end == last && g >= 8 && g <= 4096 && g % 8 == 0) {
      return {text, 4.0 + 16.0 / g, g, Precision::bf16, 3.0, Precision::bf16,
              fmt::format("int4 weights with an fp16 scale per {} (GPTQ/AWQ), unpacked (mask/shift, subtract 8, "
                          "scale) to bf16 on the vector units, bf16 products", g)};
    }
  }
  throw InputError(fmt::format("{} '{}': expected {}", flag, text, kAllowed));
}

const char* weight_format_names() { return kAllowed; }

std::string dequant_family(const std::string& format) {
  for (const char* f : {"q8_0", "q4_0", "q4_k", "q5_k", "q6_k"}) {
    if (format == f) return format;
  }
  return format.rfind("int4-g", 0) == 0 ? "int4" : "";
}

std::string quant_conventions() {
  return "Quantized weights: bytes from the block formats (q8_0 34 B per 32 weights = 8.5 bits, q4_0 18 B per 32 = "
         "4.5, q4_k 144 B per 256 = 4.5, q5_k 176 B per 256 = 5.5, q6_k 210 B per 256 = 6.5625, fp8 8, int4-gG "
         "4 + 16/G with fp16 scales); every 2-D weight (embeddings, projections, experts, lm_head) in the format unless "
         "--keep names it; 1-D tensors (norms, biases) at fp32 for llama.cpp formats (as GGUF files store them) and "
         "at bf16 otherwise. llama.cpp formats multiply in int8 (activations quantized to 8 bits); fp8 and int4 "
         "are converted to bf16 first. Dequantization: element operations per weight (q8_0 0.0625, q4_0 2.06, q4_k "
         "2.13, q5_k 3.13, q6_k 4.13, fp8 2, int4 3), once per weight per step (a kernel that unpacks a tile once for "
         "all the batch's tokens), at half the fp32 vector FMA peak in FLOP/s (one element operation per lane per "
         "instruction, an FMA counting 2 FLOP) where the results file has no measured dequant-dot ceiling of the format; "
         "where it has one (roofline.dequant_ceilings: the format's best block-format dot-product kernel at the thread "
         "count, weights in L1/L2), the dequantization time is the weights / that ceiling's weights/s instead.";
}

}  // namespace roofline::llm
