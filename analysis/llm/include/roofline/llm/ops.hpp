// The per-operation model of a decoder: for one layer (Q, K, V, O projections; attention scores and
// values over the KV cache with grouped KV heads, windowed on sliding-window layers; gate, up, down, or
// a mixture of experts: router, the routed experts the step touches, shared experts) and once per model
// (final norm, lm_head), the FLOPs and the bytes each operation moves, for decode (one new token per
// sequence at batch B over a context of S tokens, or q tokens each when a speculative step verifies
// them) and prefill (P prompt tokens of one sequence at once). Operations that only some layers have
// (Gemma-2's windowed and full attention, DeepSeek's dense first layers) say how many layers have them.
//
// Counting conventions (stated in the output, llm_conventions()):
//  - FLOPs count the matrix products only, 2 per multiply-add (GEMM 2MNK, roofline/common/gemm_count.hpp);
//    element-wise work (norms, RoPE, softmax, SiLU) is not counted as FLOPs.
//  - Bytes are compulsory traffic: the weights once at their precision, the KV cache read once and the new
//    K and V written once at the KV precision, activations in and out at the GEMM operand sizes
//    (roofline/common/gemm_count.hpp: bf16 x bf16 -> fp32, u8 x s8 -> s32).
//  - Prefill attention is causal: P(P+1)/2 query-key pairs per head (half the square and the diagonal).
//    lm_head and the final norm run for the last prompt token only (that is what the first token needs).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "roofline/common/vocabulary.hpp"
#include <map>
#include <optional>

#include "roofline/llm/config.hpp"
#include "roofline/llm/moe.hpp"
#include "roofline/llm/quant.hpp"

namespace roofline::llm {

// How the model is stored and run: the precision the weight GEMMs multiply in, the KV cache's, the
// weights' storage format (absent: `weights` itself), tensors kept in another format (--keep: "embed",
// "lm_head"), and how a MoE model's tokens spread over its experts.
struct Precisions {
  Precision weights = Precision::bf16;
  Precision kv = Precision::bf16;
  std::optional<WeightFormat> format;
  std::map<std::string, WeightFormat> keep;
  Routing routing;

  [[nodiscard]] WeightFormat stored() const { return format ? *format : native_format(weights); }
  // The format of a tensor group: its --keep entry, else the weights' format.
  [[nodiscard]] WeightFormat format_of(const std::string& tensor) const;
};

// One GEMM C(MxN) = A(MxK) B(KxN) the --measure chain runs for an operation, `count` times (one per
// sequence and KV head for attention), A being the weights or the K/V cache.
struct GemmCall {
  std::int64_t m = 0, k = 0, n = 0;
  std::int64_t count = 1;
};

struct Op {
  std::string name;        // q_proj, k_proj, v_proj, o_proj, attn_scores, attn_values, gate_proj, up_proj,
                           // down_proj, final_norm, lm_head
  bool per_layer = true;   // false: once per model (final_norm, lm_head)
  Precision precision = Precision::bf16;  // of the arithmetic: the weights', or the KV cache's for attention
  double flops = 0.0;
  double weight_bytes = 0.0;
  double kv_read_bytes = 0.0;
  double kv_write_bytes = 0.0;
  double activation_bytes = 0.0;
  std::vector<GemmCall> calls;  // empty: not a GEMM (final_norm)
  std::int64_t layers_with = 0;  // per-layer operations only some layers have: how many (0: every layer)
  double dequant_ops = 0.0;      // vector element operations to unpack the weights (quantized formats)
  double dequant_weights = 0.0;  // the quantized weights it unpacks and multiplies (the dequant-dot ceiling's unit)
  double experts_touched = 0.0;  // routed-expert operations: distinct experts per layer (expected)
  std::string format;            // the weights' storage format (empty: no weights)
  [[nodiscard]] double bytes() const { return weight_bytes + kv_read_bytes + kv_write_bytes + activation_bytes; }
};

// How many times a step runs `op`: its layers for a per-layer operation, once otherwise.
double op_times(const Op& op, std::int64_t layers);

// Parameters of the model (tensors.hpp): Llama-2-7B 6,738,415,616.
std::int64_t parameters(const ModelConfig& c);
// The weights one token multiplies: every layer's projections and lm_head (not the embedding lookup nor
// the norms). Decode FLOPs per token = 2 x this + 4 x layers x heads x head_dim x context.
std::int64_t matmul_weights(const ModelConfig& c);
// K and V of every layer for one token: 2 x layers x kv_heads x head_dim x element bytes.
double kv_cache_bytes_per_token(const ModelConfig& c, Precision kv);
// K and V one sequence keeps at `context` tokens: windowed layers keep at most their window.
double kv_cache_bytes_per_sequence(const ModelConfig& c, Precision kv, std::int64_t context);

// One decode step: `new_tokens` new tokens (1; K + 1 when a speculative step verifies K drafted ones)
// for each of `batch` sequences, each attending to `context` tokens.
std::vector<Op> decode_ops(const ModelConfig& c, const Precisions& p, std::int64_t batch, std::int64_t context,
                           std::int64_t new_tokens = 1);
// The operation as the --measure chain runs it: a routed-expert operation counted from its calls
// (round(touched) experts with equal token counts) instead of the expectation; others unchanged.
Op as_chain_runs(const Op& op);

// Prefill of `prompt` tokens of one sequence (causal attention).
std::vector<Op> prefill_ops(const ModelConfig& c, const Precisions& p, std::int64_t prompt);

// The query block of the --measure chain's causal attention: queries in blocks of this many attend to
// the keys up to their block's end (the diagonal block in full, as blocked attention kernels do).
inline constexpr std::int64_t kCausalBlock = 64;

}  // namespace roofline::llm
