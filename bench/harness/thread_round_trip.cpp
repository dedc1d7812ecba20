// The round trip of a cache line between two pinned threads: see thread_round_trip.hpp.
#include "roofline/harness/thread_round_trip.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <vector>

namespace roofline {
namespace {

using Clock = std::chrono::steady_clock;

// The line the two threads hand each other: thread 0 writes odd values, thread 1 answers with the next even one.
struct alignas(64) Line {
  std::atomic<int> value{0};
  std::atomic<bool> give_up{false};  // set by either thread after a second: the other stops waiting too
};

// Waits until `line` holds `wanted` (true) or either thread gave up (false). Checks the clock every 4096 spins.
bool wait_for(Line& line, int wanted, Clock::time_point deadline) {
  for (unsigned spins = 1;; ++spins) {
    if (line.value.load(std::memory_order_acquire) == wanted) return true;
    if (line.give_up.load(std::memory_order_relaxed)) return false;
    if (spins % 4096 == 0 && Clock::now() > deadline) {
      line.give_up.store(true, std::memory_order_relaxed);
      return false;
    }
  }
}

}  // namespace

double measure_thread_round_trip_ns(int threads) {
  if (threads < 2) return 0.0;
  std::vector<double> samples;
  bool ok = true;
  for (int s = 0; s < kThreadRoundTripSamples && ok; ++s) {
    Line line;
    double seconds = 0.0;
    bool team = true;
#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num();
      if (omp_get_num_threads() < 2) {
        team = false;  // the only thread
      } else if (t < 2) {
        const auto start = Clock::now();
        const auto deadline = start + std::chrono::seconds(1);
        bool going = true;
        for (int i = 0; i < kThreadRoundTrips && going; ++i) {
          if (t == 0) {
            line.value.store(2 * i + 1, std::memory_order_release);
            going = wait_for(line, 2 * i + 2, deadline);
          } else {
            going = wait_for(line, 2 * i + 1, deadline);
            if (going) line.value.store(2 * i + 2, std::memory_order_release);
          }
        }
        if (t == 0) seconds = std::chrono::duration<double>(Clock::now() - start).count();
      }
    }
    if (!team || line.give_up.load()) {
      ok = false;
    } else {
      samples.push_back(seconds * 1e9 / kThreadRoundTrips);
    }
  }
  if (!ok || samples.empty()) return 0.0;
  std::nth_element(samples.begin(), samples.begin() + static_cast<long>(samples.size() / 2), samples.end());
  return samples[samples.size() / 2];
}

}  // namespace roofline
