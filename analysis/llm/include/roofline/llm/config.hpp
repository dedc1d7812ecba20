// A transformer's shape as Hugging Face writes it in config.json (Llama-style decoder: grouped-query
// attention, gated MLP, RMSNorm), read and checked before anything is modelled or measured. A few
// configs ship as data (analysis/llm/models/) and can be named instead of a path.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace roofline::llm {

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

  [[nodiscard]] std::int64_t q_dim() const { return heads * head_dim; }
  [[nodiscard]] std::int64_t kv_dim() const { return kv_heads * head_dim; }
};

// Checks a parsed config.json. `source` names it in messages. Throws InputError (one line) when a field
// is missing, not a positive integer (or a boolean for tie_word_embeddings), when the heads do not divide
// the hidden size (without head_dim), or the KV heads do not divide the heads.
ModelConfig parse_config(const nlohmann::json& doc, const std::string& source);

// The folder of shipped model configs: ROOFLINE_LLM_MODELS_DIR when set, else share/roofline/models
// beside the installed binary, else the source tree's analysis/llm/models.
std::filesystem::path models_dir();

// The names of the shipped configs (file stems, e.g. "llama-3-8b"), sorted.
std::vector<std::string> shipped_models();

// `name_or_path` is a file (read it) or a shipped name, case-insensitive (e.g. "Llama-3-8B"). Throws
// InputError naming the shipped ones when it is neither.
ModelConfig load_config(const std::string& name_or_path);

}  // namespace roofline::llm
