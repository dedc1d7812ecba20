// The per-operation model of a Llama-style decoder: for one layer (Q, K, V, O projections; attention
// scores and values over the KV cache with grouped KV heads; gate, up, down) and once per model (final
// norm, lm_head), the FLOPs and the bytes each operation moves, for decode (one new token per sequence at
// batch B over a context of S tokens) and prefill (P prompt tokens of one sequence at once).
//
// Counting conventions (stated in the output, llm_conventions()):
//  - FLOPs count the matrix products only, 2 per multiply-add (GEMM 2MNK, common/gemm_count.hpp);
//    element-wise work (norms, RoPE, softmax, SiLU) is not counted as FLOPs.
//  - Bytes are compulsory traffic: the weights once at their precision, the KV cache read once and the new
//    K and V written once at the KV precision, activations in and out at the GEMM operand sizes
//    (common/gemm_count.hpp: bf16 x bf16 -> fp32, u8 x s8 -> s32).
//  - Prefill attention is causal: P(P+1)/2 query-key pairs per head (half the square and the diagonal).
//    lm_head and the final norm run for the last prompt token only (that is what the first token needs).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "roofline/common/vocabulary.hpp"
#include "roofline/llm/config.hpp"

namespace roofline::llm {

struct Precisions {
  Precision weights = Precision::bf16;
  Precision kv = Precision::bf16;
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
  [[nodiscard]] double bytes() const { return weight_bytes + kv_read_bytes + kv_write_bytes + activation_bytes; }
};

// Parameters of the model (embeddings, every layer's projections and two norms, the final norm, lm_head
// unless tied to the embeddings): Llama-2-7B 6,738,415,616.
std::int64_t parameters(const ModelConfig& c);
// The weights one token multiplies: every layer's projections and lm_head (not the embedding lookup nor
// the norms). Decode FLOPs per token = 2 x this + 4 x layers x heads x head_dim x context.
std::int64_t matmul_weights(const ModelConfig& c);
// K and V of every layer for one token: 2 x layers x kv_heads x head_dim x element bytes.
double kv_cache_bytes_per_token(const ModelConfig& c, Precision kv);

// One decode step: one new token for each of `batch` sequences, each attending to `context` tokens.
std::vector<Op> decode_ops(const ModelConfig& c, const Precisions& p, std::int64_t batch, std::int64_t context);
// Prefill of `prompt` tokens of one sequence (causal attention).
std::vector<Op> prefill_ops(const ModelConfig& c, const Precisions& p, std::int64_t prompt);

// The query block of the --measure chain's causal attention: queries in blocks of this many attend to
// the keys up to their block's end (the diagonal block in full, as blocked attention kernels do).
inline constexpr std::int64_t kCausalBlock = 64;

}  // namespace roofline::llm
