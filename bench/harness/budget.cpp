// A suite's wall-time budget: see budget.hpp.
#include "roofline/harness/budget.hpp"

#include <fmt/format.h>

namespace roofline {

std::string SuiteBudget::cut(const std::string& suite, const std::string& what) {
  cuts_.push_back(what);
  return fmt::format("{}: the time budget ({:.0f} s) ended after {:.1f} s: {} (not measured; --profile full has a "
                     "longer budget)", suite, seconds_, elapsed(), what);
}

}  // namespace roofline
