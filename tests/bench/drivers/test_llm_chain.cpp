// The llm suite (bench/drivers/suite_llm.cpp, bench/drivers/llm_chain.cpp): the plan it builds from a model config (steps,
// operations, shapes, the widest routed-expert operation), the backends it chooses, a step's spec run through
// the Runner with stub problems (every active problem run, the layer weighted by each stage's share, a wrong
// product failing the entry loudly, no layer time for an incomplete layer), the steps read back from the
// entries, and the real suite on a tiny config (labels, estimates, entries per step).
#include <algorithm>
#include <filesystem>
#include <memory>
#include <set>

#include <gtest/gtest.h>

#include "roofline/regress/compare_gate.hpp"
#include "roofline/model/key_figures.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/roofline_section.hpp"
#include "roofline/drivers/llm_chain.hpp"
#include "roofline/cpu/suite.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/llm/config.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;
using testing::typed;

const fs::path kData = fs::path(ROOFLINE_TEST_DATA_DIR) / "llm";

LlmSuiteInput tiny_input(const char* file = "tiny.json") {
  LlmSuiteInput in;
  in.config = llm::load_config(kData / file);
  in.request.precisions.weights = Precision::fp32;
  in.request.precisions.kv = Precision::fp32;
  in.request.batches = {1, 4};
  in.request.context = 64;
  in.request.prompts = {32};
  return in;
}

const llm::Op& op_named(const std::vector<llm::Op>& ops, const std::string& name) {
  const auto it = std::find_if(ops.begin(), ops.end(), [&](const llm::Op& o) { return o.name == name; });
  if (it == ops.end()) throw std::runtime_error("no op " + name);
  return *it;
}

TEST(LlmPlan, OneStepPerDecodeBatchAndPrefillPromptAtTheConfigsShapes) {
  const LlmPlan plan = plan_llm(tiny_input());
  ASSERT_EQ(plan.steps.size(), 3u);
  EXPECT_EQ(plan.steps[0].id, "decode-b1");
  EXPECT_EQ(plan.steps[1].id, "decode-b4");
  EXPECT_EQ(plan.steps[2].id, "prefill-p32");
  EXPECT_EQ(plan.steps[1].step.context, 64);
  EXPECT_EQ(plan.max_tokens, 32);
  for (const LlmStepPlan& s : plan.steps) EXPECT_EQ(s.ops.size(), 9u) << s.id;  // 7 projections, 2 attention GEMMs
  // hidden 256, 8 heads of 32, 2 KV heads: q_proj is 256 x 256, k_proj 64 x 256, gate_proj 688 x 256.
  const llm::GemmCall q = op_named(plan.steps[1].ops, "q_proj").calls.front();
  EXPECT_EQ(q.m, 256);
  EXPECT_EQ(q.k, 256);
  EXPECT_EQ(q.n, 4);
  EXPECT_EQ(op_named(plan.steps[1].ops, "k_proj").calls.front().m, 64);
  EXPECT_EQ(op_named(plan.steps[2].ops, "gate_proj").calls.front().m, 688);
  EXPECT_EQ(op_named(plan.steps[2].ops, "gate_proj").calls.front().n, 32);
  EXPECT_EQ(plan.weight_ops.size(), 7u);  // the attention GEMMs read the KV cache, not weights
}

TEST(LlmPlan, RoutedExpertsArePreparedForTheStepTouchingTheMost) {
  const LlmPlan plan = plan_llm(tiny_input("tiny_moe.json"));
  std::int64_t most = 0;
  for (const LlmStepPlan& s : plan.steps) most = std::max(most, op_named(s.ops, "expert_up_proj").calls.front().count);
  EXPECT_GT(most, 2);  // a batch of 4 or a prompt of 32 touches more than top_k = 2 of the 8 experts
  EXPECT_EQ(op_named(plan.weight_ops, "expert_up_proj").calls.front().count, most);
}

TEST(LlmBackend, DefaultsAndRefusals) {
  EXPECT_EQ(chain_backend(Precision::fp32), "eigen");
  EXPECT_EQ(chain_backend(Precision::fp32, {"eigen"}), "eigen");
  EXPECT_THROW(chain_backend(Precision::fp64), InputError);
  EXPECT_THROW(chain_backend(Precision::fp32, {"no-such-backend"}), InputError);
}

// A stand-in problem: counts its calls; validate() says what it was told to.
class StubProblem : public GemmProblem {
 public:
  explicit StubProblem(bool right) : right_(right) {}
  void select_batch(std::int64_t n) override { batch = n; }
  void run() override { ++runs; }
  [[nodiscard]] GemmCheck validate() const override { return right_ ? GemmCheck{} : GemmCheck{false, "C[3] = 7, expected 5"}; }
  [[nodiscard]] std::string implementation() const override { return "stub"; }
  [[nodiscard]] double pack_seconds() const override { return 0.0; }
  GemmOperands operands() override { return {}; }
  std::int64_t batch = 0;
  long runs = 0;

 private:
  bool right_;
};

