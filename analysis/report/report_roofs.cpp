// The report's typed section: see report_roofs.hpp.
#include "report_roofs.hpp"

namespace roofline::report_detail {

const RooflineSection& section_of(const ResultsDocument& results) {
  static const RooflineSection kEmpty;
  return results.roofline ? *results.roofline : kEmpty;
}

}  // namespace roofline::report_detail
