// The test-only target (test_target.cpp): prepared timings behind the Target interface.
#pragma once

#include "roofline/harness/target.hpp"

namespace roofline::testing {

TargetFacts test_target_facts();
TargetProvider test_target_provider();

}  // namespace roofline::testing
