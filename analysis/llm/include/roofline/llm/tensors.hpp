// The tensors of a model as its checkpoint stores them, grouped by shape: the embeddings, every
// layer's projections (q, k, v, o; the gated MLP's gate, up, down, or a mixture of experts' router,
// routed experts and shared experts), their biases, the norms, and lm_head unless tied to the
// embeddings. Parameter counts, active parameters (the routed experts a token uses: top_k of them) and
// the bytes of a storage format all come from this one list.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "roofline/llm/config.hpp"
#include "roofline/llm/ops.hpp"

namespace roofline::llm {

enum class TensorKind {
  embedding,  // embed_tokens (a lookup: read one row per token)
  lm_head,    // the output projection (absent when tied)
  matrix,     // a layer's 2-D weight in the weights' format
  small,      // routers and 1-D tensors (norms, biases): kept at the format's `vectors` precision
};

struct Tensor {
  std::string name;      // embed_tokens, q_proj, ..., experts.gate_proj, router, norms, q_proj.bias
  std::int64_t rows = 0;
  std::int64_t cols = 1;  // the row length a block format's blocks run along (the input dimension)
  std::int64_t copies = 1;  // in the whole model
  TensorKind kind = TensorKind::matrix;
  bool routed = false;   // one of the routed experts: a token uses top_k of every layer's experts
  [[nodiscard]] std::int64_t elements() const { return rows * cols * copies; }
};

std::vector<Tensor> tensors(const ModelConfig& c);

// What one token uses: the routed experts scaled to top_k of them, everything else in full (embeddings
// and lm_head included, as model cards count "activated parameters"). = parameters(c) for a dense model.
std::int64_t active_parameters(const ModelConfig& c);

// Bytes of the weights in their formats (Precisions::format_of: "embed" for embed_tokens, "lm_head",
// the weights' format otherwise; routers and 1-D tensors at the weights format's `vectors` precision).
double weight_bytes(const ModelConfig& c, const Precisions& p);

// Throws InputError naming the tensor when a block format's block does not divide its row length.
void check_blocks(const ModelConfig& c, const Precisions& p);

}  // namespace roofline::llm
