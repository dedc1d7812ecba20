// The llm chain (suite_llm.cpp) as a Target (issue 47), so that `roofline llm --measure` runs through the harness's
// measure() as `roofline run` runs its targets: the environment guard, the run context (context.targets, context.plan,
// the suites' contexts and times), failures. It is the host CPU measured otherwise: its facts are the CPU target's
// (id "cpu", so labels.target and the benchmarks' names stay those of every earlier llm file), it offers one suite,
// "llm", and its plan is the chain's steps at every thread count. Not a provider: it needs a model's inputs, so
// bench/cli/cmd_llm_measure.cpp opens it itself, and `roofline run --suites llm` stays refused.
#pragma once

#include <memory>
#include <string>

#include "roofline/drivers/llm_chain.hpp"
#include "roofline/facts/machine.hpp"
#include "roofline/harness/target.hpp"

namespace roofline {

// The one suite of the llm target.
inline constexpr const char* kLlmSuite = "llm";

// The target that runs `input`'s chain on this machine: facts `cpu_facts` (the CPU target's, cpu_target_facts()),
// suites {"llm"}. run_suite("llm") measures the DRAM read roof of the moment right before and right after the
// chain (context.suites.llm.memory_roof_moment: before, after, kernel, bytes) and records `estimate_from` (the
// results file whose ceilings gave the estimate) as context.suites.llm.estimate_from. input.progress is ignored:
// the chain shows its set-up on the run's progress line (Runner::progress()).
std::unique_ptr<Target> make_llm_target(TargetFacts cpu_facts, const MachineFacts& machine, LlmSuiteInput input,
                                        std::string estimate_from);

}  // namespace roofline
