// Model configs: the shipped ones parse with their published shapes, and every bad field is refused with
// one line naming the file and the field. (Finding a shipped one by name is the CLI's: test_cli_llm.)
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "roofline/common/errors.hpp"
#include "roofline/llm/config.hpp"
#include "shipped_models.hpp"
#include "support/input_errors.hpp"

namespace roofline::llm {
namespace {
namespace fs = std::filesystem;
const fs::path kData = fs::path(ROOFLINE_TEST_DATA_DIR) / "llm";

std::string error_of(const fs::path& path) {
  return testing::input_error_of([&] { load_config(path); });
}

TEST(LlmConfig, ShipsTheFourModels) {
  for (const char* n : {"llama-2-7b", "llama-2-70b", "llama-3-8b", "llama-3.2-1b"}) {
    EXPECT_NO_THROW(shipped(n)) << n;
  }
}

TEST(LlmConfig, ReadsLlama3Shapes) {
  const ModelConfig c = shipped("llama-3-8b");
  EXPECT_EQ(c.name, "llama-3-8b");
  EXPECT_EQ(c.hidden, 4096);
  EXPECT_EQ(c.layers, 32);
  EXPECT_EQ(c.heads, 32);
  EXPECT_EQ(c.kv_heads, 8);
  EXPECT_EQ(c.head_dim, 128);  // hidden / heads: no head_dim in the file
  EXPECT_EQ(c.intermediate, 14336);
  EXPECT_EQ(c.vocab, 128256);
  EXPECT_FALSE(c.tied_embeddings);
}

TEST(LlmConfig, ReadsExplicitHeadDimAndTiedEmbeddings) {
  const ModelConfig c = shipped("llama-3.2-1b");
  EXPECT_EQ(c.head_dim, 64);
  EXPECT_EQ(c.q_dim(), 2048);
  EXPECT_EQ(c.kv_dim(), 512);
  EXPECT_TRUE(c.tied_embeddings);
}

TEST(LlmConfig, KvHeadsDefaultToHeads) {
  nlohmann::json doc = {{"architectures", {"LlamaForCausalLM"}}, {"hidden_size", 64}, {"num_hidden_layers", 1}, {"num_attention_heads", 4},
                        {"intermediate_size", 128}, {"vocab_size", 10}};
  EXPECT_EQ(parse_config(doc, "x.json").kv_heads, 4);
}

TEST(LlmConfig, ReadsAPath) {
  const ModelConfig c = load_config(kData / "tiny.json");
  EXPECT_EQ(c.name, "tiny");
  EXPECT_EQ(c.head_dim, 32);
}

TEST(LlmConfig, RefusesBadFieldsWithOneLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"not_json.json", "truncated JSON"},
      {"missing_field.json", "'intermediate_size' is missing"},
      {"heads_not_dividing.json", "does not divide hidden_size"},
      {"kv_not_dividing.json", "num_key_value_heads (3) does not divide num_attention_heads (8)"},
      {"zero_layers.json", "'num_hidden_layers' must be a positive integer, not 0"},
      {"negative_vocab.json", "'vocab_size' must be a positive integer, not -5"},
      {"string_size.json", "'hidden_size' must be a positive integer"},
  };
  for (const auto& [file, expected] : cases) {
    const std::string e = error_of(kData / file);
    EXPECT_NE(e.find(expected), std::string::npos) << file << ": " << e;
    EXPECT_NE(e.find(file), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

TEST(LlmConfig, RefusesAWrongTypeForTieWordEmbeddings) {
  nlohmann::json doc = {{"hidden_size", 64}, {"num_hidden_layers", 1}, {"num_attention_heads", 4},
                        {"intermediate_size", 128}, {"vocab_size", 10}, {"tie_word_embeddings", "yes"}};
  EXPECT_THROW(parse_config(doc, "x.json"), InputError);
}

}  // namespace
}  // namespace roofline::llm
