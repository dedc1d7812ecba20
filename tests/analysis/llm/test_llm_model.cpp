// The LLM model against hand-computed values: published parameter totals, the KV cache per token, decode
// FLOPs per token = 2 x weights + 4 x layers x heads x head_dim x context, times on the round ceilings of
// tests/data/llm/results_2t.json (bf16 1 TFLOP/s, DRAM read 50 GB/s at 2 threads), and the ceilings a
// results file must have.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "roofline/common/errors.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/results_document.hpp"
#include "roofline/llm/estimate.hpp"
#include "roofline/llm/ops.hpp"
#include "roofline/llm/roofs.hpp"
#include "roofline/llm/summary.hpp"
#include "shipped_models.hpp"

namespace roofline::llm {
namespace {
namespace fs = std::filesystem;
const fs::path kData = fs::path(ROOFLINE_TEST_DATA_DIR) / "llm";

const Precisions kBf16{};  // bf16 weights and KV cache

Roofs test_roofs(RoofSource source = RoofSource::peak, const char* file = "results_2t.json") {
  const ResultsDocument results = load_results_document(kData / file);
  return read_roofs(results, file, 0, {Precision::bf16}, source);
}

double total_flops(const std::vector<Op>& ops, std::int64_t layers) {
  double f = 0;
  for (const Op& op : ops) f += op.flops * (op.per_layer ? static_cast<double>(layers) : 1.0);
  return f;
}

TEST(LlmModel, ParametersMatchThePublishedTotals) {
  EXPECT_EQ(parameters(shipped("llama-2-7b")), 6'738'415'616);
  EXPECT_EQ(parameters(shipped("llama-3-8b")), 8'030'261'248);
  EXPECT_EQ(parameters(shipped("llama-3.2-1b")), 1'235'814'400);  // tied: lm_head is the embedding
  EXPECT_EQ(parameters(shipped("llama-2-70b")), 68'976'648'192);
}

TEST(LlmModel, MatmulWeightsLeaveOutEmbeddingLookupAndNorms) {
  // 6,738,415,616 - 32000 x 4096 embeddings - 65 norms x 4096.
  EXPECT_EQ(matmul_weights(shipped("llama-2-7b")), 6'607'077'376);
  // Tied: lm_head multiplies the embedding matrix, so it is read although it is not a separate parameter.
  EXPECT_EQ(matmul_weights(shipped("llama-3.2-1b")), 1'235'814'400 - 33 * 2048);
}

TEST(LlmModel, Llama3KeepsOneHundredTwentyEightKiBOfBf16KvCachePerToken) {
  EXPECT_EQ(kv_cache_bytes_per_token(shipped("llama-3-8b"), Precision::bf16), 131'072.0);
  EXPECT_EQ(kv_cache_bytes_per_token(shipped("llama-3-8b"), Precision::int8), 65'536.0);
  EXPECT_EQ(kv_cache_bytes_per_token(shipped("llama-2-7b"), Precision::bf16), 524'288.0);  // no GQA
}

TEST(LlmModel, DecodeFlopsPerTokenAreTwoPerWeightPlusAttention) {
  const ModelConfig c = shipped("llama-3-8b");
  // 2 x 7,504,658,432 + 4 x 32 x 32 x 128 x 4096, by hand.
  EXPECT_DOUBLE_EQ(total_flops(decode_ops(c, kBf16, 1, 4096), c.layers), 17'156'800'512.0);
  for (std::int64_t s : {1, 512, 8192}) {
    const double expected = 2.0 * matmul_weights(c) + 4.0 * c.layers * c.heads * c.head_dim * s;
    EXPECT_DOUBLE_EQ(total_flops(decode_ops(c, kBf16, 1, s), c.layers), expected) << s;
    EXPECT_DOUBLE_EQ(total_flops(decode_ops(c, kBf16, 8, s), c.layers), 8 * expected) << s;
  }
}

TEST(LlmModel, PrefillCountsCausalPairsAndOneLmHeadToken) {
  const ModelConfig c = shipped("llama-2-7b");
  const double p = 512, pairs = p * (p + 1) / 2;
  const double layer_weights = (matmul_weights(c) - static_cast<double>(c.vocab * c.hidden)) / c.layers;
  const double expected = c.layers * (2 * p * layer_weights + 4.0 * c.heads * c.head_dim * pairs) + 2.0 * c.vocab * c.hidden;
  EXPECT_DOUBLE_EQ(total_flops(prefill_ops(c, kBf16, 512), c.layers), expected);
}

TEST(LlmModel, OneProjectionByHand) {
  const std::vector<Op> ops = decode_ops(shipped("llama-2-7b"), kBf16, 1, 4096);
  const Op& q = ops.front();
  ASSERT_EQ(q.name, "q_proj");
  EXPECT_EQ(q.flops, 2.0 * 4096 * 4096);
  EXPECT_EQ(q.weight_bytes, 4096.0 * 4096 * 2);
  EXPECT_EQ(q.activation_bytes, 4096.0 * 2 + 4096.0 * 4);  // bf16 in, fp32 out (the GEMM operand sizes)
  const Op& k = ops[1];
  EXPECT_EQ(k.kv_write_bytes, 4096.0 * 2);  // one token's K for 32 KV heads x 128
  const Op& scores = ops[3];
  ASSERT_EQ(scores.name, "attn_scores");
  EXPECT_EQ(scores.kv_read_bytes, 4096.0 * 4096 * 2);  // the whole K cache of one layer
}

TEST(LlmModel, ReadsTheRoundCeilings) {
  const Roofs r = test_roofs();
  EXPECT_EQ(r.threads, 2);
  EXPECT_EQ(r.compute.at(Precision::bf16).value, 1e12);
  EXPECT_EQ(r.compute.at(Precision::bf16).engine, Engine::vector);
  EXPECT_EQ(r.dram().bandwidth, 5e10);
  EXPECT_EQ(r.level_for(1 << 20).level, "L2");
  EXPECT_EQ(r.level_for(20 << 20).level, "L3");
  EXPECT_EQ(r.level_for(4.0 * (1 << 30)).level, "DRAM");
  EXPECT_EQ(r.memory_total_bytes, 32.0 * (1 << 30));
  const Roofs g = test_roofs(RoofSource::gemm);
  EXPECT_EQ(g.compute.at(Precision::bf16).value, 8e11);
  EXPECT_EQ(g.compute.at(Precision::bf16).peak, 1e12);
  // The GEMV's 4e10 FLOP/s at 1 FLOP/byte: 40 GB/s from DRAM for bf16 operations, the read roof elsewhere.
  EXPECT_EQ(g.bandwidth(g.dram(), Precision::bf16), 4e10);
  EXPECT_EQ(g.bandwidth(g.dram(), Precision::fp32), 5e10);
  EXPECT_EQ(g.bandwidth(g.level_for(1 << 20), Precision::bf16), 4e11);
}

TEST(LlmModel, TheLevelAWorkingSetLivesInIsTheModelsResidentLevel) {
  // Roofs::level_for is resident_level.hpp's rule over the roofs' max_bytes: a working set of exactly a level's
  // reach lives in it, a level of unknown reach (0) holds nothing, main memory (the last) when none holds it.
  Roofs r;
  r.levels = {{"L1", 1e12, 48e3}, {"L2", 5e11, 0.0}, {"L3", 2e11, 32e6}, {"DRAM", 5e10, 64e9}};
  EXPECT_EQ(r.level_for(48e3).level, "L1");
  EXPECT_EQ(r.level_for(48e3 + 1).level, "L3");
  EXPECT_EQ(r.level_for(32e6 + 1).level, "DRAM");
  EXPECT_EQ(&r.level_for(1e12), &r.dram());  // main memory's own reach is never asked
  r.levels = {{"HBM", 3e12, 0.0}};
  EXPECT_EQ(r.level_for(1.0).level, "HBM");
}

TEST(LlmModel, DecodeBatchOneOfA7BModelTakesWeightBytesOverDramBandwidth) {
  const ModelConfig c = shipped("llama-2-7b");
  const std::vector<Op> ops = decode_ops(c, kBf16, 1, 1);
  const StepEstimate s = estimate_step(ops, c.layers, test_roofs(), step_bytes(ops, c.layers), Precision::bf16);
  EXPECT_EQ(s.bound, Bound::memory);
  EXPECT_EQ(s.level, "DRAM");
  const double weights_over_bw = matmul_weights(c) * 2.0 / 5e10;
  EXPECT_NEAR(s.seconds, weights_over_bw, 0.001 * weights_over_bw);
  EXPECT_NEAR(s.mbu, 1.0, 1e-12);
}

TEST(LlmModel, PrefillIsComputeBound) {
  const ModelConfig c = shipped("llama-2-7b");
  const std::vector<Op> ops = prefill_ops(c, kBf16, 512);
  const StepEstimate s = estimate_step(ops, c.layers, test_roofs(), step_bytes(ops, c.layers), Precision::bf16);
  EXPECT_EQ(s.bound, Bound::compute);
  const double layer_flops = total_flops(ops, 1) - 2.0 * c.vocab * c.hidden;
  EXPECT_NEAR(s.layer_seconds, layer_flops / 1e12, 1e-9);
}

TEST(LlmModel, FirstBatchWhereFindsTheSwitch) {
  EXPECT_EQ(first_batch_where(1 << 20, [](std::int64_t b) { return b >= 37; }), 37);
  EXPECT_EQ(first_batch_where(1 << 20, [](std::int64_t b) { return b >= 1; }), 1);
  EXPECT_EQ(first_batch_where(1000, [](std::int64_t) { return false; }), 0);
}

TEST(LlmModel, SummaryAnswersTheQuestions) {
  LlmRequest r;
  r.precisions = kBf16;
  const LlmAnswer a = summarize(shipped("llama-2-7b"), r, test_roofs(), "results_2t.json");
  EXPECT_EQ(a.model.parameters, 6'738'415'616);
  EXPECT_EQ(a.model.kv_cache_bytes_per_token, 524'288.0);
  // (32 GiB - 12.55 GiB of weights) / 2 GiB per sequence at context 4096.
  EXPECT_EQ(a.model.max_sequences, 9);
  ASSERT_EQ(a.decode.size(), 3u);
  EXPECT_EQ(a.decode[0].step.bound, Limit::memory);
  EXPECT_LT(a.decode[0].tokens_per_second, a.decode[1].tokens_per_second);
  // The projections' AI is ~batch FLOP/byte in bf16: they meet the 20 FLOP/byte ridge just past batch 20.
  ASSERT_TRUE(a.ridge.projections_compute_bound_batch.has_value());
  const std::int64_t ridge = *a.ridge.projections_compute_bound_batch;
  EXPECT_GE(ridge, 20);
  EXPECT_LE(ridge, 22);
  EXPECT_EQ(a.prefill[0].step.bound, Limit::compute);
  EXPECT_EQ(a.prefill[0].prompt_tokens, 512);
  EXPECT_EQ(a.layer_decode.ops.size(), 11u);
  // The document `llm --json` prints says the same under its names.
  const nlohmann::json j = to_json(a);
  EXPECT_EQ(j["model"]["parameters"], 6'738'415'616);
  EXPECT_EQ(j["model"]["max_sequences"], 9);
  EXPECT_EQ(j["decode"][0]["bound"], "memory");
  EXPECT_EQ(j["ridge"]["projections_compute_bound_batch"], ridge);
  EXPECT_EQ(j["layer"]["decode"]["ops"].size(), 11u);
}

std::string roofs_error(const char* file) {
  try {
    test_roofs(RoofSource::peak, file);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(LlmModel, SaysWhichCeilingIsMissingAndHowToMeasureIt) {
  const std::string no_bf16 = roofs_error("results_no_bf16.json");
  EXPECT_NE(no_bf16.find("no bf16 compute ceiling at 2 threads"), std::string::npos) << no_bf16;
  EXPECT_NE(no_bf16.find("roofline run --suites compute"), std::string::npos) << no_bf16;
  const std::string no_dram = roofs_error("results_no_dram.json");
  EXPECT_NE(no_dram.find("no DRAM memory ceiling"), std::string::npos) << no_dram;
  EXPECT_NE(no_dram.find("--suites bandwidth"), std::string::npos) << no_dram;
}

}  // namespace
}  // namespace roofline::llm
