// TEMPORARY STUB of the lead's key_figures API (issue 17 works against it until main has it): the figures
// a fleet or a CI gate compares, per thread count. Replaced by main's file at merge.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace roofline {
// The inline namespace keeps the stub's symbol apart from history.hpp's key_figures until main lands.
inline namespace key_figures_stub {

struct KeyFigure {
  std::string id;     // stable, e.g. "memory/DRAM/read/threads:2", "compute/fp32/vector/threads:2"
  std::string group;  // memory|compute|clock|gemm
  std::string label;
  int threads = 0;
  double value = 0.0;
  std::string unit;
  bool higher_is_better = true;
};

std::vector<KeyFigure> key_figures(const nlohmann::json& results);

}  // namespace key_figures_stub
}  // namespace roofline
