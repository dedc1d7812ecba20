// The profile table (see profile.hpp). quick: under a minute on 2 cores, 5 repetitions of every key figure
// so that the U test can reach significance; full: about 10x longer per point, every batch.
#include "roofline/bench/profile.hpp"

namespace roofline {
namespace {
constexpr ProfileSettings kQuick{
    .compute_min_time_s = 0.02,
    .compute_repetitions = 5,
    .gemm_every_batch = false,
    .gemm_repetitions = 5,
    .gemm_long_call_repetitions = 3,
    .gemm_long_call_s = 0.3,
    .gemm_min_time_s = 0.05,
};
constexpr ProfileSettings kFull{
    .compute_min_time_s = 0.2,
    .compute_repetitions = 5,
    .gemm_every_batch = true,
    .gemm_repetitions = 5,
    .gemm_long_call_repetitions = 3,
    .gemm_long_call_s = 0.5,
    .gemm_min_time_s = 0.25,
};
}  // namespace

const ProfileSettings& profile_settings(Profile profile) { return profile == Profile::quick ? kQuick : kFull; }

}  // namespace roofline
