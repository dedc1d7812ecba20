// Where a suite's seconds outside its timed loops go (issue 60, item 2: kernel time over wall time per suite, 0.8
// asked): an exclusive clock per phase. A phase entered inside another pauses the outer one, so every second is
// counted once, in the innermost phase open at that moment: a calibration call's first touch is set-up, not
// calibration. The runner opens `calibration`, `harness` (Google Benchmark's run of a batch) and `body` (each
// registered body, its timed loop included: measure() takes the timed seconds out of it), `probes` (the thread round
// trips and the brackets); a suite opens `setup`, `validation` and `probes` around its own work. measure() writes
// each suite's phases as context.suites.<suite>.overhead_seconds. The clock is read on the thread that runs the
// benchmarks only, never inside an OpenMP region; a scope costs two steady_clock reads.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <string_view>
#include <vector>

namespace roofline {

enum class Phase { calibration, setup, validation, probes, body, harness };
inline constexpr std::size_t kPhaseCount = 6;
// The phase's key in overhead_seconds (results/fields.txt).
std::string_view phase_name(Phase phase);

class PhaseClock {
 public:
  using Clock = std::chrono::steady_clock;

  // Open while it lives; scopes nest and close in reverse order (RAII).
  class [[nodiscard]] Scope {
   public:
    Scope(PhaseClock* clock, Phase phase) : clock_(clock) {
      if (clock_ != nullptr) clock_->enter(phase);
    }
    ~Scope() { close(); }
    // Closes the phase before the end of the block (once; the destructor then does nothing).
    void close() {
      if (clock_ != nullptr) clock_->leave();
      clock_ = nullptr;
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    PhaseClock* clock_;
  };

  // A scope of `phase` on `clock`; a null clock counts nothing (a spec run outside a Runner's clock).
  static Scope open(PhaseClock* clock, Phase phase) { return Scope(clock, phase); }

  // Seconds counted in `phase` since the last reset (a phase still open: up to its last entry or exit).
  [[nodiscard]] double seconds(Phase phase) const { return seconds_[static_cast<std::size_t>(phase)]; }
  // Zeroes every phase (measure() before each suite); open scopes keep counting from now.
  void reset();

  // For tests: the clock reads `now` instead of steady_clock (nullptr: steady_clock again).
  void set_time_source(Clock::time_point (*now)()) { now_ = now; }

 private:
  void enter(Phase phase);
  void leave();
  void charge(Clock::time_point now);
  [[nodiscard]] Clock::time_point now() const { return now_ != nullptr ? now_() : Clock::now(); }

  std::array<double, kPhaseCount> seconds_{};
  std::vector<Phase> open_;
  Clock::time_point since_{};
  Clock::time_point (*now_)() = nullptr;
};

}  // namespace roofline
