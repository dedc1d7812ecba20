// A transformer's shape as Hugging Face writes it in config.json, read and checked before anything is
// modelled or measured: a decoder with grouped-query attention, a gated MLP or a mixture of experts, and
// RMSNorm, in the architectures of architectures.cpp (Llama, Mistral, Mixtral, Qwen2, Qwen2-MoE, Qwen3,
// Qwen3-MoE, Gemma, Gemma-2, Phi-3, DeepSeek-MoE). Any other architecture, and any field that is neither
// modelled nor known not to change the counts, is refused by name: never a silent wrong count. A few
// configs ship as data (analysis/llm/models/, installed as share/roofline/models); the CLI finds them by
// name (roofline/harness/data_dir.hpp) and passes the path here.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace roofline::llm {

// The experts of a mixture-of-experts model (experts == 0: a dense MLP in every layer).
struct MoeShape {
  std::int64_t experts = 0;              // routed experts per MoE layer
  std::int64_t top_k = 0;                // num_experts_per_tok
  std::int64_t expert_intermediate = 0;  // each routed expert's gated MLP width
  std::int64_t shared_intermediate = 0;  // all shared experts together, as one gated MLP (0: none)
  bool shared_gate = false;              // Qwen2-MoE: a sigmoid gate (hidden -> 1) on the shared expert
  std::int64_t dense_layers = 0;         // the first layers keep a dense MLP (first_k_dense_replace)
};

struct ModelConfig {
  std::string name;            // the shipped name or the file's stem
  std::string source;          // where it was read from, for messages and the output
  std::int64_t hidden = 0;     // hidden_size
  std::int64_t layers = 0;     // num_hidden_layers
  std::int64_t heads = 0;      // num_attention_heads
  std::int64_t kv_heads = 0;   // num_key_value_heads (= heads when absent: multi-head attention)
  std::int64_t head_dim = 0;   // head_dim (= hidden / heads when absent)
  std::int64_t intermediate = 0;  // intermediate_size
  std::int64_t vocab = 0;      // vocab_size
  bool tied_embeddings = false;   // tie_word_embeddings: lm_head shares the embedding matrix
  std::string architecture = "LlamaForCausalLM";
  bool qkv_bias = false;          // biases on q, k and v (Qwen2; Llama's attention_bias)
  bool o_bias = false;            // a bias on o_proj too (Llama's attention_bias)
  std::int64_t norms_per_layer = 2;   // RMSNorm weights of hidden size per layer (Gemma-2: 4)
  bool qk_norm = false;           // Qwen3: an RMSNorm of head_dim over each head's q and k
  std::int64_t sliding_window = 0;    // tokens a windowed layer attends to (0: none)
  std::int64_t local_layers = 0;      // layers whose attention is windowed (Mistral all, Gemma-2 half)
  std::string fused;              // tensors the checkpoint fuses (Phi-3), counted as their parts
  MoeShape moe;

  [[nodiscard]] bool is_moe() const { return moe.experts > 0; }
  [[nodiscard]] std::int64_t moe_layers() const { return is_moe() ? layers - moe.dense_layers : 0; }

  [[nodiscard]] std::int64_t q_dim() const { return heads * head_dim; }
  [[nodiscard]] std::int64_t kv_dim() const { return kv_heads * head_dim; }
};

// Checks a parsed config.json. `source` names it in messages. Throws InputError (one line) when a field
// is missing, not a positive integer (or a boolean for tie_word_embeddings), when the heads do not divide
// the hidden size (without head_dim), or the KV heads do not divide the heads.
ModelConfig parse_config(const nlohmann::json& doc, const std::string& source);

// Reads and checks a config.json; the model is named after the file's stem. Throws InputError (one line
// naming the file) when it is missing, not JSON, or fails parse_config.
ModelConfig load_config(const std::filesystem::path& path);

}  // namespace roofline::llm