ChainStage stage(const std::string& name, std::vector<std::shared_ptr<StubProblem>> problems, std::size_t active, double weight) {
  ChainStage s;
  s.name = name;
  for (auto& p : problems) {
    s.problems.push_back(p);
    s.batches.push_back(3);
  }
  s.active = active;
  s.weight = weight;
  return s;
}

json labels(bool complete) { return {{"suite", "llm"}, {"step", "decode-b3"}, {"phase", "decode"}, {"batch", 3}, {"threads", 1}, {"complete", complete}}; }

TEST(LlmChainSpec, RunsEveryActiveProblemAndWeighsTheLayer) {
  auto a = std::make_shared<StubProblem>(true), b1 = std::make_shared<StubProblem>(true), b2 = std::make_shared<StubProblem>(true);
  Runner runner;
  const std::vector<json> entries = runner.run({chain_step_spec("llm/test/decode", labels(true),
                                                                {stage("q_proj", {a}, 1, 1.0), stage("expert", {b1, b2}, 1, 0.5)},
                                                                3, 0.001)});
  EXPECT_TRUE(runner.failures().empty());
  EXPECT_GT(a->runs, 3);      // a warm-up call and the timed iterations of 3 repetitions
  EXPECT_EQ(b1->runs, a->runs);
  EXPECT_EQ(b2->runs, 0);     // not active in this step (an expert it does not touch)
  EXPECT_EQ(a->batch, 3);
  int iterations = 0, aggregates = 0;
  for (const json& e : entries) {
    (e["run_type"] == "iteration" ? iterations : aggregates)++;
    ASSERT_TRUE(e.contains("layer_seconds")) << e.dump();
    if (e["run_type"] != "iteration") continue;
    // The layer is each stage's time weighted by its share of the average layer (per repetition).
    const double expected = e["q_proj_seconds"].get<double>() + 0.5 * e["expert_seconds"].get<double>();
    EXPECT_NEAR(e["layer_seconds"].get<double>(), expected, 1e-9 * expected + 1e-15);
  }
  EXPECT_EQ(iterations, 3);
  EXPECT_EQ(aggregates, 6);  // mean, median, stddev, cv, max, min
}

TEST(LlmChainSpec, AWrongProductFailsTheEntryLoudly) {
  auto good = std::make_shared<StubProblem>(true), bad = std::make_shared<StubProblem>(false);
  Runner runner;
  const std::vector<json> entries = runner.run({chain_step_spec("llm/test/decode", labels(true),
                                                                {stage("q_proj", {good}, 1, 1.0), stage("down_proj", {bad}, 1, 1.0)},
                                                                2, 0.001)});
  ASSERT_EQ(runner.failures().size(), 1u);
  EXPECT_NE(runner.failures()[0].find("wrong product in down_proj: C[3] = 7, expected 5"), std::string::npos) << runner.failures()[0];
  for (const json& e : entries) {
    if (e["run_type"] == "iteration") { EXPECT_TRUE(e.value("error_occurred", false)); }
    EXPECT_FALSE(e.contains("layer_seconds"));
  }
  EXPECT_TRUE(measured_steps(entries, 1).empty());  // nothing measured to set beside the estimate
}

TEST(LlmChainSpec, AnIncompleteLayerHasNoLayerTime) {
  auto a = std::make_shared<StubProblem>(true);
  Runner runner;
  const std::vector<json> entries = runner.run({chain_step_spec("llm/test/decode", labels(false), {stage("q_proj", {a}, 1, 1.0)}, 1, 0.001)});
  ASSERT_FALSE(entries.empty());
  for (const json& e : entries) {
    EXPECT_FALSE(e.contains("layer_seconds"));
    EXPECT_TRUE(e.contains("q_proj_seconds"));
  }
  const std::vector<llm::MeasuredStep> steps = measured_steps(entries, 1);
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].layer_seconds, 0.0);  // said "not measured" beside the estimate
  EXPECT_GT(steps[0].op_seconds.at("q_proj"), 0.0);
}

TEST(LlmMeasuredSteps, ReadsTheMedianAndTheFastestRepetitionBack) {
  auto a = std::make_shared<StubProblem>(true);
  Runner runner;
  const std::vector<json> entries = runner.run({chain_step_spec("llm/test/decode", labels(true), {stage("q_proj", {a}, 1, 1.0)}, 3, 0.001)});
  double median = 0.0, fastest = 0.0;
  for (const json& e : entries) {
    if (e.value("aggregate_name", "") == "median") median = e["layer_seconds"];
    if (e.value("aggregate_name", "") == "min") fastest = e["layer_seconds"];
  }
  const std::vector<llm::MeasuredStep> steps = measured_steps(entries, 1);
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].phase, llm::Phase::decode);
  EXPECT_EQ(steps[0].batch, 3);
  EXPECT_EQ(steps[0].repetitions, 3);
  EXPECT_EQ(steps[0].layer_seconds, median);
  EXPECT_EQ(steps[0].layer_best_seconds, fastest);
  EXPECT_LE(fastest, median);
  EXPECT_TRUE(measured_steps(entries, 2).empty());  // another thread count's steps only
}

