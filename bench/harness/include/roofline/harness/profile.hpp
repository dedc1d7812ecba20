// What the quick and full profiles mean, for every suite, in one table (profile.cpp). Suites read their
// settings from here and nowhere else, so the two profiles can be compared at a glance and changed in one
// place.
#pragma once

#include <cstdint>
#include <string>

#include "roofline/harness/run_config.hpp"

namespace roofline {

// bandwidth suite (suite_bandwidth.cpp, bandwidth_plan.cpp).
struct BandwidthProfile {
  int sizes_per_octave = 0;      // of the sweep
  bool sweep_every_kernel = false;  // else read and triad, the others at one size per level found ("spot")
  double min_time_s = 0.0;       // each repetition's minimum time
  int repetitions = 0;           // of swept kernels
  int spot_repetitions = 0;      // of spot kernels
};

// compute suite (suite_compute.cpp).
struct ComputeProfile {
  double min_time_s = 0.0;  // each repetition's minimum time
  int repetitions = 0;      // per kernel
};

// gemm suite (suite_gemm.cpp): every batch for every group (full) or each backend's quick plan
// (GemmQuickPlan); repetitions, fewer for calls longer than `long_call_s`; each repetition's minimum time.
struct GemmProfile {
  bool every_batch = false;
  int repetitions = 0;
  int long_call_repetitions = 0;
  double long_call_s = 0.0;
  double min_time_s = 0.0;
  // The planned seconds of one call of a group's largest compute-bound batch (gemm_plan.hpp's compute shape): the
  // FLOPs that fill the cores for this long at the planning rate, not DRAM-sized operands.
  double compute_fill_s = 0.0;
};

// Wall-time budgets of one suite, in seconds, by the kind of target. The CPU's shape its plan before anything is
// measured (cpu_plan.hpp: fewer sizes per octave when the estimate exceeds it, said); a device target's suites still
// stop starting work past theirs (budget.hpp).
struct SuiteBudgets {
  double bandwidth = 0.0;
  double compute = 0.0;
  double gemm = 0.0;
  double transfer = 0.0;
  double latency = 0.0;
};

struct ProfileSettings {
  BandwidthProfile bandwidth;
  ComputeProfile compute;
  GemmProfile gemm;
  SuiteBudgets cpu_budget;     // the host CPU's suites
  SuiteBudgets device_budget;  // each device target's suites (OpenCL, CUDA)
};

const ProfileSettings& profile_settings(Profile profile);

// The budget of `suite` for a CPU (`device` false) or device target; 0 for a suite the table does not name
// (no budget: it runs to its end).
double suite_budget_seconds(Profile profile, bool device, const std::string& suite);
// What the whole profile may take on one target of that kind: the sum of its suites' budgets.
double profile_budget_seconds(Profile profile, bool device);

}  // namespace roofline
