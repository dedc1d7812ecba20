// The per-operation model: see ops.hpp for the counting conventions. Every GEMM's FLOPs and operand sizes
// come from the counting row the GEMM suite uses (roofline/common/gemm_count.hpp), so the model counts exactly
// what the --measure chain runs; the weights' bytes come from their storage format (quant.hpp).
#include "roofline/llm/ops.hpp"

#include <algorithm>
#include <cmath>

#include "roofline/common/gemm_count.hpp"
#include "roofline/llm/tensors.hpp"

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

// A projection over weights stored in `f`, multiplied at f.compute; `bias` elements at f.vectors.
Op weight_op(std::string name, const WeightFormat& f, GemmCall call, std::int64_t bias = 0) {
  Op op = gemm_op(std::move(name), f.compute, call, false);
  const double weights = d(call.count) * d(call.m) * d(call.k);
  op.weight_bytes = f.bytes(weights) + d(bias) * element_bytes(f.vectors);
  op.dequant_ops = weights * f.dequant_ops_per_weight;
  op.dequant_weights = f.quantized() ? weights : 0.0;
  op.format = f.name;
  return op;
}

// Routed experts at `tokens` tokens: the chain runs round(touched) experts of ceil(tokens x k / that)
// tokens each (its calls); the estimate counts the expectation: tokens x k expert-token products and the
// weights of `touched` experts.
Op expert_op(std::string name, const WeightFormat& f, std::int64_t m, std::int64_t k, std::int64_t tokens,
             double touched, std::int64_t top_k) {
  const std::int64_t experts = std::max<std::int64_t>(1, std::llround(touched));
  const std::int64_t slots = tokens * top_k;
  Op op = weight_op(std::move(name), f, {m, k, (slots + experts - 1) / experts, experts});
  const OperandBytes e = gemm_operand_bytes(f.compute);
  op.flops = d(slots) * 2.0 * d(m) * d(k);
  op.weight_bytes = f.bytes(touched * d(m) * d(k));
  op.dequant_ops = touched * d(m) * d(k) * f.dequant_ops_per_weight;
  op.dequant_weights = f.quantized() ? touched * d(m) * d(k) : 0.0;
  op.activation_bytes = d(slots) * (d(k) * e.b + d(m) * e.c);
  op.experts_touched = touched;
  return op;
}

void add_qkv(std::vector<Op>& ops, const ModelConfig& c, const Precisions& p, std::int64_t tokens) {
  const WeightFormat f = p.stored();
  const double kv_write = d(tokens) * d(c.kv_dim()) * element_bytes(p.kv);
  const std::int64_t q_bias = c.qkv_bias ? c.q_dim() : 0, kv_bias = c.qkv_bias ? c.kv_dim() : 0;
  ops.push_back(weight_op("q_proj", f, {c.q_dim(), c.hidden, tokens, 1}, q_bias));
  ops.push_back(weight_op("k_proj", f, {c.kv_dim(), c.hidden, tokens, 1}, kv_bias));
  ops.back().kv_write_bytes = kv_write;
  ops.push_back(weight_op("v_proj", f, {c.kv_dim(), c.hidden, tokens, 1}, kv_bias));
  ops.back().kv_write_bytes = kv_write;
}

void add_mlp(std::vector<Op>& ops, const std::string& prefix, const WeightFormat& f, std::int64_t width,
             std::int64_t hidden, std::int64_t tokens, std::int64_t layers_with) {
  for (const char* part : {"gate_proj", "up_proj"}) {
    ops.push_back(weight_op(prefix + part, f, {width, hidden, tokens, 1}));
    ops.back().layers_with = layers_with;
  }
  ops.push_back(weight_op(prefix + "down_proj", f, {hidden, width, tokens, 1}));
  ops.back().layers_with = layers_with;
}

