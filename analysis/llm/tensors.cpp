// The tensor inventory of a model: see tensors.hpp.
#include "roofline/llm/tensors.hpp"

#include <fmt/format.h>

#include "roofline/common/errors.hpp"

namespace roofline::llm {

namespace {

void add_attention(std::vector<Tensor>& t, const ModelConfig& c) {
  const std::int64_t L = c.layers;
  t.push_back({"q_proj", c.q_dim(), c.hidden, L, TensorKind::matrix});
  t.push_back({"k_proj", c.kv_dim(), c.hidden, L, TensorKind::matrix});
  t.push_back({"v_proj", c.kv_dim(), c.hidden, L, TensorKind::matrix});
  t.push_back({"o_proj", c.hidden, c.q_dim(), L, TensorKind::matrix});
  if (c.qkv_bias) t.push_back({"qkv_proj.bias", c.q_dim() + 2 * c.kv_dim(), 1, L, TensorKind::small});
  if (c.o_bias) t.push_back({"o_proj.bias", c.hidden, 1, L, TensorKind::small});
  if (c.qk_norm) t.push_back({"q_norm, k_norm", 2 * c.head_dim, 1, L, TensorKind::small});
  t.push_back({"norms", c.norms_per_layer * c.hidden, 1, L, TensorKind::small});
}

// A gated MLP of width `width` in `copies` places (gate and up: width x hidden; down: hidden x width).
void add_mlp(std::vector<Tensor>& t, const std::string& prefix, std::int64_t width, std::int64_t hidden,
             std::int64_t copies, bool routed) {
  t.push_back({prefix + "gate_proj", width, hidden, copies, TensorKind::matrix, routed});
  t.push_back({prefix + "up_proj", width, hidden, copies, TensorKind::matrix, routed});
  t.push_back({prefix + "down_proj", hidden, width, copies, TensorKind::matrix, routed});
}

void add_feed_forward(std::vector<Tensor>& t, const ModelConfig& c) {
  const std::int64_t dense = c.is_moe() ? c.moe.dense_layers : c.layers;
  if (dense > 0) add_mlp(t, "", c.intermediate, c.hidden, dense, false);
  if (!c.is_moe()) return;
  const std::int64_t moe = c.moe_layers();
  t.push_back({"router", c.moe.experts + (c.moe.shared_gate ? 1 : 0), c.hidden, moe, TensorKind::small});
  add_mlp(t, "experts.", c.moe.expert_intermediate, c.hidden, moe * c.moe.experts, true);
  if (c.moe.shared_intermediate > 0) add_mlp(t, "shared_experts.", c.moe.shared_intermediate, c.hidden, moe, false);
}

WeightFormat format_for(const Tensor& t, const Precisions& p) {
  // A tied lm_head is the embedding matrix: it has the embedding's format.
  if (t.kind == TensorKind::embedding) return p.format_of("embed");
  if (t.kind == TensorKind::lm_head) return p.format_of("lm_head");
  return p.stored();
}

}  // namespace

std::vector<Tensor> tensors(const ModelConfig& c) {
  std::vector<Tensor> t{{"embed_tokens", c.vocab, c.hidden, 1, TensorKind::embedding}};
  add_attention(t, c);
  add_feed_forward(t, c);
  t.push_back({"final_norm", c.hidden, 1, 1, TensorKind::small});
  if (!c.tied_embeddings) t.push_back({"lm_head", c.vocab, c.hidden, 1, TensorKind::lm_head});
  return t;
}

std::int64_t parameters(const ModelConfig& c) {
  std::int64_t n = 0;
  for (const Tensor& t : tensors(c)) n += t.elements();
  return n;
}

std::int64_t active_parameters(const ModelConfig& c) {
  std::int64_t n = 0;
  for (const Tensor& t : tensors(c)) n += t.routed ? t.elements() / c.moe.experts * c.moe.top_k : t.elements();
  return n;
}

double weight_bytes(const ModelConfig& c, const Precisions& p) {
  const WeightFormat stored = p.stored();
  double bytes = 0.0;
  for (const Tensor& t : tensors(c)) {
    const double n = static_cast<double>(t.elements());
    bytes += t.kind == TensorKind::small ? n * element_bytes(stored.vectors) : format_for(t, p).bytes(n);
  }
  return bytes;
}

void check_blocks(const ModelConfig& c, const Precisions& p) {
  for (const Tensor& t : tensors(c)) {
    if (t.kind == TensorKind::small) continue;
    const WeightFormat f = format_for(t, p);
    if (t.cols % f.block != 0) {
      throw InputError(fmt::format("--weights {}: {} rows of {} weights are not a whole number of its {}-weight blocks "
                                   "(files of this format store such a tensor in another one: choose another --weights, "
                                   "or --keep it when it is embed or lm_head)", f.name, t.name, t.cols, f.block));
    }
  }
}

}  // namespace roofline::llm
