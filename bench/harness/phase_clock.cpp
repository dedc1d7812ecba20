// The exclusive phase clock: see phase_clock.hpp.
#include "roofline/harness/phase_clock.hpp"

#include <cstdio>
#include <cstdlib>

namespace roofline {

std::string_view phase_name(Phase phase) {
  switch (phase) {
    case Phase::calibration: return "calibration";
    case Phase::setup: return "setup";
    case Phase::validation: return "validation";
    case Phase::probes: return "probes";
    case Phase::body: return "body";
    case Phase::harness: return "harness";
  }
  return "?";
}

void PhaseClock::charge(Clock::time_point now) {
  if (!open_.empty()) seconds_[static_cast<std::size_t>(open_.back())] += std::chrono::duration<double>(now - since_).count();
  since_ = now;
}

void PhaseClock::enter(Phase phase) {
  charge(now());
  open_.push_back(phase);
}

void PhaseClock::leave() {
  if (open_.empty()) {
    std::fputs("PhaseClock: a scope closed that was never opened\n", stderr);
    std::abort();
  }
  charge(now());
  open_.pop_back();
}

void PhaseClock::reset() {
  seconds_.fill(0.0);
  since_ = now();
}

}  // namespace roofline
