// The suites `roofline run` executes, in order: bandwidth (memory ceilings), compute (peak per precision
// and measured clock), gemm (GEMV/GEMM placements). Adding a suite is one function and one row in
// suites.cpp.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/cpu/cpu_plan.hpp"
#include "roofline/facts/machine.hpp"
#include "roofline/harness/run_config.hpp"
#include "roofline/harness/runner.hpp"
#include "roofline/harness/target.hpp"

namespace roofline {

// What one run's CPU suites share: the plan, fixed before the first measurement (cpu_plan.hpp). No suite reads
// another's measurements to decide what it measures.
struct CpuRunState {
  CpuPlan plan;
};

struct Suite {
  std::string name;
  std::string description;
  // Runs the suite's benchmarks through `runner` for this machine and configuration.
  void (*run)(const RunConfig& config, const MachineFacts& machine, Runner& runner, SuiteOutput& out, CpuRunState& state);
};

// All suites, in the order `run` executes them.
const std::vector<Suite>& all_suites();

// Per-suite entry points (one file each).
void run_bandwidth_suite(const RunConfig& config, const MachineFacts& machine, Runner& runner, SuiteOutput& out,
                         CpuRunState& state);
void run_compute_suite(const RunConfig& config, const MachineFacts& machine, Runner& runner, SuiteOutput& out,
                       CpuRunState& state);
// The compute suite's dequant-dot rows (suite_dequant_dot.cpp): the plan's block-format x ISA GEMVs in L1 and L2, then
// its DRAM GEMVs.
void run_dequant_dot_rows(const ComputePlan& plan, const RunConfig& config, const MachineFacts& machine, Runner& runner,
                          SuiteOutput& out);
void run_gemm_suite(const RunConfig& config, const MachineFacts& machine, Runner& runner, SuiteOutput& out,
                    CpuRunState& state);

}  // namespace roofline
