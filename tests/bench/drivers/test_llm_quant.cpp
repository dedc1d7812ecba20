// The quantized llm chain (bench/drivers/llm_quant.cpp, issue 48): which storage formats our dequant-dot
// kernels time, a prepared problem (its copies rotated, every output validated, a corrupted one failing), the
// plan (decode up to batch 8 with lm_head, the rest said), and the real suite on a tiny config in q4_0 and
// int4-g64 (the step counter, the labels, the steps read back with their working set).
#include <algorithm>
#include <filesystem>
#include <set>

#include <gtest/gtest.h>

#include "roofline/drivers/llm_chain.hpp"
#include "roofline/drivers/llm_quant.hpp"
#include "roofline/facts/machine.hpp"
#include "roofline/cpu/suite.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/llm/config.hpp"
#include "roofline/llm/quant.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kData = fs::path(ROOFLINE_TEST_DATA_DIR) / "llm";

LlmSuiteInput quant_input(const std::string& format) {
  LlmSuiteInput in;
  in.config = llm::load_config(kData / "tiny_quant.json");
  const llm::WeightFormat f = llm::parse_weight_format(format, "--weights");
  in.request.precisions.weights = f.compute;
  in.request.precisions.format = f;
  in.request.precisions.kv = Precision::fp32;
  in.request.batches = {1, 8, 64};
  in.request.context = 64;
  in.request.prompts = {32};
  return in;
}

TEST(LlmQuant, TheFormatsOurKernelsTime) {
  EXPECT_EQ(quant_weights_of("q8_0")->format, QuantFormat::q8_0);
  EXPECT_EQ(quant_weights_of("q6_k")->format, QuantFormat::q6_k);
  const auto g64 = quant_weights_of("int4-g64");
  ASSERT_TRUE(g64);
  EXPECT_EQ(g64->format, QuantFormat::int4);
  EXPECT_EQ(g64->group, 64);
  for (const char* none : {"int4-g16", "int4-g8", "int4", "fp8", "bf16", "q3_k", "int4-g"}) EXPECT_FALSE(quant_weights_of(none)) << none;
  const IsaFeatures here = detect_machine().isa;
  EXPECT_NO_THROW(check_quant_measure("q4_k", here));
  EXPECT_THROW(check_quant_measure("fp8", here), InputError);
  EXPECT_THROW(check_quant_measure("int4-g16", here), InputError);
  EXPECT_EQ(best_quant_kernel(QuantFormat::q4_0, IsaFeatures{})->isa, Isa::scalar);  // the scalar kernel runs anywhere
}

TEST(LlmQuant, AProblemRotatesItsCopiesAndValidatesEveryOutput) {
  const IsaFeatures here = detect_machine().isa;
  for (const char* format : {"q8_0", "q4_k", "int4-g64"}) {
    const QuantWeights w = *quant_weights_of(format);
    const auto p = prepare_quant_problem(*best_quant_kernel(w.format, here), w, 96, 512, 3, 1, 2, 7);
    EXPECT_NE(p->implementation().find("2 copies"), std::string::npos) << p->implementation();
    for (std::int64_t n : {1, 3}) {
      p->select_batch(n);
      for (int i = 0; i < 3; ++i) {
        p->run();
        const GemmCheck c = p->validate();
        EXPECT_TRUE(c.ok) << format << " batch " << n << ": " << c.message;
      }
    }
    EXPECT_THROW(p->select_batch(4), std::logic_error);
    static_cast<float*>(p->operands().c)[95] += 1.0f;  // the last row of the first column, wrong
    EXPECT_FALSE(p->validate().ok) << format;
    EXPECT_GT(quant_problem_bytes(w, 96, 512, 3, 2), 2.0 * 96 * 512 * 0.5);
  }
}

TEST(LlmQuant, ThePlanTimesDecodeUpToBatch8WithLmHeadAndSaysTheRest) {
  const LlmPlan plan = plan_llm(quant_input("q8_0"));
  ASSERT_EQ(plan.steps.size(), 2u);
  EXPECT_EQ(plan.steps[0].id, "decode-b1");
  EXPECT_EQ(plan.steps[1].id, "decode-b8");
  ASSERT_EQ(plan.skipped.size(), 2u);
  EXPECT_NE(plan.skipped[0].find("batch 64 not measured"), std::string::npos) << plan.skipped[0];
  EXPECT_NE(plan.skipped[1].find("prefill of 32 tokens not measured"), std::string::npos) << plan.skipped[1];
  const auto& ops = plan.steps[0].ops;
  const auto head = std::find_if(ops.begin(), ops.end(), [](const llm::Op& o) { return o.name == "lm_head"; });
  ASSERT_NE(head, ops.end());
  EXPECT_FALSE(head->per_layer);
  EXPECT_EQ(head->calls.front().m, 1024);  // tied: the embedding matrix, vocab x hidden
  EXPECT_EQ(plan.weight_ops.size(), 8u);   // 7 projections and lm_head
}

void run_quant_suite(const std::string& format) {
  LlmSuiteInput in = quant_input(format);
  in.request.batches = {1, 2};
  in.request.prompts.clear();
  RunConfig config;
  config.thread_counts = {1};
  config.bind = BindPolicy::none;
  config.memory_budget_bytes = 1ull << 30;
  config.backends = {"eigen"};
  config.features = detect_machine().isa;
  MachineFacts machine;
  machine.caches.push_back({2, "unified", 1 << 20, 1, 1, "test"});  // 1 MiB: 4 MiB of rotated weights
  Runner runner;
  SuiteOutput out;
  run_llm_suite(config, machine, in, runner, out);
  EXPECT_TRUE(runner.failures().empty()) << format;
  EXPECT_EQ(out.context["backends"]["weights"], kQuantChainBackend);
  int medians = 0;
  for (const json& e : runner.entries()) {
    EXPECT_EQ(e["labels"]["format"], format);
    EXPECT_GT(e["labels"]["weights_copies"].get<int>(), 1);
    EXPECT_GE(e["labels"]["working_set_bytes"].get<double>(), 4.0 * (1 << 20));
    EXPECT_NE(e["run_name"].get<std::string>().find("llm/" + in.config.name + "/" + format + "/"), std::string::npos);
    medians += e.value("aggregate_name", "") == "median" ? 1 : 0;
    if (e.value("run_type", "") != "iteration") continue;
    // The step of one repetition: layers x the layer + lm_head once.
    const double step = 2.0 * e["layer_seconds"].get<double>() + e["lm_head_seconds"].get<double>();
    EXPECT_NEAR(e["step_seconds"].get<double>(), step, 1e-9 * step) << e.dump();
  }
  EXPECT_EQ(medians, 2);
  const std::vector<llm::MeasuredStep> steps = measured_steps(runner.entries(), 1);
  ASSERT_EQ(steps.size(), 2u);
  for (const llm::MeasuredStep& s : steps) {
    EXPECT_GT(s.step_seconds, s.layer_seconds);
    EXPECT_GT(s.step_best_seconds, 0.0);
    EXPECT_GE(s.working_set_bytes, 4.0 * (1 << 20));
    EXPECT_EQ(s.op_seconds.count("step"), 0u);
    EXPECT_EQ(s.op_seconds.count("lm_head"), 1u);
  }
}

TEST(LlmQuant, TheSuiteTimesATinyQuantizedLayerAndItsLmHead) {
  run_quant_suite("q4_0");
  run_quant_suite("int4-g64");
}

}  // namespace
}  // namespace roofline
