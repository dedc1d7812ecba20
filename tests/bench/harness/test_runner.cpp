// The runner: labels attached to every entry, aggregates present, and a benchmark that fails its
// validation reported as a failure (which makes `roofline run` exit 1) rather than crashing the process.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <memory>
#include <stdexcept>

#include "roofline/harness/runner.hpp"
#include "roofline/harness/target.hpp"
#include "roofline/harness/thread_round_trip.hpp"

namespace roofline {
using nlohmann::json;

namespace {
BenchmarkSpec spec(const std::string& name, bool fail) {
  BenchmarkSpec s;
  s.name = name;
  s.labels = {{"suite", "test"}, {"kernel", name}, {"threads", 1}};
  s.min_time_s = 0.001;
  s.repetitions = 3;
  s.body = [fail](benchmark::State& state) {
    double x = 1.0;
    for (auto _ : state) benchmark::DoNotOptimize(x *= 1.0000001);
    if (fail) {
      state.SkipWithError("wrong result: x[3] = 7, expected 5");
      return;
    }
    state.counters["bytes_per_second"] = benchmark::Counter(64, benchmark::Counter::kIsIterationInvariantRate);
  };
  return s;
}
}  // namespace

TEST(Runner, LabelsAggregatesAndFailures) {
  Runner runner;
  const std::vector<json> entries = runner.run({spec("good", false), spec("bad", true)});
  int iterations = 0, maxima = 0, medians = 0;
  for (const json& e : entries) {
    ASSERT_TRUE(e.contains("labels")) << e.dump();
    const std::string kernel = e["labels"]["kernel"];
    if (kernel != "good") continue;
    if (e["run_type"] == "iteration") ++iterations;
    if (e.value("aggregate_name", "") == "max") ++maxima;
    if (e.value("aggregate_name", "") == "median") ++medians;
  }
  EXPECT_EQ(iterations, 3);
  EXPECT_EQ(maxima, 1);
  EXPECT_EQ(medians, 1);
  ASSERT_EQ(runner.failures().size(), 1u);
  EXPECT_NE(runner.failures()[0].find("bad"), std::string::npos);
  EXPECT_NE(runner.failures()[0].find("wrong result"), std::string::npos);
  EXPECT_EQ(runner.entries().size(), entries.size());
  EXPECT_TRUE(runner.context().contains("host_name"));
}

TEST(Runner, SingleRepetitionGetsItsAggregates) {
  Runner runner;
  BenchmarkSpec s = spec("once", false);
  s.repetitions = 1;
  int medians = 0;
  for (const json& e : runner.run({s})) {
    if (e.value("aggregate_name", "") == "median") {
      ++medians;
      EXPECT_TRUE(e.value("aggregate_of_single_repetition", false));
    }
  }
  EXPECT_EQ(medians, 1);
}

// A calibrated spec (issue 46): one call timed first, then every repetition runs ceil(min time / call) calls, and the
// entries keep the "/min_time:T" name, the same in every run whatever the count; a failing calibration call falls
// back to Google Benchmark's search and still fails the spec.
TEST(Runner, CalibratedRepetitionsRunTheirWindowFromTheCallsRate) {
  Runner runner;
  BenchmarkSpec s = spec("calibrated", false);
  s.min_time_s = 0.02;
  s.calibrate = true;
  int bodies = 0;
  s.body = [&bodies](benchmark::State& state) {
    ++bodies;
    for (auto _ : state) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    state.counters["bytes_per_second"] = benchmark::Counter(64, benchmark::Counter::kIsIterationInvariantRate);
  };
  BenchmarkSpec given = spec("given", false);
  given.min_time_s = 0.01;
  given.calibrate = true;
  given.calibration_call_s = 0.004;  // the suite's own warm-up call: no calibration call
  BenchmarkSpec failing = spec("failing", true);
  failing.calibrate = true;
  const std::vector<json> entries = runner.run({s, given, failing});
  EXPECT_EQ(bodies, 1 + 3);  // the calibration call and three repetitions, no search
  int calibrated = 0, fixed = 0;
  for (const json& e : entries) {
    const std::string kernel = e["labels"]["kernel"];
    const std::string name = e["name"];
    EXPECT_EQ(name.find("/iterations:"), std::string::npos) << name;
    if (e["run_type"] != "iteration") continue;
    if (kernel == "calibrated") {
      ++calibrated;
      EXPECT_EQ(name, "calibrated/min_time:0.020/repeats:3/real_time");
      // 2 ms calls (sleeps last at least that): at most 10 of them fill the 20 ms window.
      EXPECT_GE(e["iterations"].get<int>(), 1);
      EXPECT_LE(e["iterations"].get<int>(), 10);
    }
    if (kernel == "given") {
      ++fixed;
      EXPECT_EQ(e["iterations"].get<int>(), 3);  // ceil(0.01 / 0.004)
      EXPECT_EQ(name, "given/min_time:0.010/repeats:3/real_time");
    }
  }
  EXPECT_EQ(calibrated, 3);
  EXPECT_EQ(fixed, 3);
  ASSERT_EQ(runner.failures().size(), 1u);
  EXPECT_NE(runner.failures()[0].find("failing"), std::string::npos);
}

// A counter that is 0 in every repetition (huge_page_bytes on 4 KiB pages) has a cv of 0/0, which Google
// Benchmark's JSONReporter writes as a bare NaN: our reporter writes it null, and the batch is kept.
TEST(Runner, ZeroCounterKeepsTheBatch) {
  Runner runner;
  BenchmarkSpec s = spec("zero", false);
  const auto body = s.body;
  s.body = [body](benchmark::State& state) {
    body(state);
    state.counters["huge_page_bytes"] = benchmark::Counter(0.0);
  };
  const std::vector<json> entries = runner.run({s});
  EXPECT_TRUE(runner.failures().empty()) << runner.failures().front();
  int cv = 0;
  for (const json& e : entries) {
    if (e.value("aggregate_name", "") != "cv") continue;
    ++cv;
    EXPECT_TRUE(e["huge_page_bytes"].is_null()) << e.dump();
  }
  EXPECT_EQ(cv, 1);
}

}  // namespace roofline

