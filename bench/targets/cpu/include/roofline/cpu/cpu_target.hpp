// The host CPU as a target (issue 21): its facts for context.targets[] and its suites (bandwidth, compute, gemm),
// the ones `roofline run` has always measured, behind the Target interface the harness drives.
#pragma once

#include "roofline/facts/machine.hpp"
#include "roofline/harness/target.hpp"

namespace roofline {

// The CPU's entry of context.targets[]: its caches as memory levels (capacity of the whole machine: the
// per-thread share is analysis' x86 model, from context.machine), DRAM last, peak model "x86_pipes".
TargetFacts cpu_target_facts(const MachineFacts& machine);

// The provider of the one target "cpu" (api "native") for this machine's facts.
TargetProvider cpu_target_provider(const MachineFacts& machine);

}  // namespace roofline
