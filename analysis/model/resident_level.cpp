// The resident-level rule: see resident_level.hpp.
#include "roofline/analysis/resident_level.hpp"

namespace roofline {

LevelReach resident_level(const std::vector<LevelReach>& inner, const std::string& main_memory, double bytes) {
  for (const LevelReach& l : inner) {
    if (l.reach_bytes > 0.0 && l.reach_bytes >= bytes) return l;
  }
  return {main_memory, 0.0};
}

}  // namespace roofline
