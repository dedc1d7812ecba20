// The profile table (see profile.hpp), one line per setting with its quick and full values side by side.
// quick: 30 s on 2 cores (the budgets at the end), 5 repetitions of every key figure so that the U test can reach
// significance; full: about 10x longer per point, every kernel at every size, every batch. Bandwidth calls
// already move kCallTargetBytesPerThread per thread (milliseconds), so 5 ms per repetition is far above the
// timer's resolution; full takes 20 ms for steadier medians.
#include "roofline/harness/profile.hpp"

namespace roofline {
namespace {
// Settings of one profile, picked column by column.
struct Pick {
  bool quick;
  template <class T>
  constexpr T operator()(T quick_value, T full_value) const { return quick ? quick_value : full_value; }
};

constexpr ProfileSettings settings(Pick p) {
  // p(quick value, full value)
  return {
      .bandwidth = {.sizes_per_octave = p(2, 4),
                    .sweep_every_kernel = p(false, true),
                    .min_time_s = p(0.005, 0.02),
                    .repetitions = p(5, 5),
                    .spot_repetitions = p(3, 5),
                    // Where the sweep ends is not a profile setting: roofline/harness/sweep_plan.hpp.
                   },
      .compute = {.min_time_s = p(0.02, 0.2), .repetitions = p(5, 5)},
      .gemm = {.every_batch = p(false, true),
               .repetitions = p(5, 5),
               .long_call_repetitions = p(3, 3),
               .long_call_s = p(0.3, 0.5),
               .min_time_s = p(0.05, 0.25)},
      // quick: 28 s of suites on the CPU (the environment guard's canaries add about a second: 30 s in all on
      // 2 cores), 58 s on a device; full: about 20x that. A suite's budget shapes its plan before it runs
      // (cpu_plan.hpp, a device's device_plan.hpp); nothing is cut at run time (issue 46).
      .cpu_budget = {.bandwidth = p(12.0, 300.0), .compute = p(7.0, 120.0), .gemm = p(9.0, 300.0)},
      .device_budget = {.bandwidth = p(20.0, 300.0), .compute = p(12.0, 120.0), .gemm = p(18.0, 600.0),
                        .transfer = p(5.0, 60.0), .latency = p(3.0, 30.0)},
  };
}

constexpr ProfileSettings kQuick = settings(Pick{true});
constexpr ProfileSettings kFull = settings(Pick{false});
}  // namespace

const ProfileSettings& profile_settings(Profile profile) { return profile == Profile::quick ? kQuick : kFull; }

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
