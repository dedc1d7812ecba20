// Placeholder until the bandwidth suite lands.
#include "roofline/bench/suite.hpp"

namespace roofline {
void run_bandwidth_suite(const RunConfig&, const MachineFacts&, Runner&, SuiteOutput&) {}
}  // namespace roofline
