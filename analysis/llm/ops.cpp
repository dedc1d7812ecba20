// The per-operation model: see ops.hpp for the counting conventions. Every GEMM's FLOPs and operand sizes
// come from the counting row the GEMM suite uses (common/gemm_count.hpp), so the model counts exactly
// what the --measure chain runs.
#include "roofline/llm/ops.hpp"

#include <algorithm>

#include "roofline/common/gemm_count.hpp"

namespace roofline::llm {

namespace {

double d(std::int64_t v) { return static_cast<double>(v); }

// An operation made of GEMMs whose A operand is the weights (projections) or the KV cache (attention).
Op gemm_op(std::string name, Precision p, GemmCall call, bool a_is_kv) {
  Op op;
  op.name = std::move(name);
  op.precision = p;
  const OperandBytes e = gemm_operand_bytes(p);
  const double count = d(call.count);
  op.flops = count * gemm_operations(GemmShape{call.m, call.n, call.k});
  const double a = count * d(call.m) * d(call.k) * e.a;
  (a_is_kv ? op.kv_read_bytes : op.weight_bytes) = a;
  op.activation_bytes = count * (d(call.k) * d(call.n) * e.b + d(call.m) * d(call.n) * e.c);
  op.calls = {call};
  return op;
}

// The layer's projections and MLP at `tokens` tokens; K and V also write their tokens to the cache.
void add_projections(std::vector<Op>& ops, const ModelConfig& c, const Precisions& p, std::int64_t tokens,
                     bool mlp) {
  if (!mlp) {
    const double kv_write = d(tokens) * d(c.kv_dim()) * element_bytes(p.kv);
    ops.push_back(gemm_op("q_proj", p.weights, {c.q_dim(), c.hidden, tokens, 1}, false));
    ops.push_back(gemm_op("k_proj", p.weights, {c.kv_dim(), c.hidden, tokens, 1}, false));
    ops.back().kv_write_bytes = kv_write;
    ops.push_back(gemm_op("v_proj", p.weights, {c.kv_dim(), c.hidden, tokens, 1}, false));
    ops.back().kv_write_bytes = kv_write;
    return;
  }
  ops.push_back(gemm_op("o_proj", p.weights, {c.hidden, c.q_dim(), tokens, 1}, false));
  ops.push_back(gemm_op("gate_proj", p.weights, {c.intermediate, c.hidden, tokens, 1}, false));
  ops.push_back(gemm_op("up_proj", p.weights, {c.intermediate, c.hidden, tokens, 1}, false));
  ops.push_back(gemm_op("down_proj", p.weights, {c.hidden, c.intermediate, tokens, 1}, false));
}

// Once per model, for `tokens` positions: the final RMSNorm (bytes only) and lm_head.
void add_head(std::vector<Op>& ops, const ModelConfig& c, const Precisions& p, std::int64_t tokens) {
  Op norm;
  norm.name = "final_norm";
  norm.per_layer = false;
  norm.precision = p.weights;
  const OperandBytes e = gemm_operand_bytes(p.weights);
  norm.weight_bytes = d(c.hidden) * element_bytes(p.weights);
  norm.activation_bytes = d(tokens) * d(c.hidden) * (e.c + e.b);  // the residual stream in, lm_head's input out
  ops.push_back(norm);
  ops.push_back(gemm_op("lm_head", p.weights, {c.vocab, c.hidden, tokens, 1}, false));
  ops.back().per_layer = false;
}

}  // namespace

std::int64_t parameters(const ModelConfig& c) {
  const std::int64_t embeddings = c.vocab * c.hidden;
  const std::int64_t per_layer = c.q_dim() * c.hidden * 2 + c.kv_dim() * c.hidden * 2 + 3 * c.hidden * c.intermediate +
                                 2 * c.hidden;
  return embeddings + c.layers * per_layer + c.hidden + (c.tied_embeddings ? 0 : embeddings);
}

std::int64_t matmul_weights(const ModelConfig& c) {
  const std::int64_t per_layer = c.q_dim() * c.hidden * 2 + c.kv_dim() * c.hidden * 2 + 3 * c.hidden * c.intermediate;
  return c.layers * per_layer + c.vocab * c.hidden;
}

double kv_cache_bytes_per_token(const ModelConfig& c, Precision kv) {
  return 2.0 * d(c.layers) * d(c.kv_dim()) * element_bytes(kv);
}

std::vector<Op> decode_ops(const ModelConfig& c, const Precisions& p, std::int64_t batch, std::int64_t context) {
  std::vector<Op> ops;
  add_projections(ops, c, p, batch, false);
  // Per sequence and KV head: scores(S x group) = K(S x head_dim) q(head_dim x group), then
  // out(head_dim x group) = V^T(head_dim x S) probabilities(S x group); group = heads per KV head.
  const std::int64_t group = c.heads / c.kv_heads;
  ops.push_back(gemm_op("attn_scores", p.kv, {context, c.head_dim, group, batch * c.kv_heads}, true));
  ops.push_back(gemm_op("attn_values", p.kv, {c.head_dim, context, group, batch * c.kv_heads}, true));
  add_projections(ops, c, p, batch, true);
  add_head(ops, c, p, batch);
  return ops;
}

std::vector<Op> prefill_ops(const ModelConfig& c, const Precisions& p, std::int64_t prompt) {
  std::vector<Op> ops;
  add_projections(ops, c, p, prompt, false);
  const std::int64_t group = c.heads / c.kv_heads;
  const double pairs = d(prompt) * d(prompt + 1) / 2.0;  // causal: query i sees keys 0..i
  const OperandBytes e = gemm_operand_bytes(p.kv);
  const double kv = d(prompt) * d(c.kv_dim()) * e.a;
  // The chain's blocks: queries [j*b, end) attend to keys [0, end).
  std::vector<GemmCall> scores, values;
  for (std::int64_t start = 0; start < prompt; start += kCausalBlock) {
    const std::int64_t end = std::min(prompt, start + kCausalBlock);
    scores.push_back({end, c.head_dim, (end - start) * group, c.kv_heads});
    values.push_back({c.head_dim, end, (end - start) * group, c.kv_heads});
  }
  Op s;
  s.name = "attn_scores";
  s.precision = p.kv;
  s.flops = 2.0 * d(c.heads) * d(c.head_dim) * pairs;
  s.kv_read_bytes = kv;
  s.activation_bytes = d(prompt) * d(c.q_dim()) * e.b + d(c.heads) * pairs * e.c;
  s.calls = scores;
  Op v = s;
  v.name = "attn_values";
  v.activation_bytes = d(c.heads) * pairs * e.b + d(prompt) * d(c.q_dim()) * e.c;
  v.calls = values;
  ops.push_back(s);
  ops.push_back(v);
  add_projections(ops, c, p, prompt, true);
  add_head(ops, c, p, 1);
  return ops;
}

}  // namespace roofline::llm
