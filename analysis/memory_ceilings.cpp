// Placeholder until the bandwidth sweep lands (issue 3).
#include "roofline/analysis/memory_ceilings.hpp"

namespace roofline {
nlohmann::json derive_memory_ceilings(const nlohmann::json&) {
  return {{"memory_ceilings", nlohmann::json::array()}};
}
}  // namespace roofline
