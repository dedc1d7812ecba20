// What the quick and full profiles mean, for every suite, in one table (profile.cpp). Suites read their
// settings from here and nowhere else, so the two profiles can be compared at a glance and changed in one
// place.
#pragma once

#include "roofline/bench/run_config.hpp"

namespace roofline {

struct ProfileSettings {
  // bandwidth suite: sizes per octave of the sweep; whether every kernel is swept (else read and triad,
  // the others measured at one size per level found: "spot" kernels); each repetition's minimum time and
  // the repetitions of swept and spot kernels; how many times the planned end the sweep may go on while
  // no flat DRAM plateau is seen; whether it may stop once DRAM has been flat for two octaves.
  int bandwidth_sizes_per_octave = 0;
  bool bandwidth_sweep_every_kernel = false;
  double bandwidth_min_time_s = 0.0;
  int bandwidth_repetitions = 0;
  int bandwidth_spot_repetitions = 0;
  int bandwidth_extra_octaves = 0;
  bool bandwidth_stop_when_flat = false;
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
