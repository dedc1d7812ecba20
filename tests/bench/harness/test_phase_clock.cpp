// The phase clock (issue 60, item 2): every second counted once, in the innermost open phase, and a suite's
// overhead_seconds adding up to its wall beside its timed loops. Time comes from a hand-moved clock, never the host's.
#include <gtest/gtest.h>

#include <chrono>

#include "roofline/harness/measure.hpp"
#include "roofline/harness/phase_clock.hpp"
#include "roofline/harness/runner.hpp"

namespace roofline {
namespace {

PhaseClock::Clock::time_point fake_now_value{};
PhaseClock::Clock::time_point fake_now() { return fake_now_value; }
void advance(double seconds) {
  fake_now_value += std::chrono::duration_cast<PhaseClock::Clock::duration>(std::chrono::duration<double>(seconds));
}

}  // namespace

TEST(PhaseClock, CountsEachSecondOnceInTheInnermostPhase) {
  PhaseClock clock;
  clock.set_time_source(&fake_now);
  clock.reset();
  advance(5.0);  // no phase open: counted nowhere
  {
    const PhaseClock::Scope calibrating = PhaseClock::open(&clock, Phase::calibration);
    advance(1.0);
    {
      const PhaseClock::Scope setting_up = PhaseClock::open(&clock, Phase::setup);
      advance(2.0);
      {
        const PhaseClock::Scope validating = PhaseClock::open(&clock, Phase::validation);
        advance(0.5);
      }
      advance(0.25);
    }
    advance(1.0);
  }
  EXPECT_DOUBLE_EQ(clock.seconds(Phase::calibration), 2.0);
  EXPECT_DOUBLE_EQ(clock.seconds(Phase::setup), 2.25);
  EXPECT_DOUBLE_EQ(clock.seconds(Phase::validation), 0.5);
  EXPECT_DOUBLE_EQ(clock.seconds(Phase::probes), 0.0);
  clock.reset();
  EXPECT_DOUBLE_EQ(clock.seconds(Phase::setup), 0.0);
  {
    const PhaseClock::Scope none = PhaseClock::open(nullptr, Phase::setup);  // a spec outside any clock: nothing
    advance(1.0);
  }
  EXPECT_DOUBLE_EQ(clock.seconds(Phase::setup), 0.0);
}

TEST(PhaseClock, OverheadSecondsAddUpToTheWall) {
  PhaseClock clock;
  clock.set_time_source(&fake_now);
  clock.reset();
  {
    const PhaseClock::Scope in_harness = PhaseClock::open(&clock, Phase::harness);
    advance(0.5);
    const PhaseClock::Scope in_body = PhaseClock::open(&clock, Phase::body);
    advance(3.0);  // of which the timed loops: 2.5 s
    {
      const PhaseClock::Scope probing = PhaseClock::open(&clock, Phase::probes);
      advance(0.2);
    }
  }
  const nlohmann::json o = overhead_seconds(clock, 4.0, 2.5);
  EXPECT_DOUBLE_EQ(o["harness"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(o["probes"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(o["body_untimed"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(o["calibration"].get<double>(), 0.0);
  EXPECT_NEAR(o["other"].get<double>(), 0.3, 1e-12);
  double sum = 2.5;
  for (auto it = o.begin(); it != o.end(); ++it) sum += it.value().get<double>();
  EXPECT_NEAR(sum, 4.0, 1e-12);
  EXPECT_FALSE(o.contains("body"));  // the bodies' wall is the timed loops and body_untimed
}

// The runner opens its phases: a batch's bodies, Google Benchmark around them, and the calibration call.
TEST(PhaseClock, TheRunnerCountsItsPhases) {
  Runner runner;
  runner.phases().reset();
  BenchmarkSpec s;
  s.name = "phases";
  s.labels = {{"suite", "test"}, {"kernel", "phases"}, {"threads", 1}};
  s.min_time_s = 0.002;
  s.repetitions = 2;
  s.calibrate = true;
  PhaseClock* phases = &runner.phases();
  s.body = [phases](benchmark::State& state) {
    double x = 1.0;
    for (auto _ : state) benchmark::DoNotOptimize(x *= 1.0000001);
    const PhaseClock::Scope validating = PhaseClock::open(phases, Phase::validation);
    benchmark::DoNotOptimize(x);
  };
  runner.run({s});
  EXPECT_GT(runner.phases().seconds(Phase::calibration), 0.0);
  EXPECT_GT(runner.phases().seconds(Phase::body), 0.0);
  EXPECT_GT(runner.phases().seconds(Phase::harness), 0.0);
  EXPECT_GT(runner.phases().seconds(Phase::validation), 0.0);
}

}  // namespace roofline
