// The host CPU behind the Target interface: see cpu_target.hpp.
#include "roofline/cpu/cpu_target.hpp"

#include <algorithm>

#include "roofline/common/reported_levels.hpp"
#include "roofline/cpu/suite.hpp"
#include "roofline/harness/plausible_caches.hpp"

namespace roofline {
namespace {

class CpuTarget final : public Target {
 public:
  explicit CpuTarget(const MachineFacts& machine) : machine_(machine), facts_(cpu_target_facts(machine)) {}
  [[nodiscard]] const TargetFacts& facts() const override { return facts_; }
  [[nodiscard]] std::vector<std::string> suites() const override {
    std::vector<std::string> names;
    for (const Suite& s : all_suites()) names.push_back(s.name);
    return names;
  }
  // Its benchmarks keep the names of every earlier results file.
  [[nodiscard]] std::string benchmark_prefix() const override { return ""; }
  // The plan of the whole run (cpu_plan.hpp), made once: the suites then run exactly it.
  [[nodiscard]] std::vector<SuitePlan> plan(const RunConfig& config) override {
    ensure_plan(config);
    return state_.plan.suites;
  }
  void run_suite(const std::string& suite, const RunConfig& config, Runner& runner, SuiteOutput& out) override {
    ensure_plan(config);
    for (const Suite& s : all_suites()) {
      if (s.name == suite) s.run(config, machine_, runner, out, state_);
    }
  }

 private:
  void ensure_plan(const RunConfig& config) {
    if (planned_) return;
    state_.plan = plan_cpu(config, machine_);
    planned_ = true;
  }

  MachineFacts machine_;
  TargetFacts facts_;
  CpuRunState state_;
  bool planned_ = false;
};

}  // namespace

TargetFacts cpu_target_facts(const MachineFacts& m) {
  TargetFacts f;
  f.target = kCpuTarget;
  f.kind = "cpu";
  f.name = m.cpu_model;
  f.vendor = m.cpu_vendor;
  f.api = "native";
  f.compute_units = m.cores;
  f.memory_total_bytes = m.memory_total_bytes;
  f.memory_available_bytes = m.memory_available_bytes;
  // The one rule of a CPU's levels (common's cpu_memory_levels, the analysis's for a file without targets too): a cache
  // the facts do not report is there at 0 bytes, its size unknown.
  for (const CpuMemoryLevel& l : cpu_memory_levels(reported_caches(m))) {
    f.memory_levels.push_back({l.name, static_cast<std::uint64_t>(l.capacity_bytes), l.shared});
  }
  f.peak_model = "x86_pipes";
  f.notes.emplace_back("the CPU's own facts, with their sources, are context.machine");
  return f;
}

TargetProvider cpu_target_provider(const MachineFacts& machine) {
  TargetProvider p;
  p.api = "native";
  p.list = [machine](std::vector<std::string>&) { return std::vector<TargetFacts>{cpu_target_facts(machine)}; };
  p.open = [machine](const TargetFacts&) -> std::unique_ptr<Target> { return std::make_unique<CpuTarget>(machine); };
  return p;
}

}  // namespace roofline
