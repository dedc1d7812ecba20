// Reading Hugging Face config.json files: see config.hpp.
#include "roofline/llm/config.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <system_error>

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

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

fs::path executable_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
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

fs::path models_dir() {
  if (const char* env = std::getenv("ROOFLINE_LLM_MODELS_DIR"); env != nullptr && *env != '\0') return env;
  const fs::path installed = executable_dir() / ".." / "share" / "roofline" / "models";
  std::error_code ec;
  if (fs::is_directory(installed, ec)) return installed.lexically_normal();
  return fs::path(ROOFLINE_LLM_SOURCE_MODELS_DIR);
}

std::vector<std::string> shipped_models() {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(models_dir(), ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".json") names.push_back(it->path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

ModelConfig load_config(const std::string& name_or_path) {
  std::error_code ec;
  fs::path path = name_or_path;
  std::string name;
  if (!fs::is_regular_file(path, ec)) {
    const std::vector<std::string> names = shipped_models();
    const auto it = std::find(names.begin(), names.end(), lower(name_or_path));
    if (it == names.end() || name_or_path.find('/') != std::string::npos) {
      std::string list;
      for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
      throw InputError(fmt::format("--config: '{}' is neither a readable file nor a shipped model ({})", name_or_path,
                                   list.empty() ? "none found in " + models_dir().string() : list));
    }
    name = *it;
    path = models_dir() / (name + ".json");
  }
  ModelConfig c = parse_config(load_json_file(path), path.string());
  if (!name.empty()) c.name = name;
  return c;
}

}  // namespace roofline::llm
