// Placeholder until the compute suite lands.
#include "roofline/bench/suite.hpp"

namespace roofline {
void run_compute_suite(const RunConfig&, const MachineFacts&, Runner&, SuiteOutput&) {}
}  // namespace roofline