namespace roofline {
namespace {
DeviceWork clocked_work(const std::string& name, std::function<double()> clock) {
  DeviceWork w;
  w.name = name;
  w.labels = {{"suite", "compute"}, {"kernel", name}};
  w.run = [](std::int64_t n) { return 1e-3 * static_cast<double>(n); };
  w.validate = [] { return std::string(); };
  w.flop = 1e6;
  w.min_time_s = 0.001;
  w.repetitions = 2;
  w.clock_hz = std::move(clock);
  return w;
}
}  // namespace

// DeviceWork::clock_hz: its figure becomes the entry's clock_hz counter; a clock that throws (its kernel failed
// its own check) fails that entry, named, and the process goes on.
TEST(Runner, DeviceWorkClockIsACounterAndAThrowingClockFailsItsEntry) {
  Runner runner;
  const std::vector<json> entries = runner.run(
      {device_benchmark(clocked_work("clocked", [] { return 3.5e9; })),
       device_benchmark(clocked_work("broken", []() -> double { throw std::runtime_error("clock chain: wrong sum"); }))});
  int clocked = 0;
  for (const json& e : entries) {
    if (e["labels"]["kernel"] != "clocked" || e["run_type"] != "iteration") continue;
    EXPECT_DOUBLE_EQ(e["clock_hz"].get<double>(), 3.5e9);
    EXPECT_NEAR(e["flop_per_second"].get<double>(), 1e9, 1e3);
    ++clocked;
  }
  EXPECT_EQ(clocked, 2);
  ASSERT_EQ(runner.failures().size(), 1u);
  EXPECT_NE(runner.failures()[0].find("broken"), std::string::npos);
  EXPECT_NE(runner.failures()[0].find("clock chain: wrong sum"), std::string::npos);
}
}  // namespace roofline

