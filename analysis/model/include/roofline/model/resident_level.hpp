// The one rule for where a GEMV/GEMM working set lives (issue 47): the innermost memory level whose reach holds
// it, main memory when none does. Every target's placements ask it (placement.cpp, one placement for every target),
// and so does the LLM estimate (llm's Roofs::level_for), each with the reach it knows: where the
// bandwidth curve leaves a level (memory_levels[].inferred_bytes, every target's since issue 47), else a measured
// level's largest size (memory_levels[].max_bytes, the LLM roofs' max_bytes).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace roofline {

// One level a working set may live in, and how many bytes it holds (0 or less: unknown, so it holds nothing).
struct LevelReach {
  std::string level;
  double reach_bytes = 0.0;
};

// The first of `inner` (innermost first, main memory not among them; a level may appear more than once) whose
// reach holds `bytes`, and its reach; else {main_memory, 0}.
LevelReach resident_level(const std::vector<LevelReach>& inner, const std::string& main_memory, double bytes);

// The same rule for callers that keep more per level than its name and reach: the index in `inner` of the level
// resident_level picks, inner.size() (main memory) when none holds `bytes`.
std::size_t resident_index(const std::vector<LevelReach>& inner, double bytes);

}  // namespace roofline
