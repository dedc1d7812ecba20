// A transformer's shape as Hugging Face writes it in config.json (Llama-style decoder: grouped-query
// attention, gated MLP, RMSNorm), read and checked before anything is modelled or measured. A few
// configs ship as data (analysis/llm/models/, installed as share/roofline/models); the CLI finds them by
// name (bench/data_dir.hpp) and passes the path here.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

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

// Reads and checks a config.json; the model is named after the file's stem. Throws InputError (one line
// naming the file) when it is missing, not JSON, or fails parse_config.
ModelConfig load_config(const std::filesystem::path& path);

}  // namespace roofline::llm
