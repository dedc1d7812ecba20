// llm on measured dequant-dot ceilings (issue 38): a quantized step's dequantization time is its weights over
// the format's measured ceiling at the thread count, the output names that ceiling, and a file without one
// falls back to the stated convention (half the fp32 FMA peak) and says so.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "roofline/model/results.hpp"
#include "roofline/model/results_document.hpp"
#include "roofline/llm/estimate.hpp"
#include "roofline/llm/quant.hpp"
#include "roofline/llm/summary.hpp"
#include "roofline/llm/tensors.hpp"
#include "shipped_models.hpp"

namespace roofline::llm {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

Precisions stored_as(const std::string& format) {
  Precisions p;
  const WeightFormat f = parse_weight_format(format, "--weights");
  p.weights = f.compute;
  p.format = f;
  return p;
}

// The round ceilings of results_2t.json (DRAM 50 GB/s, fp32 500 GFLOP/s at 2 threads), with a q6_k and an
// int4 dequant-dot ceiling at 2 threads and a q6_k one at 1 thread when `with_ceilings`.
json round_results(bool with_ceilings) {
  json results = load_results(fs::path(ROOFLINE_TEST_DATA_DIR) / "llm" / "results_2t.json");
  if (with_ceilings) {
    results["roofline"]["dequant_ceilings"] = json::array({
        {{"format", "q6_k"}, {"threads", 2}, {"value", 2.0e10}, {"unit", "weights/s"}, {"isa", "avx512_vnni"}, {"level", "L1"}},
        {{"format", "q6_k"}, {"threads", 1}, {"value", 1.0e10}, {"unit", "weights/s"}, {"isa", "avx512_vnni"}, {"level", "L1"}},
        {{"format", "int4"}, {"threads", 2}, {"value", 3.0e10}, {"unit", "weights/s"}, {"isa", "avx512"}, {"level", "L2"}}});
  }
  return results;
}

Roofs roofs_of(const json& results) {
  return read_roofs(read_results(results, "results_2t.json"), "results_2t.json", 2, {Precision::int8, Precision::bf16, Precision::fp32}, RoofSource::peak);
}

TEST(LlmDequant, TheMeasuredCeilingBoundsAQuantizedStep) {
  const json results = round_results(true);
  const Roofs roofs = roofs_of(results);
  ASSERT_EQ(roofs.dequant.count("q6_k"), 1u);
  EXPECT_EQ(roofs.dequant.at("q6_k").weights_per_second, 2.0e10);  // the 2-thread row, not the 1-thread one
  const ModelConfig c = shipped("llama-2-7b");
  const Precisions p = stored_as("q6_k");
  const std::vector<Op> ops = decode_ops(c, p, 1, 1);
  const StepEstimate s = estimate_step(ops, c.layers, roofs, step_bytes(ops, c.layers), p.weights);
  // q_proj: 4096 x 4096 weights / 20 G weights/s = 839 us, above 4096^2 x 0.8203 B / 50 GB/s = 275 us.
  const OpEstimate& q = s.ops.front();
  EXPECT_DOUBLE_EQ(q.op.dequant_weights, 4096.0 * 4096);
  EXPECT_DOUBLE_EQ(q.dequant_seconds, 4096.0 * 4096 / 2.0e10);
  EXPECT_EQ(q.limit, Limit::dequant);
  EXPECT_EQ(q.dequant_roof, "q6_k dequant-dot avx512_vnni L1");
  EXPECT_EQ(s.limit, Limit::dequant);
  // int4-g32 is measured by the int4 (g128) kernel.
  EXPECT_EQ(dequant_family("int4-g32"), "int4");
  EXPECT_EQ(dequant_family("fp8"), "");
  const Precisions i4 = stored_as("int4-g32");
  const OpEstimate e = estimate_step(decode_ops(c, i4, 1, 1), c.layers, roofs, 1e12, i4.weights).ops.front();
  EXPECT_DOUBLE_EQ(e.dequant_seconds, 4096.0 * 4096 / 3.0e10);
}

TEST(LlmDequant, WithoutTheRowTheConventionIsUsedAndSaid) {
  const json results = round_results(false);
  const Roofs roofs = roofs_of(results);
  EXPECT_TRUE(roofs.dequant.empty());
  const ModelConfig c = shipped("llama-2-7b");
  const Precisions p = stored_as("q6_k");
  const OpEstimate q = estimate_step(decode_ops(c, p, 1, 1), c.layers, roofs, 1e12, p.weights).ops.front();
  EXPECT_DOUBLE_EQ(q.dequant_seconds, 4096.0 * 4096 * 4.125 / 2.5e11);  // element operations / half the fp32 peak
  EXPECT_EQ(q.dequant_roof, "convention");
}

TEST(LlmDequant, TheSummaryNamesTheCeilingUsed) {
  const ModelConfig c = shipped("llama-2-7b");
  LlmRequest r;
  r.precisions = stored_as("q6_k");
  r.batches = {1};
  r.prompts = {16};
  r.context = 16;
  for (const bool with : {true, false}) {
    const LlmAnswer a = summarize(c, r, roofs_of(round_results(with)), "results_2t.json");
    ASSERT_FALSE(a.roofs.dequant.empty());
    const DequantRoofUsed& d = a.roofs.dequant.front();
    EXPECT_EQ(d.measured, with);
    EXPECT_EQ(to_json(a)["roofs"]["dequant"].front()["source"], with ? "measured" : "convention");
    const std::string notes = json(a.notes).dump();
    EXPECT_NE(notes.find(with ? "measured q6_k ceiling at 2 threads" : "no q6_k dequant-dot ceiling at 2 threads"),
              std::string::npos) << notes;
    EXPECT_EQ(a.layer_decode.ops.front().dequant_roof, with ? "q6_k dequant-dot avx512_vnni L1" : "convention");
  }
  // Native weights: no dequantization roof at all.
  LlmRequest native = r;
  native.precisions = Precisions{};
  const LlmAnswer a = summarize(c, native, roofs_of(round_results(true)), "results_2t.json");
  EXPECT_TRUE(a.roofs.dequant.empty());
  EXPECT_FALSE(to_json(a)["roofs"].contains("dequant"));
}

}  // namespace
}  // namespace roofline::llm
