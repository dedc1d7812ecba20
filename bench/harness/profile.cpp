// The profile table (see profile.hpp), one line per setting with its quick and full values side by side.
// quick: under a minute on 2 cores, 5 repetitions of every key figure so that the U test can reach
// significance; full: about 10x longer per point, every kernel at every size, every batch. Bandwidth calls
// already move kCallTargetBytesPerThread per thread (milliseconds), so 5 ms per repetition is far above the
// timer's resolution; full takes 20 ms for steadier medians.
#include "roofline/bench/profile.hpp"

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
                    .extra_octaves = p(2, 4),
                    .stop_when_flat = p(true, false)},
      .compute = {.min_time_s = p(0.02, 0.2), .repetitions = p(5, 5)},
      .gemm = {.every_batch = p(false, true),
               .repetitions = p(5, 5),
               .long_call_repetitions = p(3, 3),
               .long_call_s = p(0.3, 0.5),
               .min_time_s = p(0.05, 0.25)},
  };
}

constexpr ProfileSettings kQuick = settings(Pick{true});
constexpr ProfileSettings kFull = settings(Pick{false});
}  // namespace

const ProfileSettings& profile_settings(Profile profile) { return profile == Profile::quick ? kQuick : kFull; }

}  // namespace roofline
