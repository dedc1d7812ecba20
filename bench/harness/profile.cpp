// The profile table (see profile.hpp), one line per setting with its quick, full and gate values side by side.
// quick: 30 s on 2 cores (the budgets at the end), 5 repetitions of every key figure so that the U test can reach
// significance; full: about 10x longer per point, every kernel at every size, every batch; gate: the CI gate's paired
// rounds (scripts/ci-regression), where the round is the repetition: every key figure once per run, at the quick
// plan's points with 2 repetitions (the least a median of a point's repetitions needs) and shorter calls, so that a
// round of two builds fits a dozen seconds and 10 minutes hold enough rounds to decide. Bandwidth calls
// already move kCallTargetBytesPerThread per thread (milliseconds), so 5 ms per repetition is far above the
// timer's resolution; full takes 20 ms for steadier medians.
#include "roofline/harness/profile.hpp"

namespace roofline {
namespace {
// Settings of one profile, picked column by column.
struct Pick {
  Profile profile;
  template <class T>
  constexpr T operator()(T quick_value, T full_value, T gate_value) const {
    return profile == Profile::quick ? quick_value : profile == Profile::full ? full_value : gate_value;
  }
};

constexpr ProfileSettings settings(Pick p) {
  // p(quick value, full value, gate value)
  return {
      .bandwidth = {.sizes_per_octave = p(2, 4, 2),
                    .sweep_every_kernel = p(false, true, false),
                    .min_time_s = p(0.005, 0.02, 0.002),
                    .repetitions = p(5, 5, 2),
                    .spot_repetitions = p(3, 5, 2),
                    // Where the sweep ends is not a profile setting: roofline/harness/sweep_plan.hpp.
                   },
      .compute = {.min_time_s = p(0.02, 0.2, 0.01), .repetitions = p(5, 5, 2)},
      .gemm = {.every_batch = p(false, true, false),
               .repetitions = p(5, 5, 2),
               .long_call_repetitions = p(3, 3, 1),
               .long_call_s = p(0.3, 0.5, 0.1),
               .min_time_s = p(0.05, 0.25, 0.02),
               .compute_fill_s = p(0.1, 0.5, 0.05)},
      // quick: 28 s of suites on the CPU (the environment guard's canaries add about a second: 30 s in all on
      // 2 cores), 58 s on a device; full: about 20x that. A suite's budget shapes its plan before it runs
      // (cpu_plan.hpp, a device's device_plan.hpp); nothing is cut at run time (issue 46).
      .cpu_budget = {.bandwidth = p(12.0, 300.0, 5.0), .compute = p(7.0, 120.0, 3.0), .gemm = p(9.0, 300.0, 4.0)},
      .device_budget = {.bandwidth = p(20.0, 300.0, 10.0), .compute = p(12.0, 120.0, 6.0), .gemm = p(18.0, 600.0, 9.0),
                        .transfer = p(5.0, 60.0, 3.0), .latency = p(3.0, 30.0, 2.0)},
  };
}

constexpr ProfileSettings kQuick = settings(Pick{Profile::quick});
constexpr ProfileSettings kFull = settings(Pick{Profile::full});
constexpr ProfileSettings kGate = settings(Pick{Profile::gate});
}  // namespace

const ProfileSettings& profile_settings(Profile profile) {
  return profile == Profile::quick ? kQuick : profile == Profile::full ? kFull : kGate;
}

double suite_budget_seconds(Profile profile, bool device, const std::string& suite) {
  const SuiteBudgets& b = device ? profile_settings(profile).device_budget : profile_settings(profile).cpu_budget;
  if (suite == "bandwidth") return b.bandwidth;
  if (suite == "compute") return b.compute;
  if (suite == "gemm") return b.gemm;
  if (suite == "transfer") return b.transfer;
  if (suite == "latency") return b.latency;
  return 0.0;
}

double profile_budget_seconds(Profile profile, bool device) {
  const SuiteBudgets& b = device ? profile_settings(profile).device_budget : profile_settings(profile).cpu_budget;
  return b.bandwidth + b.compute + b.gemm + b.transfer + b.latency;
}

}  // namespace roofline
