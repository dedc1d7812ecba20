// The host CPU behind the Target interface: see cpu_target.hpp.
#include "roofline/cpu/cpu_target.hpp"

#include <algorithm>

#include "roofline/common/cpu_target.hpp"
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
  // The one rule of the CPU's target facts (common's host_cpu_target), the analysis's for a file without targets too.
  const CpuTargetFacts cpu = host_cpu_target({m.cpu_model, m.cpu_vendor, m.cores, static_cast<double>(m.memory_total_bytes),
                                              static_cast<double>(m.memory_available_bytes), reported_caches(m)});
  TargetFacts f;
  f.target = cpu.id;
  f.kind = cpu.kind;
  f.name = cpu.name;
  f.vendor = cpu.vendor;
  f.api = cpu.api;
  f.compute_units = static_cast<int>(cpu.compute_units);
  f.memory_total_bytes = m.memory_total_bytes;
  f.memory_available_bytes = m.memory_available_bytes;
  for (const CpuMemoryLevel& l : cpu.memory_levels) {
    f.memory_levels.push_back({l.name, static_cast<std::uint64_t>(l.capacity_bytes), l.shared});
  }
  f.peak_model = cpu.peak_model;
  f.notes.emplace_back("the CPU's own facts, with their sources, are context.machine");
  return f;
}

TargetProvider cpu_target_provider(const MachineFacts& machine) {
  TargetProvider p;
  p.api = kCpuApi;
  p.list = [machine](std::vector<std::string>&) { return std::vector<TargetFacts>{cpu_target_facts(machine)}; };
  p.open = [machine](const TargetFacts&) -> std::unique_ptr<Target> { return std::make_unique<CpuTarget>(machine); };
  return p;
}

}  // namespace roofline
