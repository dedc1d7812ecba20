// Parameter counts of the shipped architectures against published figures (the source of each is said
// beside it), the KV cache of sliding-window layers, and configs the model cannot count refused by name.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "roofline/common/errors.hpp"
#include "roofline/llm/config.hpp"
#include "roofline/llm/ops.hpp"
#include "roofline/llm/tensors.hpp"
#include "shipped_models.hpp"
#include "support/input_errors.hpp"

namespace roofline::llm {
namespace {
namespace fs = std::filesystem;
const fs::path kData = fs::path(ROOFLINE_TEST_DATA_DIR) / "llm";

std::string refusal(const nlohmann::json& doc) {
  return testing::input_error_of([&] { parse_config(doc, "cfg.json"); });
}

nlohmann::json llama_like() {
  return {{"architectures", {"LlamaForCausalLM"}}, {"hidden_size", 256},       {"intermediate_size", 688},
          {"num_attention_heads", 8},             {"num_hidden_layers", 2},   {"num_key_value_heads", 2},
          {"vocab_size", 1000}};
}

TEST(LlmArchitectures, MixtralMatchesItsPublishedTotalAndActiveParameters) {
  // Published (mistral.ai, and the figure the issue gives): 46,702,792,704 total, 12,879,925,248 active
  // with 2 of 8 experts per token.
  const ModelConfig c = shipped("mixtral-8x7b");
  EXPECT_EQ(c.moe.experts, 8);
  EXPECT_EQ(c.moe.top_k, 2);
  EXPECT_EQ(parameters(c), 46'702'792'704);
  EXPECT_EQ(active_parameters(c), 12'879'925'248);
}

TEST(LlmArchitectures, QwenMoeWithASharedExpert) {
  // Qwen1.5-MoE-A2.7B. The model card publishes "14.3B parameters in total and 2.7B activated"; the exact
  // figures here are the sum of the tensor shapes of modeling_qwen2_moe.py for this config (q, k, v with
  // biases; 60 experts of 1408; one shared expert of 5632 with its sigmoid gate; untied lm_head), which
  // round to the card's figures. (Not read from the safetensors index: it was not at hand offline.)
  const ModelConfig c = shipped("qwen1.5-moe-a2.7b");
  EXPECT_EQ(parameters(c), 14'315'784'192);
  EXPECT_EQ(active_parameters(c), 2'689'173'504);
  EXPECT_EQ(c.moe.shared_intermediate, 5632);
  EXPECT_TRUE(c.qkv_bias);
}

TEST(LlmArchitectures, DeepSeekMoeWithSharedExpertsAndADenseFirstLayer) {
  // DeepSeek-MoE-16B. The paper (arXiv 2401.06066, Table 1 and the model card) publishes 16.4B total and
  // 2.8B activated parameters; the exact figures are the sum of modeling_deepseek.py's tensor shapes for
  // this config (first layer dense of 10944; 27 MoE layers of 64 routed experts of 1408, top 6, and 2
  // shared experts), which round to the published ones.
  const ModelConfig c = shipped("deepseek-moe-16b");
  EXPECT_EQ(c.moe.dense_layers, 1);
  EXPECT_EQ(c.moe.shared_intermediate, 2 * 1408);
  EXPECT_EQ(parameters(c), 16'375'728'128);
  EXPECT_EQ(active_parameters(c), 2'828'650'496);
}

TEST(LlmArchitectures, Qwen3MoeWithQkNormsAndNoSharedExpert) {
  // Qwen3-30B-A3B's shape (config.json of Qwen/Qwen3-30B-A3B): the model card publishes 30.5B total and
  // 3.3B activated; the exact figures are the sum of modeling_qwen3_moe.py's shapes (q_norm and k_norm of
  // head_dim per layer, 128 experts of 768, top 8, untied).
  const nlohmann::json doc = {{"architectures", {"Qwen3MoeForCausalLM"}}, {"hidden_size", 2048}, {"head_dim", 128},
                              {"intermediate_size", 6144}, {"moe_intermediate_size", 768}, {"num_attention_heads", 32},
                              {"num_key_value_heads", 4}, {"num_hidden_layers", 48}, {"num_experts", 128},
                              {"num_experts_per_tok", 8}, {"decoder_sparse_step", 1}, {"mlp_only_layers", nlohmann::json::array()},
                              {"vocab_size", 151936}, {"tie_word_embeddings", false}, {"use_sliding_window", false},
                              {"sliding_window", nullptr}, {"max_window_layers", 48}, {"attention_bias", false}};
  const ModelConfig c = parse_config(doc, "qwen3-30b-a3b.json");
  EXPECT_TRUE(c.qk_norm);
  EXPECT_EQ(parameters(c), 30'532'122'624);
  EXPECT_EQ(active_parameters(c), 3'353'032'704);
}

TEST(LlmArchitectures, DenseArchitecturesMatchTheirPublishedTotals) {
  // Published sizes: Mistral-7B-v0.1 7,241,732,096 (the model card's safetensors total); the others are
  // sums of their modeling files' shapes that round to the cards' figures: Qwen2-7B 7.62B (q, k, v
  // biases), Gemma-7B 8.54B (head_dim 256, tied embeddings), Gemma-2-9B 9.24B (four norms per layer,
  // tied), Phi-3-mini 3.82B (fused qkv_proj and gate_up_proj counted as their parts).
  EXPECT_EQ(parameters(shipped("mistral-7b")), 7'241'732'096);
  EXPECT_EQ(parameters(shipped("qwen2-7b")), 7'615'616'512);
  EXPECT_EQ(parameters(shipped("gemma-7b")), 8'537'680'896);
  EXPECT_EQ(parameters(shipped("gemma-2-9b")), 9'241'705'984);
  EXPECT_EQ(parameters(shipped("phi-3-mini-4k")), 3'821'079'552);
  EXPECT_TRUE(shipped("gemma-7b").tied_embeddings);  // Gemma's default when the config does not say
  EXPECT_EQ(shipped("phi-3-mini-4k").fused, "qkv_proj, gate_up_proj");
  EXPECT_EQ(active_parameters(shipped("mistral-7b")), parameters(shipped("mistral-7b")));
}

TEST(LlmArchitectures, MistralKvCacheIsCappedByItsSlidingWindow) {
  const ModelConfig c = shipped("mistral-7b");
  EXPECT_EQ(c.sliding_window, 4096);
  EXPECT_EQ(c.local_layers, 32);
  // 2 x 32 layers x 8 KV heads x 128 x 2 bytes = 128 KiB per token, for at most 4096 tokens.
  EXPECT_EQ(kv_cache_bytes_per_token(c, Precision::bf16), 131'072.0);
  EXPECT_EQ(kv_cache_bytes_per_sequence(c, Precision::bf16, 8192), 131'072.0 * 4096);
  EXPECT_EQ(kv_cache_bytes_per_sequence(c, Precision::bf16, 2048), 131'072.0 * 2048);
  // Decode attention reads the window, not the context.
  const std::vector<Op> ops = decode_ops(c, Precisions{}, 1, 8192);
  EXPECT_EQ(ops[3].name, "attn_scores");
  EXPECT_EQ(ops[3].kv_read_bytes, 4096.0 * 1024 * 2);
}

TEST(LlmArchitectures, WindowedPrefillCountsOnlyThePairsInTheWindow) {
  // Mistral at 8192 prompt tokens, window 4096: W(W+1)/2 pairs for the first W queries, then W each.
  const ModelConfig c = shipped("mistral-7b");
  const double w = 4096, p = 8192;
  const std::vector<Op> ops = prefill_ops(c, Precisions{}, 8192);
  ASSERT_EQ(ops[3].name, "attn_scores");
  EXPECT_EQ(ops[3].flops, 2.0 * 32 * 128 * (w * (w + 1) / 2 + (p - w) * w));
  double chain = 0.0;  // the chain's blocks of 64 queries see at most 4096 + 63 keys
  for (const GemmCall& call : ops[3].calls) chain += 2.0 * call.m * call.k * call.n * call.count;
  EXPECT_GE(chain, ops[3].flops);
  EXPECT_LE(chain, 2.0 * 32 * 128 * p * (w + 64));
}

TEST(LlmArchitectures, SizesBeyondAnyModelAreRefusedSoCountsStayInSixtyFourBits) {
  nlohmann::json huge = llama_like();
  huge["hidden_size"] = std::int64_t{1} << 40;
  EXPECT_NE(refusal(huge).find("'hidden_size' is 1099511627776: more than the 262144"), std::string::npos);
  nlohmann::json layers = llama_like();
  layers["num_hidden_layers"] = 100000;
  EXPECT_NE(refusal(layers).find("'num_hidden_layers'"), std::string::npos);
}

TEST(LlmArchitectures, Gemma2WindowsHalfItsLayers) {
  const ModelConfig c = shipped("gemma-2-9b");
  EXPECT_EQ(c.local_layers, 21);
  // 2 x 8 x 256 x 2 bytes per layer-token: 21 layers at 4096 tokens, 21 at the full 8192.
  EXPECT_EQ(kv_cache_bytes_per_sequence(c, Precision::bf16, 8192), 8192.0 * (21 * 4096 + 21 * 8192));
  const std::vector<Op> ops = decode_ops(c, Precisions{}, 1, 8192);
  int local = 0;
  for (const Op& op : ops) local += op.name == "attn_scores_local" && op.layers_with == 21;
  EXPECT_EQ(local, 1);
}

TEST(LlmArchitectures, UnmodelledArchitecturesAndFieldsAreRefusedByName) {
  nlohmann::json mla = llama_like();
  mla["architectures"] = {"DeepseekV2ForCausalLM"};
  EXPECT_NE(refusal(mla).find("architecture 'DeepseekV2ForCausalLM' is not modelled"), std::string::npos);
  nlohmann::json lora = llama_like();
  lora["kv_lora_rank"] = 512;
  EXPECT_NE(refusal(lora).find("field 'kv_lora_rank' is not modelled for LlamaForCausalLM"), std::string::npos);
  nlohmann::json experts = llama_like();
  experts["num_local_experts"] = 8;  // a Mixtral field on a Llama config
  EXPECT_NE(refusal(experts).find("'num_local_experts'"), std::string::npos);
  nlohmann::json none = llama_like();
  none.erase("architectures");
  EXPECT_NE(refusal(none).find("'architectures' is missing"), std::string::npos);
  nlohmann::json quantized = llama_like();
  quantized["quantization_config"] = {{"bits", 4}};
  EXPECT_NE(refusal(quantized).find("--weights"), std::string::npos);
  nlohmann::json mlp_bias = llama_like();
  mlp_bias["mlp_bias"] = true;
  EXPECT_NE(refusal(mlp_bias).find("'mlp_bias'"), std::string::npos);
  nlohmann::json sparse = llama_like();
  sparse["architectures"] = {"Qwen2MoeForCausalLM"};
  sparse.update({{"num_experts", 4}, {"num_experts_per_tok", 2}, {"moe_intermediate_size", 64}, {"decoder_sparse_step", 2}});
  EXPECT_NE(refusal(sparse).find("'decoder_sparse_step'"), std::string::npos);
  sparse["decoder_sparse_step"] = 1;
  sparse["num_experts_per_tok"] = 5;
  EXPECT_NE(refusal(sparse).find("num_experts_per_tok (5) is above"), std::string::npos);
}

}  // namespace
}  // namespace roofline::llm