// The suite's entries in a results file: its key figures are the layers' median times (lower is better), and
// the gate flags one made 30% slower.
TEST(LlmKeyFigures, TheLayersMedianTimesGateAndASlowedOneRegresses) {
  auto a = std::make_shared<StubProblem>(true);
  json l = labels(true);
  l.update({{"model", "tiny"}, {"precision", "bf16"}, {"kv_precision", "bf16"}, {"context", 64}, {"estimated_seconds", 2e-6}});
  Runner runner;
  runner.run({chain_step_spec("llm/test/decode", l, {stage("q_proj", {a}, 1, 1.0)}, 3, 0.001)});
  json doc = {{"context", {{"schema_version", kSchemaVersion}}}, {"benchmarks", runner.entries()}};
  doc["roofline"] = testing::derived_section(doc);
  const std::vector<KeyFigure> figures = key_figures(testing::lenient(doc));
  ASSERT_EQ(figures.size(), 1u);
  const KeyFigure& f = figures[0];
  EXPECT_EQ(f.id, "llm/tiny/bf16/kv:bf16/decode/batch:3/context:64/threads:1");
  EXPECT_EQ(f.group, "llm");
  EXPECT_EQ(f.unit, "s");
  EXPECT_FALSE(f.higher_is_better);
  EXPECT_NE(f.label.find("estimate 0.002 ms"), std::string::npos) << f.label;
  for (const json& e : doc["benchmarks"]) {
    if (e.value("aggregate_name", "") == "median") { EXPECT_EQ(f.value, e["layer_seconds"].get<double>()); }
  }
  json slow = doc;
  for (json& e : slow["benchmarks"]) e["layer_seconds"] = e["layer_seconds"].get<double>() * 1.3;
  const Gate same = gate_runs(typed(doc), typed(doc), nullptr, GateOptions{});
  EXPECT_EQ(same.outcome, Outcome::clean);
  const Gate slower = gate_runs(typed(doc), typed(slow), nullptr, GateOptions{});
  EXPECT_EQ(slower.outcome, Outcome::regression);
  const Gate faster = gate_runs(typed(slow), typed(doc), nullptr, GateOptions{});
  EXPECT_EQ(faster.outcome, Outcome::clean);
}

TEST(LlmSuite, MeasuresEveryStepOfATinyLayerWithItsEstimate) {
  LlmSuiteInput in = tiny_input();
  in.request.batches = {2};
  in.estimated_seconds = {{"decode-b2", 1.5e-5}};
  RunConfig config;
  config.thread_counts = {1};
  config.bind = BindPolicy::none;
  config.memory_budget_bytes = 1ull << 30;
  config.backends = {"eigen"};
  Runner runner;
  SuiteOutput out;
  run_llm_suite(config, MachineFacts{}, in, runner, out);
  EXPECT_TRUE(runner.failures().empty());
  std::set<std::string> names;
  for (const json& e : runner.entries()) {
    EXPECT_EQ(e["labels"]["suite"], "llm");
    EXPECT_EQ(e["labels"]["backend"], "eigen");
    const std::string name = e["run_name"];
    names.insert(name.substr(0, name.find("/min_time")));  // Google Benchmark appends its options
    if (e["labels"]["step"] == "decode-b2") { EXPECT_EQ(e["labels"]["estimated_seconds"], 1.5e-5); }
    if (e["labels"]["step"] == "prefill-p32") { EXPECT_FALSE(e["labels"].contains("estimated_seconds")); }
  }
  EXPECT_EQ(names, (std::set<std::string>{"llm/" + in.config.name + "/fp32/kv:fp32/threads:1/decode/batch:2/context:64",
                                          "llm/" + in.config.name + "/fp32/kv:fp32/threads:1/prefill/prompt:32"}));
  EXPECT_EQ(out.context["steps"].size(), 2u);
  EXPECT_EQ(measured_steps(runner.entries(), 1).size(), 2u);
}

TEST(LlmSuite, ALayerPastTheBudgetIsLeftOutAndSaid) {
  LlmSuiteInput in = tiny_input();
  in.request.prompts.clear();
  RunConfig config;
  config.thread_counts = {1};
  config.bind = BindPolicy::none;
  config.memory_budget_bytes = 64 * 1024;  // less than q_proj's 256 KiB of fp32 weights
  config.backends = {"eigen"};
  Runner runner;
  SuiteOutput out;
  run_llm_suite(config, MachineFacts{}, in, runner, out);
  ASSERT_FALSE(out.notes.empty());
  EXPECT_NE(out.notes[0].find("does not fit in the memory budget"), std::string::npos) << out.notes[0];
  for (const json& e : runner.entries()) {
    EXPECT_EQ(e["labels"]["complete"], false);
    EXPECT_FALSE(e.contains("layer_seconds"));
  }
}

}  // namespace
}  // namespace roofline
