// LOCAL STUB of the lead's key_figures API (issue 15 works against it until main lands the real one;
// deleted at the merge). The key figures of a run: each level's read and triad ceiling, each precision
// and engine's compute ceiling, the measured clock, the best GEMM per precision at batch 1 and at the
// largest batch; per thread count.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace roofline {

struct KeyFigure {
  std::string id;     // stable, e.g. "memory/DRAM/read/threads:2", "compute/fp32/vector/threads:2"
  std::string group;  // memory|compute|clock|gemm
  std::string label;
  int threads = 0;
  double value = 0.0;
  std::string unit;
  bool higher_is_better = true;
};

// Throws InputError when the roofline section is missing.
std::vector<KeyFigure> key_figures(const nlohmann::json& results);

}  // namespace roofline
