// Quantized weights (bytes from the block formats, dequantization as a third bound), mixture-of-experts
// decode (distinct experts touched under a routing law), MBU/MFU of an observed speed and the speculative
// decoding bound, each against values computed by hand.
#include <cmath>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "roofline/model/results.hpp"
#include "roofline/model/results_document.hpp"
#include "roofline/llm/estimate.hpp"
#include "roofline/llm/moe.hpp"
#include "roofline/llm/observed.hpp"
#include "roofline/llm/quant.hpp"
#include "roofline/llm/speculative.hpp"
#include "roofline/llm/summary.hpp"
#include "roofline/llm/tensors.hpp"
#include "shipped_models.hpp"
#include "support/input_errors.hpp"

namespace roofline::llm {
namespace {
namespace fs = std::filesystem;
const fs::path kData = fs::path(ROOFLINE_TEST_DATA_DIR) / "llm";

Precisions stored_as(const std::string& format) {
  Precisions p;
  const WeightFormat f = parse_weight_format(format, "--weights");
  p.weights = f.compute;
  p.format = f;
  return p;
}

Roofs round_roofs(int threads = 2) {
  const ResultsDocument results = load_results_document(kData / "results_2t.json");
  return read_roofs(results, "results_2t.json", threads, {Precision::int8, Precision::bf16, Precision::fp32}, RoofSource::peak);
}

TEST(LlmFormats, BitsPerWeightFromTheBlockFormats) {
  EXPECT_EQ(parse_weight_format("q8_0", "-").bits_per_weight, 34.0 * 8 / 32);
  EXPECT_EQ(parse_weight_format("q4_0", "-").bits_per_weight, 18.0 * 8 / 32);
  EXPECT_EQ(parse_weight_format("q4_k", "-").bits_per_weight, 144.0 * 8 / 256);
  EXPECT_EQ(parse_weight_format("q5_k", "-").bits_per_weight, 176.0 * 8 / 256);
  EXPECT_EQ(parse_weight_format("q6_k", "-").bits_per_weight, 210.0 * 8 / 256);
  EXPECT_EQ(parse_weight_format("fp8", "-").bits_per_weight, 8.0);
  EXPECT_EQ(parse_weight_format("int4-g128", "-").bits_per_weight, 4.125);
  EXPECT_EQ(parse_weight_format("int4-g32", "-").bits_per_weight, 4.5);
  EXPECT_EQ(parse_weight_format("q4_0", "-").compute, Precision::int8);  // llama.cpp's integer dot products
  EXPECT_EQ(parse_weight_format("int4-g128", "-").compute, Precision::bf16);
  for (const char* bad : {"q3_k", "int4-g0", "int4-g12", "int4-g", "fp16"}) {
    EXPECT_NE(testing::input_error_of([&] { parse_weight_format(bad, "--weights"); }).find("--weights"), std::string::npos) << bad;
  }
}

TEST(LlmFormats, Llama2BytesInQ8AndQ4) {
  // Every 2-D tensor (6,738,149,376 weights: the parameters less 65 norms of 4096) in the format, the
  // norms in fp32 as GGUF files keep them (266,240 x 4 bytes).
  const ModelConfig c = shipped("llama-2-7b");
  EXPECT_EQ(weight_bytes(c, stored_as("q8_0")), 6'738'149'376.0 * 34 / 32 + 266'240.0 * 4);  // 7,160,348,672
  EXPECT_EQ(weight_bytes(c, stored_as("q4_0")), 6'738'149'376.0 * 18 / 32 + 266'240.0 * 4);  // 3,791,273,984
  EXPECT_EQ(weight_bytes(c, stored_as("q4_0")), 3'791'273'984.0);
  // llama.cpp's default Q4_0 file keeps lm_head (output.weight) in Q6_K: 131,072,000 weights at 210/256.
  Precisions kept = stored_as("q4_0");
  kept.keep["lm_head"] = parse_weight_format("q6_k", "--keep");
  EXPECT_EQ(weight_bytes(c, kept), 3'825'065'984.0);
  // Native precisions keep every tensor at their own size, as before.
  EXPECT_EQ(weight_bytes(c, Precisions{}), 6'738'415'616.0 * 2);
}

TEST(LlmFormats, BlocksMustDivideTheRows) {
  // Qwen1.5-MoE's experts are 1408 wide: not whole 256-weight k-quant blocks.
  const std::string e = testing::input_error_of([] { check_blocks(shipped("qwen1.5-moe-a2.7b"), stored_as("q4_k")); });
  EXPECT_NE(e.find("experts.down_proj rows of 1408 weights"), std::string::npos) << e;
  EXPECT_NO_THROW(check_blocks(shipped("qwen1.5-moe-a2.7b"), stored_as("q8_0")));
}

TEST(LlmFormats, DecodeSaysWhetherMemoryOrDequantizationBinds) {
  // Round ceilings: DRAM 50 GB/s, fp32 500 GFLOP/s -> 250 G element operations/s of dequantization.
  // q4_0: 0.5625 B/weight / 50 GB/s = 11.25 ps > 2.0625 ops / 250 G/s = 8.25 ps: memory.
  // q6_k: 0.8203 B/weight / 50 GB/s = 16.41 ps < 4.125 ops / 250 G/s = 16.5 ps: dequantization.
  const ModelConfig c = shipped("llama-2-7b");
  const Roofs roofs = round_roofs();
  EXPECT_EQ(roofs.dequant_rate, 2.5e11);
  for (const auto& [format, limit] : {std::pair{"q4_0", Limit::memory}, std::pair{"q6_k", Limit::dequant}}) {
    const Precisions p = stored_as(format);
    const std::vector<Op> ops = decode_ops(c, p, 1, 1);
    const StepEstimate s = estimate_step(ops, c.layers, roofs, step_bytes(ops, c.layers), p.weights);
    EXPECT_EQ(s.limit, limit) << format;
    EXPECT_EQ(s.ops.front().limit, limit) << format;
  }
  const Op q = decode_ops(c, stored_as("q6_k"), 1, 1).front();
  EXPECT_EQ(q.precision, Precision::int8);
  EXPECT_EQ(q.weight_bytes, 4096.0 * 4096 * 6.5625 / 8);
  EXPECT_DOUBLE_EQ(q.dequant_ops, 4096.0 * 4096 * 4.125);
}

TEST(LlmMoe, DistinctExpertsUnderEachRoutingLaw) {
  const Routing uniform;
  EXPECT_DOUBLE_EQ(experts_touched(uniform, 8, 2, 1), 2.0);
  EXPECT_DOUBLE_EQ(experts_touched(uniform, 8, 2, 8), 8.0 * (1.0 - std::pow(0.75, 8)));  // 7.199
  EXPECT_DOUBLE_EQ(experts_touched(parse_routing("best"), 8, 2, 8), 2.0);
  EXPECT_DOUBLE_EQ(experts_touched(parse_routing("worst"), 8, 2, 3), 6.0);
  EXPECT_DOUBLE_EQ(experts_touched(parse_routing("worst"), 8, 2, 8), 8.0);
  EXPECT_DOUBLE_EQ(experts_touched(parse_routing("touched=5"), 8, 2, 8), 5.0);
  EXPECT_DOUBLE_EQ(experts_touched(parse_routing("touched=5"), 8, 2, 1), 2.0);  // one token uses only k
  for (const char* bad : {"zipf", "touched=", "touched=x", "touched=-1"}) {
    EXPECT_NE(testing::input_error_of([&] { parse_routing(bad); }).find("--routing"), std::string::npos) << bad;
  }
  EXPECT_NE(testing::input_error_of([] { check_routing(parse_routing("touched=9"), 8, 2); }).find("between"), std::string::npos);
}

TEST(LlmMoe, MixtralDecodeReadsTheExpertsTheBatchTouches) {
  const ModelConfig c = shipped("mixtral-8x7b");
  const double expert = 14336.0 * 4096 * 2;  // one expert's gate_proj in bf16
  for (std::int64_t b : {1, 8}) {
    const std::vector<Op> ops = decode_ops(c, Precisions{}, b, 16);
    const auto it = std::find_if(ops.begin(), ops.end(), [](const Op& op) { return op.name == "expert_gate_proj"; });
    ASSERT_NE(it, ops.end());
    const double touched = 8.0 * (1.0 - std::pow(0.75, static_cast<double>(b)));
    EXPECT_DOUBLE_EQ(it->experts_touched, touched);
    EXPECT_DOUBLE_EQ(it->weight_bytes, touched * expert);
    EXPECT_DOUBLE_EQ(it->flops, 2.0 * b * 2 * 14336 * 4096);  // each token through k = 2 experts
  }
  // Decode FLOPs per token at batch 1 = 2 x the weights a token multiplies + attention.
  double flops = 0.0;
  for (const Op& op : decode_ops(c, Precisions{}, 1, 1)) flops += op.flops * op_times(op, c.layers);
  EXPECT_DOUBLE_EQ(flops, 2.0 * matmul_weights(c) + 4.0 * 32 * 32 * 128);
}

TEST(LlmObserved, MbuAndMfuOfAnObservedSpeedByHand) {
  StepEstimate s;
  s.bytes = 1e9;
  s.flops = 2e9;
  s.seconds = 0.02;
  s.bandwidth = 5e10;
  s.peak = 1e12;
  // 25 tokens/s at batch 1: a 40 ms step. 1 GB / 40 ms = 25 GB/s of 50: MBU 0.5; 2 GFLOP / 40 ms = 50
  // GFLOP/s of 1 TFLOP/s: MFU 0.05. Half the estimate's speed. Nearest: memory.
  const Utilisation u = utilisation(s, 1.0, 25.0, 0.0);
  EXPECT_DOUBLE_EQ(u.step_seconds, 0.04);
  EXPECT_DOUBLE_EQ(u.mbu, 0.5);
  EXPECT_DOUBLE_EQ(u.mfu, 0.05);
  EXPECT_DOUBLE_EQ(u.estimate_ratio, 0.5);
  EXPECT_EQ(u.nearest, Limit::memory);
  // 8 G element operations of unpacking in 40 ms at 250 G/s: 0.8 of the vector units, above MBU.
  s.dequant_ops = 8e9;
  const Utilisation q = utilisation(s, 1.0, 25.0, 2.5e11);
  EXPECT_DOUBLE_EQ(q.dequant, 0.8);
  EXPECT_EQ(q.nearest, Limit::dequant);
  // Batch 8 at 100 tokens/s total: an 80 ms step.
  EXPECT_DOUBLE_EQ(utilisation(s, 8.0, 100.0, 0.0).step_seconds, 0.08);
}

TEST(LlmObserved, ParsesDecodeAndPrefill) {
  const ObservedSpeeds o = parse_observed("decode=42.5,prefill=900");
  EXPECT_EQ(o.decode, 42.5);
  EXPECT_EQ(o.prefill, 900.0);
  EXPECT_EQ(parse_observed("prefill=3").decode, 0.0);
  for (const char* bad : {"", "decode", "decode=0", "decode=x", "speed=3", "decode=1,decode=2"}) {
    EXPECT_NE(testing::input_error_of([&] { parse_observed(bad); }).find("--observed"), std::string::npos) << bad;
  }
}

TEST(LlmSpeculative, BoundByHand) {
  // A = 0.8, K = 4: (1 - 0.8^5) / 0.2 = 3.3616 tokens per cycle. Draft step 1 ms, target 10 ms, verify
  // 11 ms: a cycle of 4 x 1 + 11 = 15 ms against 3.3616 x 10 ms of plain decode: 2.2411x.
  EXPECT_DOUBLE_EQ(expected_accepted_tokens(0.8, 4), (1.0 - std::pow(0.8, 5)) / 0.2);
  EXPECT_NEAR(expected_accepted_tokens(0.8, 4), 3.3616, 1e-12);
  EXPECT_DOUBLE_EQ(expected_accepted_tokens(1.0, 3), 4.0);
  const SpeculativeBound b = speculative_bound(0.8, 4, 0.001, 0.010, 0.011);
  EXPECT_DOUBLE_EQ(b.cycle_seconds, 0.015);
  EXPECT_NEAR(b.speedup, 3.3616 * 0.010 / 0.015, 1e-12);
}

}  // namespace
}  // namespace roofline::llm
