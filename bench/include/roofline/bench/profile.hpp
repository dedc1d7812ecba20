// What the quick and full profiles mean, for every suite, in one table (profile.cpp). Suites read their
// settings from here and nowhere else, so the two profiles can be compared at a glance and changed in one
// place.
#pragma once

#include "roofline/bench/run_config.hpp"

namespace roofline {

struct ProfileSettings {
  // compute suite: each repetition's minimum time and the repetitions per kernel.
  double compute_min_time_s = 0.0;
  int compute_repetitions = 0;
  // gemm suite: every batch for every group (full) or each backend's quick plan (GemmQuickPlan);
  // repetitions, fewer for calls longer than `gemm_long_call_s`; each repetition's minimum time.
  bool gemm_every_batch = false;
  int gemm_repetitions = 0;
  int gemm_long_call_repetitions = 0;
  double gemm_long_call_s = 0.0;
  double gemm_min_time_s = 0.0;
};

const ProfileSettings& profile_settings(Profile profile);

}  // namespace roofline