// o_proj and the feed-forward part: a dense MLP, or router + touched experts + shared experts.
void add_feed_forward(std::vector<Op>& ops, const ModelConfig& c, const Precisions& p, std::int64_t tokens) {
  const WeightFormat f = p.stored();
  ops.push_back(weight_op("o_proj", f, {c.hidden, c.q_dim(), tokens, 1}, c.o_bias ? c.hidden : 0));
  if (!c.is_moe()) return add_mlp(ops, "", f, c.intermediate, c.hidden, tokens, 0);
  if (c.moe.dense_layers > 0) add_mlp(ops, "", f, c.intermediate, c.hidden, tokens, c.moe.dense_layers);
  const std::int64_t moe = c.moe.dense_layers > 0 ? c.moe_layers() : 0;
  WeightFormat router = native_format(f.vectors);
  router.compute = f.compute;  // stored at the 1-D tensors' precision, multiplied beside the experts
  ops.push_back(weight_op("router", router, {c.moe.experts + (c.moe.shared_gate ? 1 : 0), c.hidden, tokens, 1}));
  ops.back().layers_with = moe;
  const double touched = experts_touched(p.routing, c.moe.experts, c.moe.top_k, tokens);
  const std::int64_t w = c.moe.expert_intermediate;
  for (const char* part : {"gate_proj", "up_proj"}) {
    ops.push_back(expert_op(std::string("expert_") + part, f, w, c.hidden, tokens, touched, c.moe.top_k));
    ops.back().layers_with = moe;
  }
  ops.push_back(expert_op("expert_down_proj", f, c.hidden, w, tokens, touched, c.moe.top_k));
  ops.back().layers_with = moe;
  if (c.moe.shared_intermediate > 0) add_mlp(ops, "shared_", f, c.moe.shared_intermediate, c.hidden, tokens, moe);
}

// Once per model, for `tokens` positions: the final RMSNorm (bytes only) and lm_head.
void add_head(std::vector<Op>& ops, const ModelConfig& c, const Precisions& p, std::int64_t tokens) {
  Op norm;
  norm.name = "final_norm";
  norm.per_layer = false;
  const WeightFormat f = p.stored();
  norm.precision = f.compute;
  const OperandBytes e = gemm_operand_bytes(f.compute);
  norm.weight_bytes = d(c.hidden) * element_bytes(f.vectors);
  norm.activation_bytes = d(tokens) * d(c.hidden) * (e.c + e.b);  // the residual stream in, lm_head's input out
  ops.push_back(norm);
  // Tied: lm_head multiplies the embedding matrix, in the embedding's format.
  ops.push_back(weight_op("lm_head", p.format_of(c.tied_embeddings ? "embed" : "lm_head"), {c.vocab, c.hidden, tokens, 1}));
  ops.back().per_layer = false;
}

// Per sequence and KV head: scores(S x group q) = K(S x head_dim) q(head_dim x group q), then
// out(head_dim x group q) = V^T(head_dim x S) probabilities(S x group q); group = heads per KV head.
void add_decode_attention(std::vector<Op>& ops, const ModelConfig& c, const Precisions& p, std::int64_t batch,
                          std::int64_t context, std::int64_t q) {
  const std::int64_t n = c.heads / c.kv_heads * q;
  const bool mixed = c.local_layers > 0 && c.local_layers < c.layers;
  const std::int64_t full = c.local_layers == c.layers ? std::min(context, c.sliding_window) : context;
  ops.push_back(gemm_op("attn_scores", p.kv, {full, c.head_dim, n, batch * c.kv_heads}, true));
  ops.push_back(gemm_op("attn_values", p.kv, {c.head_dim, full, n, batch * c.kv_heads}, true));
  if (!mixed) return;
  for (Op& op : ops) {
    if (op.name.rfind("attn_", 0) == 0) op.layers_with = c.layers - c.local_layers;
  }
  const std::int64_t local = std::min(context, c.sliding_window);
  ops.push_back(gemm_op("attn_scores_local", p.kv, {local, c.head_dim, n, batch * c.kv_heads}, true));
  ops.back().layers_with = c.local_layers;
  ops.push_back(gemm_op("attn_values_local", p.kv, {c.head_dim, local, n, batch * c.kv_heads}, true));
  ops.back().layers_with = c.local_layers;
}

// Query-key pairs of causal attention over `prompt` tokens, each query seeing at most `window` keys
// (0: no window): P(P+1)/2 without one.
double causal_pairs(std::int64_t prompt, std::int64_t window) {
  const double p = d(prompt);
  if (window <= 0 || window >= prompt) return p * (p + 1) / 2.0;
  const double w = d(window);
  return w * (w + 1) / 2.0 + (p - w) * w;
}

