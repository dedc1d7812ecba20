// The resident-level rule: see resident_level.hpp.
#include "roofline/model/resident_level.hpp"

namespace roofline {

std::size_t resident_index(const std::vector<LevelReach>& inner, double bytes) {
  for (std::size_t i = 0; i < inner.size(); ++i) {
    if (inner[i].reach_bytes > 0.0 && inner[i].reach_bytes >= bytes) return i;
  }
  return inner.size();
}

LevelReach resident_level(const std::vector<LevelReach>& inner, const std::string& main_memory, double bytes) {
  const std::size_t i = resident_index(inner, bytes);
  return i < inner.size() ? inner[i] : LevelReach{main_memory, 0.0};
}

}  // namespace roofline
