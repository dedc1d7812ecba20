// One timed, validated probe of a STREAM kernel over arrays the caller prepared (issue 47): the loop of
// steady_clock samples, the bytes of each sample from the kernel's metadata row, the best of them, and the
// validation after timing. The environment guard's two canaries, the CPU target's roof of the moment and the
// llm chain's memory roof are all this loop; each keeps its own sizes, allocation, first touch and pinning,
// and says what it is in `what`, which prefixes the error a wrong answer throws.
#pragma once

#include <string_view>
#include <vector>

#include "roofline/common/vocabulary.hpp"
#include "roofline/kernels/cpu/stream.hpp"

namespace roofline {

// How a probe samples. Samples are taken while fewer than min_samples were taken, or while less than
// min_seconds was spent in them, and never more than max_samples (at least one is always taken).
struct StreamProbeSampling {
  int passes_per_sample = 1;  // passes of the kernel in one timed sample (one OpenMP region)
  int warmup_passes = 0;      // passes run once before the first sample, untimed (wakes the team)
  int min_samples = 1;
  int max_samples = 1;
  double min_seconds = 0.0;
  // The arrays were checked whole since they were last written, and the kernel is read (which never writes): only
  // the read's sum is checked after the samples (a probe that reads the same array again, issue 60).
  bool arrays_checked = false;
};

// What a probe measured: bytes_per_second (STREAM's bytes) of every sample that took measurable time, the
// best of them (0 when none did), and the seconds the timed samples took together.
struct StreamProbeResult {
  std::vector<double> samples;
  double best_bytes_per_second = 0.0;
  double seconds = 0.0;
};

// Runs `kernel` over `arrays` (allocated, initialized with stream_init and first-touched by the caller, on
// threads it pinned) as `sampling` says, then validates the arrays and the last sample's read sum with
// validate_stream. Throws std::runtime_error("<what>: <the validator's message>") on a wrong answer.
StreamProbeResult probe_stream(StreamKernel kernel, const StreamArrays& arrays, int threads,
                               const StreamProbeSampling& sampling, const IsaFeatures& features,
                               std::string_view what);

}  // namespace roofline
