// Reading Hugging Face config.json files: see config.hpp. The shape every architecture shares is read
// here; architectures.cpp checks the architecture and its own fields.
#include "roofline/llm/config.hpp"

#include <fmt/format.h>

#include "config_fields.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/model/results.hpp"

namespace roofline::llm {
namespace fs = std::filesystem;
using nlohmann::json;

namespace detail {

void Fields::fail(const std::string& what) const { throw InputError(fmt::format("{}: {}", source, what)); }

bool Fields::has(const char* key) const { return doc.contains(key) && !doc[key].is_null(); }

std::int64_t Fields::positive(const char* key, std::int64_t max, std::int64_t fallback) const {
  if (!has(key)) {
    if (fallback >= 0) return fallback;
    fail(fmt::format("'{}' is missing (a Hugging Face config.json of this architecture has it)", key));
  }
  const json& v = doc[key];
  // JSON numbers such as 4096.0 are refused too: a size is a count.
  if (!v.is_number_integer()) fail(fmt::format("'{}' must be a positive integer, not {}", key, v.dump()));
  const std::int64_t n = v.get<std::int64_t>();
  if (n <= 0) fail(fmt::format("'{}' must be a positive integer, not {}", key, n));
  if (n > max) fail(fmt::format("'{}' is {}: more than the {} a model may have here", key, n, max));
  return n;
}

std::int64_t Fields::count(const char* key, std::int64_t max, std::int64_t fallback) const {
  if (!has(key)) return fallback;
  const json& v = doc[key];
  if (!v.is_number_integer() || v.get<std::int64_t>() < 0) {
    fail(fmt::format("'{}' must be a non-negative integer, not {}", key, v.dump()));
  }
  if (v.get<std::int64_t>() > max) fail(fmt::format("'{}' is {}: more than the {} a model may have here", key, v.dump(), max));
  return v.get<std::int64_t>();
}

bool Fields::flag(const char* key, bool fallback) const {
  if (!has(key)) return fallback;
  if (!doc[key].is_boolean()) fail(fmt::format("'{}' must be true or false", key));
  return doc[key].get<bool>();
}

}  // namespace detail

namespace {

std::string architecture_of(const detail::Fields& f) {
  if (!f.has("architectures")) {
    f.fail("'architectures' is missing: it says which shape to count (e.g. [\"LlamaForCausalLM\"])");
  }
  const json& a = f.doc["architectures"];
  if (!a.is_array() || a.size() != 1 || !a[0].is_string()) {
    f.fail(fmt::format("'architectures' must list one architecture, not {}", a.dump()));
  }
  return a[0].get<std::string>();
}

void read_heads(const detail::Fields& f, ModelConfig& c) {
  if (!f.has("head_dim")) {
    if (c.hidden % c.heads != 0) {
      f.fail(fmt::format("num_attention_heads ({}) does not divide hidden_size ({}) and there is no head_dim", c.heads,
                         c.hidden));
    }
    c.head_dim = c.hidden / c.heads;
  } else {
    c.head_dim = f.positive("head_dim", detail::kMaxCount);
  }
  if (c.heads % c.kv_heads != 0) {
    f.fail(fmt::format("num_key_value_heads ({}) does not divide num_attention_heads ({})", c.kv_heads, c.heads));
  }
}

}  // namespace

ModelConfig parse_config(const json& doc, const std::string& source) {
  const detail::Fields f{doc, source};
  if (!doc.is_object()) f.fail("a config.json must be a JSON object");
  ModelConfig c;
  c.source = source;
  c.architecture = architecture_of(f);
  c.hidden = f.positive("hidden_size", detail::kMaxWidth);
  c.layers = f.positive("num_hidden_layers", detail::kMaxCount);
  c.heads = f.positive("num_attention_heads", detail::kMaxCount);
  c.kv_heads = f.positive("num_key_value_heads", detail::kMaxCount, c.heads);
  c.intermediate = f.positive("intermediate_size", detail::kMaxWidth);
  c.vocab = f.positive("vocab_size", detail::kMaxVocab);
  read_heads(f, c);
  detail::read_architecture(f, c.architecture, c);
  c.name = fs::path(source).stem().string();
  return c;
}

ModelConfig load_config(const fs::path& path) { return parse_config(load_json_file(path), path.string()); }

}  // namespace roofline::llm