// The roof of the moment's seam (issue 33): a bracketed spec runs alone between its two measurements, which
// land in every one of its entries; a measurement that throws fails the spec loudly.
namespace roofline {
TEST(Runner, ABracketMeasuresRightBeforeAndRightAfterTheRepetitions) {
  Runner runner;
  auto log = std::make_shared<std::vector<std::string>>();
  BenchmarkSpec probed = spec("probed", false);
  const auto body = probed.body;
  probed.body = [body, log](benchmark::State& state) {
    log->push_back("rep");
    body(state);
  };
  auto count = std::make_shared<int>(0);
  probed.bracket = SpecBracket{"roof_now", [log, count] {
                                 log->push_back("probe");
                                 return json{{"bytes_per_second", 1e9 * ++*count}};
                               }};
  const std::vector<json> entries = runner.run({spec("plain", false), probed});
  ASSERT_GE(log->size(), 5u);
  EXPECT_EQ(log->front(), "probe");
  EXPECT_EQ(log->back(), "probe");
  EXPECT_EQ(std::count(log->begin(), log->end(), "probe"), 2);
  int with = 0;
  for (const json& e : entries) {
    if (e["labels"]["kernel"] == "probed") {
      ++with;
      EXPECT_EQ(e["roof_now"]["before"]["bytes_per_second"], 1e9);
      EXPECT_EQ(e["roof_now"]["after"]["bytes_per_second"], 2e9);
    } else {
      EXPECT_FALSE(e.contains("roof_now"));
    }
  }
  EXPECT_GE(with, 3);
  for (const json& e : runner.entries()) EXPECT_EQ(e.contains("roof_now"), e["labels"]["kernel"] == "probed");
  EXPECT_TRUE(runner.failures().empty());

  Runner broken;
  BenchmarkSpec bad = spec("unprobed", false);
  bad.bracket = SpecBracket{"roof_now", []() -> json { throw std::runtime_error("read probe: sum = 3, expected 4"); }};
  broken.run({bad});
  ASSERT_EQ(broken.failures().size(), 1u);
  EXPECT_NE(broken.failures()[0].find("read probe: sum = 3"), std::string::npos) << broken.failures()[0];
}
}  // namespace roofline

namespace roofline {

TEST(ThreadRoundTrip, TwoThreadsHandALineBackAndForth) {
  // Two OpenMP threads on this machine: a round trip takes some tens of nanoseconds to some microseconds (the value is
  // the host's; only that it is measured, positive and finite, is asserted).
  const double ns = measure_thread_round_trip_ns(2);
  EXPECT_GT(ns, 0.0);
  EXPECT_LT(ns, 1e6);
  EXPECT_EQ(measure_thread_round_trip_ns(1), 0.0);  // one thread has no one to hand it to
  EXPECT_EQ(measure_thread_round_trip_ns(0), 0.0);
}

TEST(Runner, AnEntryAtSeveralThreadsSaysWhereTheHostPutTheThreads) {
  // A batch at 2 threads runs between two round-trip probes: each of its entries at 2 threads gets their mean; an
  // entry at 1 thread, and a device's batch, get none.
  Runner runner;
  BenchmarkSpec two = spec("two", false);
  two.labels["threads"] = 2;
  std::vector<json> entries = runner.run({two, spec("one", false)});
  int stamped = 0;
  for (const json& e : entries) {
    if (e["labels"]["threads"] == 2) {
      ASSERT_TRUE(e.contains("thread_round_trip_ns")) << e.dump();
      EXPECT_GT(e["thread_round_trip_ns"].get<double>(), 0.0);
      ++stamped;
    } else {
      EXPECT_FALSE(e.contains("thread_round_trip_ns")) << e.dump();
    }
  }
  EXPECT_GE(stamped, 3);  // the repetitions and the aggregates of "two"
  runner.set_target("opencl:0.0", "opencl:0.0/");
  entries = runner.run({two});
  for (const json& e : entries) EXPECT_FALSE(e.contains("thread_round_trip_ns")) << e.dump();
}

}  // namespace roofline
