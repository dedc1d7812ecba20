// Choosing the target an LLM estimate is for, in a results file that may hold several (the CPU, an
// OpenCL device, a CUDA GPU): every ceiling and placement of the roofline section carries a `target`
// field ("cpu" when absent, as in files from before targets). The target's memory, for whether the
// weights fit and how many sequences' KV cache fit beside them, is the results model's reading of it
// (target_memory_facts: the CPU's from the machine facts, context.machine: memory_available_bytes,
// MemAvailable at the run, else memory_total_bytes; a device's from its entry of context.targets, either
// figure may be absent). All three read the typed results model.
#pragma once

#include <string>
#include <vector>

#include "roofline/model/results_document.hpp"
#include "roofline/model/results_targets.hpp"  // kCpuTargetId

namespace roofline::llm {

inline constexpr const char* kDefaultTarget = kCpuTargetId;  // the host CPU, as in files from before targets

// The targets the file's roofline section names, in order of first appearance.
std::vector<std::string> targets_in(const ResultsDocument& results);

// A copy of `results` whose roofline section keeps only `target`'s entries. Throws InputError naming
// `file`, the target and the targets it has when it has none of that target's ceilings.
ResultsDocument select_target(const ResultsDocument& results, const std::string& target, const std::string& file);

struct TargetMemory {
  double total_bytes = 0.0;      // 0: not recorded
  double available_bytes = 0.0;  // 0: not recorded
  std::string source;            // where the figure came from, said in the output
  [[nodiscard]] double usable() const { return available_bytes > 0.0 ? available_bytes : total_bytes; }
};

TargetMemory target_memory(const ResultsDocument& results, const std::string& target);

}  // namespace roofline::llm
