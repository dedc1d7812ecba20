// One timed, validated probe of a STREAM kernel: see stream_probe.hpp.
#include "roofline/harness/stream_probe.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

namespace roofline {

StreamProbeResult probe_stream(StreamKernel kernel, const StreamArrays& arrays, int threads,
                               const StreamProbeSampling& sampling, const IsaFeatures& features,
                               std::string_view what) {
  using Clock = std::chrono::steady_clock;
  if (sampling.warmup_passes > 0) run_stream_kernel(kernel, arrays, threads, sampling.warmup_passes, features);
  const double sample_bytes =
      static_cast<double>(stream_bytes_per_pass(kernel, arrays.n)) * sampling.passes_per_sample;
  const int min_samples = std::max(1, sampling.min_samples);
  const int max_samples = std::max(min_samples, sampling.max_samples);
  StreamProbeResult result;
  double sum = 0.0;
  for (int taken = 0; taken < max_samples && (taken < min_samples || result.seconds < sampling.min_seconds);
       ++taken) {
    const auto t0 = Clock::now();
    sum = run_stream_kernel(kernel, arrays, threads, sampling.passes_per_sample, features);
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    result.seconds += s;
    if (s > 0.0) result.samples.push_back(sample_bytes / s);
  }
  // After timing, as every measurement: the last sample's sum (read) and every element the kernel touched.
  const StreamCheck check = kernel == StreamKernel::read && sampling.arrays_checked
                                ? validate_read_sum(arrays, sum)
                                : validate_stream(kernel, arrays, sum, threads);
  if (!check.ok) throw std::runtime_error(std::string(what) + ": " + check.message);
  if (!result.samples.empty()) {
    result.best_bytes_per_second = *std::max_element(result.samples.begin(), result.samples.end());
  }
  return result;
}

}  // namespace roofline