// Prefill attention over `prompt` tokens (causal, windowed when `window` > 0). The chain's blocks:
// queries [start, end) attend to keys [max(0, start - window + 1), end).
void add_prefill_attention(std::vector<Op>& ops, const ModelConfig& c, const Precisions& p, std::int64_t prompt,
                           std::int64_t window, const std::string& suffix, std::int64_t layers_with) {
  const std::int64_t group = c.heads / c.kv_heads;
  const double pairs = causal_pairs(prompt, window);
  const OperandBytes e = gemm_operand_bytes(p.kv);
  std::vector<GemmCall> scores, values;
  for (std::int64_t start = 0; start < prompt; start += kCausalBlock) {
    const std::int64_t end = std::min(prompt, start + kCausalBlock);
    const std::int64_t first = window > 0 ? std::max<std::int64_t>(0, start - window + 1) : 0;
    scores.push_back({end - first, c.head_dim, (end - start) * group, c.kv_heads});
    values.push_back({c.head_dim, end - first, (end - start) * group, c.kv_heads});
  }
  Op s;
  s.name = "attn_scores" + suffix;
  s.precision = p.kv;
  s.flops = 2.0 * d(c.heads) * d(c.head_dim) * pairs;
  s.kv_read_bytes = d(prompt) * d(c.kv_dim()) * e.a;
  s.activation_bytes = d(prompt) * d(c.q_dim()) * e.b + d(c.heads) * pairs * e.c;
  s.calls = scores;
  s.layers_with = layers_with;
  Op v = s;
  v.name = "attn_values" + suffix;
  v.activation_bytes = d(c.heads) * pairs * e.b + d(prompt) * d(c.q_dim()) * e.c;
  v.calls = values;
  ops.push_back(s);
  ops.push_back(v);
}

}  // namespace

std::vector<Op> prefill_ops(const ModelConfig& c, const Precisions& p, std::int64_t prompt) {
  std::vector<Op> ops;
  add_qkv(ops, c, p, prompt);
  if (c.local_layers == c.layers) {
    add_prefill_attention(ops, c, p, prompt, c.sliding_window, "", 0);
  } else if (c.local_layers == 0) {
    add_prefill_attention(ops, c, p, prompt, 0, "", 0);
  } else {
    add_prefill_attention(ops, c, p, prompt, 0, "", c.layers - c.local_layers);
    add_prefill_attention(ops, c, p, prompt, c.sliding_window, "_local", c.local_layers);
  }
  add_feed_forward(ops, c, p, prompt);
  add_head(ops, c, p, 1);
  return ops;
}

WeightFormat Precisions::format_of(const std::string& tensor) const {
  const auto it = keep.find(tensor);
  return it != keep.end() ? it->second : stored();
}

Op as_chain_runs(const Op& op) {
  if (op.experts_touched <= 0.0) return op;
  const GemmCall call = op.calls.front();
  Op runs = gemm_op(op.name, op.precision, call, false);
  const double scale = d(call.count) / op.experts_touched;
  runs.weight_bytes = op.weight_bytes * scale;
  runs.dequant_ops = op.dequant_ops * scale;
  runs.dequant_weights = op.dequant_weights * scale;
  runs.per_layer = op.per_layer;
  runs.layers_with = op.layers_with;
  runs.format = op.format;
  runs.experts_touched = d(call.count);
  return runs;
}

double op_times(const Op& op, std::int64_t layers) {
  if (!op.per_layer) return 1.0;
  return d(op.layers_with > 0 ? op.layers_with : layers);
}

std::int64_t matmul_weights(const ModelConfig& c) {
  std::int64_t n = c.tied_embeddings ? c.vocab * c.hidden : 0;  // lm_head multiplies the embedding matrix
  for (const Tensor& t : tensors(c)) {
    if (t.kind == TensorKind::embedding || (t.kind == TensorKind::small && t.name != "router")) continue;
    n += t.routed ? t.elements() / c.moe.experts * c.moe.top_k : t.elements();
  }
  return n;
}

double kv_cache_bytes_per_token(const ModelConfig& c, Precision kv) {
  return 2.0 * d(c.layers) * d(c.kv_dim()) * element_bytes(kv);
}

double kv_cache_bytes_per_sequence(const ModelConfig& c, Precision kv, std::int64_t context) {
  const double per_layer_token = 2.0 * d(c.kv_dim()) * element_bytes(kv);
  const std::int64_t local = c.local_layers > 0 ? std::min(context, c.sliding_window) : 0;
  return per_layer_token * (d(c.local_layers) * d(local) + d(c.layers - c.local_layers) * d(context));
}

std::vector<Op> decode_ops(const ModelConfig& c, const Precisions& p, std::int64_t batch, std::int64_t context,
                           std::int64_t new_tokens) {
  std::vector<Op> ops;
  add_qkv(ops, c, p, batch * new_tokens);
  add_decode_attention(ops, c, p, batch, context, new_tokens);
  add_feed_forward(ops, c, p, batch * new_tokens);
  add_head(ops, c, p, batch * new_tokens);
  return ops;
}

}  // namespace roofline::llm
