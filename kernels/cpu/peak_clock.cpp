// The measured-clock kernel's OpenMP wrapper and validator. The chain itself (clock_chain: dependent
// register-register integer adds, latency 1 cycle; see peak.hpp for the assumption) is inline assembly, one per
// architecture, in arch_<arch>.cpp.
#include <omp.h>

#include <string>

#include "roofline/kernels/cpu/peak.hpp"

namespace roofline {

void run_clock(int threads, std::int64_t iterations, std::int64_t step, std::int64_t* out) {
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    out[t] = clock_chain(iterations, step);
  }
}

std::optional<std::string> validate_clock(int threads, std::int64_t iterations, std::int64_t step,
                                          const std::int64_t* out) {
  const std::int64_t expected = iterations > 0 ? iterations * kClockAddsPerIteration * step : 0;
  for (int t = 0; t < threads; ++t) {
    if (out[t] != expected) {
      return "clock chain of thread " + std::to_string(t) + " ended at " + std::to_string(out[t]) + ", expected " +
             std::to_string(expected);
    }
  }
  return std::nullopt;
}

}  // namespace roofline
