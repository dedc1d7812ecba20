// The report's typed section: see report_roofs.hpp.
#include "report_roofs.hpp"

namespace roofline::report_detail {
using nlohmann::json;

const RooflineSection& section_of(const ResultsDocument& results) {
  static const RooflineSection kEmpty;
  return results.roofline ? *results.roofline : kEmpty;
}

const json& section_array(const ResultsDocument& results, const char* key) {
  static const json kEmpty = json::array();
  const json& extra = section_of(results).extra;
  const auto it = extra.find(key);
  return it != extra.end() && it->is_array() ? *it : kEmpty;
}

}  // namespace roofline::report_detail
