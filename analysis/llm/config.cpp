// Reading Hugging Face config.json files: see config.hpp.
#include "roofline/llm/config.hpp"

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/analysis/results.hpp"

namespace roofline::llm {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string& source, const std::string& what) {
  throw InputError(fmt::format("{}: {}", source, what));
}

// A required (or, with fallback >= 0, optional) strictly positive integer field.
std::int64_t positive_field(const json& doc, const char* key, const std::string& source, std::int64_t fallback = -1) {
  if (!doc.contains(key) || doc[key].is_null()) {
    if (fallback >= 0) return fallback;
    fail(source, fmt::format("'{}' is missing (a Hugging Face config.json of a Llama-style model has it)", key));
  }
  const json& v = doc[key];
  // JSON numbers such as 4096.0 are refused too: a size is a count.
  if (!v.is_number_integer()) fail(source, fmt::format("'{}' must be a positive integer, not {}", key, v.dump()));
  const std::int64_t n = v.get<std::int64_t>();
  if (n <= 0) fail(source, fmt::format("'{}' must be a positive integer, not {}", key, n));
  return n;
}

}  // namespace

ModelConfig parse_config(const json& doc, const std::string& source) {
  if (!doc.is_object()) fail(source, "a config.json must be a JSON object");
  ModelConfig c;
  c.source = source;
  c.hidden = positive_field(doc, "hidden_size", source);
  c.layers = positive_field(doc, "num_hidden_layers", source);
  c.heads = positive_field(doc, "num_attention_heads", source);
  c.kv_heads = positive_field(doc, "num_key_value_heads", source, c.heads);
  c.intermediate = positive_field(doc, "intermediate_size", source);
  c.vocab = positive_field(doc, "vocab_size", source);
  if (!doc.contains("head_dim") || doc["head_dim"].is_null()) {
    if (c.hidden % c.heads != 0) {
      fail(source, fmt::format("num_attention_heads ({}) does not divide hidden_size ({}) and there is no head_dim",
                               c.heads, c.hidden));
    }
    c.head_dim = c.hidden / c.heads;
  } else {
    c.head_dim = positive_field(doc, "head_dim", source);
  }
  if (c.heads % c.kv_heads != 0) {
    fail(source, fmt::format("num_key_value_heads ({}) does not divide num_attention_heads ({})", c.kv_heads, c.heads));
  }
  if (doc.contains("tie_word_embeddings") && !doc["tie_word_embeddings"].is_null()) {
    if (!doc["tie_word_embeddings"].is_boolean()) fail(source, "'tie_word_embeddings' must be true or false");
    c.tied_embeddings = doc["tie_word_embeddings"].get<bool>();
  }
  c.name = fs::path(source).stem().string();
  return c;
}

ModelConfig load_config(const fs::path& path) { return parse_config(load_json_file(path), path.string()); }

}  // namespace roofline::llm
