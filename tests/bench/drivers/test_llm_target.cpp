// The llm chain as a target (roofline/drivers/llm_target.hpp, issue 47): its facts are the CPU target's, its one suite
// is "llm", its plan names exactly the benchmarks the chain runs, and the harness's measure() runs it as any target:
// the run's context (targets, plan, the suite's times, the roof of the moment) and every entry's target.
#include <filesystem>
#include <set>

#include <gtest/gtest.h>

#include "roofline/cpu/cpu_target.hpp"
#include "roofline/drivers/llm_target.hpp"
#include "roofline/harness/measure.hpp"
#include "roofline/llm/config.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

LlmSuiteInput tiny_input() {
  LlmSuiteInput in;
  in.config = llm::load_config(fs::path(ROOFLINE_TEST_DATA_DIR) / "llm" / "tiny.json");
  in.request.precisions.weights = Precision::fp32;
  in.request.precisions.kv = Precision::fp32;
  in.request.batches = {1, 2};
  in.request.context = 64;
  in.request.prompts = {16};
  in.estimated_seconds = {{"decode-b1", 1e-5}};
  return in;
}

RunConfig tiny_config() {
  RunConfig c;
  c.thread_counts = {1};
  c.bind = BindPolicy::none;
  c.memory_budget_bytes = 64ull << 20;  // the roof of the moment over 16 MiB: quick
  c.backends = {"eigen"};
  c.suites = {kLlmSuite};
  c.quiet = true;
  return c;
}

TEST(LlmTarget, IsTheCpuWithOneSuiteAndPlansEveryStep) {
  const MachineFacts machine;
  std::unique_ptr<Target> t = make_llm_target(cpu_target_facts(machine), machine, tiny_input(), "base.json");
  EXPECT_EQ(t->facts().target, kCpuTargetId);
  EXPECT_EQ(t->benchmark_prefix(), "");
  EXPECT_EQ(t->suites(), std::vector<std::string>{kLlmSuite});
  RunConfig config = tiny_config();
  config.thread_counts = {1, 2};
  const std::vector<SuitePlan> plan = t->plan(config);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].suite, kLlmSuite);
  ASSERT_EQ(plan[0].entries.size(), 6u);  // 3 steps at 2 thread counts
  EXPECT_EQ(plan[0].entries[0].name, "llm/tiny/fp32/kv:fp32/threads:1/decode/batch:1/context:64");
  EXPECT_EQ(plan[0].entries[5].name, "llm/tiny/fp32/kv:fp32/threads:2/prefill/prompt:16");
  EXPECT_EQ(plan[0].entries[5].threads, 2);
  for (const PlanEntry& e : plan[0].entries) EXPECT_GT(e.estimate_s, 0.0) << e.name;
  config.suites = {"bandwidth"};
  EXPECT_TRUE(t->plan(config).empty());
}

TEST(LlmTarget, RunsThroughMeasureLikeAnyTarget) {
  const MachineFacts machine = detect_machine();
  const RunConfig config = tiny_config();
  std::vector<std::unique_ptr<Target>> targets;
  targets.push_back(make_llm_target(cpu_target_facts(machine), machine, tiny_input(), "base.json"));
  const Measured m = measure(machine, config, targets);
  EXPECT_TRUE(m.failures.empty());
  const json& ctx = m.doc["context"];
  ASSERT_EQ(ctx["targets"].size(), 1u);
  EXPECT_EQ(ctx["targets"][0]["target"], "cpu");
  EXPECT_EQ(ctx["plan"]["entries"], 3);
  EXPECT_TRUE(ctx["environment"].contains("canary"));
  const json& suite = ctx["suites"]["llm"];
  EXPECT_EQ(suite["estimate_from"], "base.json");
  EXPECT_GT(suite["memory_roof_moment"]["before"].get<double>(), 0.0);
  EXPECT_GT(suite["memory_roof_moment"]["after"].get<double>(), 0.0);
  EXPECT_EQ(suite["memory_roof_moment"]["bytes"], 16ull << 20);
  EXPECT_EQ(suite["steps"].size(), 3u);
  EXPECT_FALSE(m.doc.contains("roofline"));  // the harness derives nothing
  std::set<std::string> names;
  for (const json& e : m.doc["benchmarks"]) {
    EXPECT_EQ(e["labels"]["target"], "cpu");
    EXPECT_EQ(e["labels"]["suite"], "llm");
    const std::string name = e["run_name"];
    names.insert(name.substr(0, name.find("/min_time")));
  }
  EXPECT_EQ(names, (std::set<std::string>{"llm/tiny/fp32/kv:fp32/threads:1/decode/batch:1/context:64",
                                          "llm/tiny/fp32/kv:fp32/threads:1/decode/batch:2/context:64",
                                          "llm/tiny/fp32/kv:fp32/threads:1/prefill/prompt:16"}));
}

}  // namespace
}  // namespace roofline
