// The typed answer of `roofline llm` (answer.hpp) and its one writer: the measured comparison's residuals and
// the roof of the moment as typed figures, and the JSON keys to_json writes for them (present, null or left
// out as `llm --json` always had them), on the round ceilings of tests/data/llm/results_2t.json. The whole
// document is checked byte for byte by the golden cases llm-*.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "roofline/model/results.hpp"
#include "roofline/llm/answer.hpp"
#include "roofline/llm/measured.hpp"
#include "roofline/llm/summary.hpp"
#include "shipped_models.hpp"

namespace roofline::llm {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

Roofs test_roofs() {
  return read_roofs(load_results_document(fs::path(ROOFLINE_TEST_DATA_DIR) / "llm" / "results_2t.json"), "results_2t.json",
                    0, {Precision::bf16}, RoofSource::peak);
}

// Decode at batch 1, context 16: q_proj measured at twice its estimate, the layer at 1 ms, the rest not measured.
MeasuredStep half_measured(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs) {
  MeasuredStep m;
  m.batch = 1;
  m.context = 16;
  m.repetitions = 3;
  const MeasuredComparison plain = compare_measured(c, r, roofs, {m});
  m.op_seconds["q_proj"] = 2.0 * plain.steps.front().ops.front().time.estimated_seconds;
  m.layer_seconds = 1e-3;
  return m;
}

TEST(LlmAnswer, MeasuredOperationsCarryTheirResidualsAndTheRestNone) {
  const ModelConfig c = shipped("llama-2-7b");
  LlmRequest r;
  const Roofs roofs = test_roofs();
  const MeasuredComparison out = compare_measured(c, r, roofs, {half_measured(c, r, roofs)});
  ASSERT_EQ(out.steps.size(), 1u);
  const MeasuredRow& row = out.steps.front();
  EXPECT_EQ(row.id, "decode-b1");
  EXPECT_FALSE(row.step.has_value());  // bf16: not the quantized chain
  ASSERT_EQ(row.ops.front().estimate.op.name, "q_proj");
  EXPECT_DOUBLE_EQ(row.ops.front().time.residual().value(), -0.5);
  EXPECT_FALSE(row.ops.back().time.measured_seconds.has_value());
  EXPECT_FALSE(row.ops.back().time.residual().has_value());
  EXPECT_DOUBLE_EQ(row.layer.residual().value(), (row.layer.estimated_seconds - 1e-3) / 1e-3);
  EXPECT_FALSE(row.layer.measured_best_seconds.has_value());

  const json j = to_json(out);
  EXPECT_DOUBLE_EQ(j["steps"][0]["ops"][0]["residual"].get<double>(), -0.5);
  EXPECT_TRUE(j["steps"][0]["ops"].back()["residual"].is_null());
  EXPECT_TRUE(j["steps"][0]["measured_best_seconds"].is_null());
  EXPECT_FALSE(j["steps"][0].contains("residual_moment"));  // no roof of the moment: the keys are left out
  EXPECT_FALSE(j["steps"][0].contains("step"));
  EXPECT_FALSE(j.contains("memory_roof_moment"));
  EXPECT_FALSE(j.contains("threads"));
}

TEST(LlmAnswer, TheRoofOfTheMomentSetsItsEstimateBesideEveryFigure) {
  const ModelConfig c = shipped("llama-2-7b");
  LlmRequest r;
  const Roofs roofs = test_roofs();
  const std::vector<MeasuredStep> steps{half_measured(c, r, roofs)};
  MeasuredComparison out = compare_measured(c, r, roofs, steps);
  const double before = 20e9, after = 30e9;
  add_moment(out, compare_measured(c, r, at_memory_roof(roofs, (before + after) / 2.0), steps), before, after);
  const MeasuredRow& row = out.steps.front();
  ASSERT_TRUE(row.layer.estimated_seconds_moment.has_value());
  // DRAM at 25 GB/s instead of 50: the memory-bound projection takes twice as long, its measured time exactly.
  EXPECT_DOUBLE_EQ(row.ops.front().time.residual_moment().value(), 0.0);
  EXPECT_FALSE(row.ops.back().time.residual_moment().has_value());  // not measured
  ASSERT_TRUE(out.memory_roof_moment.has_value());
  EXPECT_NE(out.notes.back().find("20 GB/s before, 30 GB/s after (+50.0 %)"), std::string::npos) << out.notes.back();

  const json j = to_json(out);
  EXPECT_DOUBLE_EQ(j["memory_roof_moment"]["used"].get<double>(), 25e9);
  EXPECT_DOUBLE_EQ(j["memory_roof_moment"]["drift"].get<double>(), 0.5);
  EXPECT_TRUE(j["steps"][0]["ops"].back().contains("residual_moment"));
  EXPECT_TRUE(j["steps"][0]["ops"].back()["residual_moment"].is_null());
}

TEST(LlmAnswer, TheDocumentLeavesOutWhatWasNotAsked) {
  LlmRequest r;
  const LlmAnswer a = summarize(shipped("llama-2-7b"), r, test_roofs(), "results_2t.json");
  EXPECT_FALSE(a.observed || a.speculative || a.measured);
  const json j = to_json(a);
  for (const char* key : {"observed", "speculative", "measured"}) EXPECT_FALSE(j.contains(key)) << key;
  EXPECT_FALSE(j["roofs"].contains("dequant"));
  EXPECT_FALSE(j["model"].contains("moe"));
  EXPECT_EQ(j["decode"].size(), a.decode.size());
  EXPECT_EQ(j["conventions"].size(), a.conventions.size());
  EXPECT_EQ(j["notes"], json(a.notes));
}

}  // namespace
}  // namespace roofline::llm
