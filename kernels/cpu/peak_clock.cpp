// The measured-clock kernel: a dependent chain of register-register integer adds (latency 1 cycle; see
// peak.hpp for the assumption), timed by the harness. Baseline x86-64 flags.
#include <omp.h>

#include <string>

#include "roofline/kernels/cpu/peak.hpp"

namespace roofline {

std::int64_t clock_chain(std::int64_t iterations, std::int64_t step) {
  std::int64_t acc = 0;
  if (iterations <= 0) return acc;
  // 64 dependent adds per trip; the dec/jnz pair is a separate (macro-fused) chain that overlaps them.
  asm volatile(
      "1:\n\t"
      ".rept 64\n\t"
      "add %[s], %[acc]\n\t"
      ".endr\n\t"
      "dec %[n]\n\t"
      "jnz 1b\n\t"
      : [acc] "+r"(acc), [n] "+r"(iterations)
      : [s] "r"(step)
      : "cc");
  return acc;
}

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
