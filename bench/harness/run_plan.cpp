// The plan of a run: see run_plan.hpp.
#include "roofline/harness/run_plan.hpp"

#include <fmt/format.h>

#include "roofline/common/target_id.hpp"

namespace roofline {
using nlohmann::json;

namespace {

std::string suite_key(const SuitePlan& s) { return target_prefix(s.target) + s.suite; }

void fnv1a(std::uint64_t& h, const std::string& text) {
  for (const unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  h ^= 0xff;  // a separator no text holds
  h *= 0x100000001b3ull;
}

}  // namespace

double SuitePlan::estimated_seconds() const {
  double s = 0.0;
  for (const PlanEntry& e : entries) s += e.estimate_s;
  return s;
}

double RunPlan::estimated_seconds() const {
  double s = environment_s;
  for (const SuitePlan& p : suites) s += p.estimated_seconds();
  return s;
}

std::size_t RunPlan::entry_count() const {
  std::size_t n = 0;
  for (const SuitePlan& p : suites) n += p.entries.size();
  return n;
}

std::string RunPlan::hash() const {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const SuitePlan& p : suites) {
    for (const PlanEntry& e : p.entries) {
      fnv1a(h, e.target);
      fnv1a(h, e.suite);
      fnv1a(h, e.name);
      fnv1a(h, std::to_string(e.threads));
      fnv1a(h, std::to_string(e.repetitions));
    }
  }
  return fmt::format("{:016x}", h);
}

std::string RunPlan::text() const {
  std::string out = fmt::format("plan {}: {} benchmarks, estimated {:.1f} s\n", hash(), entry_count(),
                                estimated_seconds());
  for (const SuitePlan& p : suites) {
    out += fmt::format("\n{} {}: {} benchmarks, estimated {:.1f} s{}\n", p.target, p.suite, p.entries.size(),
                       p.estimated_seconds(), p.budget_s > 0.0 ? fmt::format(" (budget {:.0f} s)", p.budget_s) : "");
    for (const std::string& n : p.notes) out += fmt::format("  note: {}\n", n);
    for (const PlanEntry& e : p.entries) {
      out += fmt::format("  {:<72} x{:<2} {:7.3f} s\n", e.name, e.repetitions, e.estimate_s);
    }
  }
  if (environment_s > 0.0) {
    out += fmt::format("\nenvironment checks: estimated {:.1f} s (the canaries at the start, before each suite but the "
                       "first, and at the end)\n", environment_s);
  }
  if (!notes.empty()) out += "\n";
  for (const std::string& n : notes) out += fmt::format("note: {}\n", n);
  return out;
}

json RunPlan::to_json() const {
  json per_suite = json::object();
  for (const SuitePlan& p : suites) {
    per_suite[suite_key(p)] = {{"entries", p.entries.size()},
                               {"estimated_seconds", p.estimated_seconds()},
                               {"budget_seconds", p.budget_s},
                               {"notes", p.notes}};
  }
  return {{"hash", hash()},
          {"entries", entry_count()},
          {"estimated_seconds", estimated_seconds()},
          {"environment_seconds", environment_s},
          {"suites", per_suite},
          {"notes", notes}};
}

}  // namespace roofline
