// The llm chain as a Target: see llm_target.hpp. The harness (measure.hpp) times it as any target's suite; this
// brings the plan of its steps and the roof of the moment around the chain.
#include "roofline/drivers/llm_target.hpp"

#include <algorithm>
#include <utility>

#include "roofline/facts/pinning.hpp"
#include "roofline/harness/run_config.hpp"

namespace roofline {
namespace {

class LlmTarget final : public Target {
 public:
  LlmTarget(TargetFacts facts, const MachineFacts& machine, LlmSuiteInput input, std::string estimate_from)
      : facts_(std::move(facts)), machine_(machine), input_(std::move(input)), estimate_from_(std::move(estimate_from)) {
    input_.progress = nullptr;
  }
  [[nodiscard]] const TargetFacts& facts() const override { return facts_; }
  [[nodiscard]] std::vector<std::string> suites() const override { return {kLlmSuite}; }

  // Every step at every thread count, in the order run_llm_suite runs them. A step: its repetitions and Google
  // Benchmark's growing of the iteration count (three windows more), each window at least the profile's min time or
  // the step's estimated layer, and one untimed call first; the suite's first step carries the roof of the moment's
  // two probes (planning rates, as the bandwidth suite's: first touch at 2 GB/s, DRAM read at 8 GB/s).
  [[nodiscard]] std::vector<SuitePlan> plan(const RunConfig& config) override {
    if (!config.wants_suite(kLlmSuite)) return {};
    const LlmPlan steps = plan_llm(input_);
    const LlmProfile profile = llm_profile(config.profile);
    const double roof = static_cast<double>(roof_bytes(config));
    double probes = 2.0 * (roof / 2e9 + kRoofPasses * roof / 8e9);
    SuitePlan suite;
    suite.suite = kLlmSuite;
    for (const int threads : config.thread_counts) {
      for (const LlmStepPlan& step : steps.steps) {
        const auto e = input_.estimated_seconds.find(step.id);
        const double layer = e != input_.estimated_seconds.end() ? e->second : 0.0;
        const double estimate = (profile.repetitions + 3) * std::max(profile.min_time_s, layer) + layer + probes;
        probes = 0.0;
        suite.entries.push_back({"", kLlmSuite, llm_spec_name(input_, threads, step), threads, profile.repetitions, estimate});
      }
    }
    for (const std::string& why : steps.skipped) suite.notes.push_back("llm: " + why);
    return {std::move(suite)};
  }

  void run_suite(const std::string& suite, const RunConfig& config, Runner& runner, SuiteOutput& out) override {
    if (suite != kLlmSuite) return;
    LlmSuiteInput input = input_;
    input.progress = runner.progress();
    const int threads = config.max_threads();
    const std::vector<int> pus = config.bind != BindPolicy::none ? binding_plan(machine_, threads, config.bind) : std::vector<int>{};
    const std::uint64_t bytes = roof_bytes(config);
    show(input, "memory roof before the chain");
    const double before = measure_memory_roof(threads, pus, config.features, bytes, kRoofPasses);
    run_llm_suite(config, machine_, input, runner, out);
    show(input, "memory roof after the chain");
    const double after = measure_memory_roof(threads, pus, config.features, bytes, kRoofPasses);
    out.context["memory_roof_moment"] = {{"before", before}, {"after", after}, {"kernel", "read"}, {"bytes", bytes}};
    out.context["estimate_from"] = estimate_from_;
  }

 private:
  static constexpr int kRoofPasses = 10;

  // The roof of the moment's arrays: the read kernel right before and right after the chain, well past the caches.
  [[nodiscard]] std::uint64_t roof_bytes(const RunConfig& config) const {
    return std::min<std::uint64_t>(config.memory_budget_bytes / 4,
                                   std::max<std::uint64_t>(256ull << 20, 8 * machine_.cache_bytes(3)));
  }

  static void show(const LlmSuiteInput& input, const std::string& what) {
    if (input.progress != nullptr) input.progress->update(what);
  }

  TargetFacts facts_;
  MachineFacts machine_;
  LlmSuiteInput input_;
  std::string estimate_from_;
};

}  // namespace

std::unique_ptr<Target> make_llm_target(TargetFacts cpu_facts, const MachineFacts& machine, LlmSuiteInput input,
                                        std::string estimate_from) {
  return std::make_unique<LlmTarget>(std::move(cpu_facts), machine, std::move(input), std::move(estimate_from));
}

}  // namespace roofline
