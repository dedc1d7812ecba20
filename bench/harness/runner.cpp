// Runs BenchmarkSpecs through Google Benchmark: see runner.hpp. Our own reporter (entry_reporter.hpp, issue 61)
// turns each Run into a typed entry as Google Benchmark reports it; the runner adds each entry's labels (its spec's,
// by registration position) and the min_time name, and the records' one writer writes them.
#include "roofline/harness/runner.hpp"

#include "roofline/harness/target.hpp"
#include "roofline/harness/thread_round_trip.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "roofline/harness/entry_reporter.hpp"
#include "roofline/harness/progress.hpp"

namespace roofline {
using nlohmann::json;

namespace {

double max_of(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); }
double min_of(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end()); }

std::string label_text(const json& labels) {
  std::string s;
  for (auto it = labels.begin(); it != labels.end(); ++it) {
    if (!s.empty()) s += ' ';
    s += it.key() + '=' + (it.value().is_string() ? it.value().get<std::string>() : it.value().dump());
  }
  return s;
}

void initialize_google_benchmark() {
  static std::once_flag once;
  std::call_once(once, [] {
    // Google Benchmark's own flags are not exposed: every parameter comes from BenchmarkSpec, except
    // random interleaving: the repetitions of a batch run in shuffled order, so that they sample the
    // run's drift (neighbours on the host, clock) instead of sharing one moment (Google Benchmark's
    // measurements: about 40% less run-to-run spread). Recorded in the context (kRandomInterleaving).
    static char arg0[] = "roofline";
    static char arg1[] = "--benchmark_enable_random_interleaving=true";
    static char* argv[] = {arg0, kRandomInterleaving ? arg1 : nullptr, nullptr};
    int argc = kRandomInterleaving ? 2 : 1;
    benchmark::Initialize(&argc, argv);
  });
}

// Google Benchmark emits no aggregates for a single repetition; the analysis reads medians and maxima
// uniformly, so add them here (the median and max of one value are that value), marked as such.
void add_single_repetition_aggregates(std::vector<BenchmarkEntry>& entries, std::size_t first) {
  std::vector<BenchmarkEntry> extra;
  for (std::size_t i = first; i < entries.size(); ++i) {
    const BenchmarkEntry& e = entries[i];
    if (e.run_type.value_or("") != "iteration" || e.repetitions.value_or(1) != 1) continue;
    for (const char* name : {"mean", "median", "max", "min"}) {
      BenchmarkEntry a = e;
      a.name = e.run_name.value_or(e.name.value_or("")) + "_" + name;
      a.run_type = "aggregate";
      a.aggregate_name = name;
      a.extra["aggregate_of_single_repetition"] = true;
      a.repetition_index.reset();
      a.extra.erase("repetition_index");
      extra.push_back(std::move(a));
    }
  }
  entries.insert(entries.end(), extra.begin(), extra.end());
}

// The specs of one target: labels.target stamped where absent, names prefixed with the target's prefix
// ("opencl:0.0/bandwidth/read/..."), so two targets' benchmarks never share a name.
std::vector<BenchmarkSpec> stamp_target(const std::vector<BenchmarkSpec>& specs, const std::string& target,
                                        const std::string& prefix) {
  std::vector<BenchmarkSpec> out = specs;
  for (BenchmarkSpec& s : out) {
    if (!target.empty()) {
      if (!s.labels.is_object()) s.labels = json::object();
      if (!s.labels.contains("target")) s.labels["target"] = target;
    }
    if (!prefix.empty() && s.name.rfind(prefix, 0) != 0) s.name = prefix + s.name;
  }
  return out;
}

// Keeps each run's seconds per iteration, by the position of its registration (family_index): the calibration
// pass's reporter.
class CalibrationReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      if (r.run_type != Run::RT_Iteration || r.error_occurred || r.iterations <= 0) continue;
      seconds_[r.family_index] = r.real_accumulated_time / static_cast<double>(r.iterations);
    }
  }
  [[nodiscard]] const std::map<std::int64_t, double>& seconds() const { return seconds_; }

 private:
  std::map<std::int64_t, double> seconds_;
};

// A calibrated spec's entries: "/iterations:N" (N from this run's calibration) back to "/min_time:T" in name and
// run_name, Google Benchmark's name for a repetition of at least T seconds, so that names match across runs.
void keep_min_time_name(BenchmarkEntry& e, const std::vector<BenchmarkSpec>& specs) {
  if (!e.family_index || *e.family_index < 0) return;
  const auto index = static_cast<std::size_t>(*e.family_index);
  if (index >= specs.size() || !specs[index].calibrated) return;
  const std::string from = fmt::format("/iterations:{}/", specs[index].iterations);
  const std::string to = fmt::format("/min_time:{:.3f}/", specs[index].min_time_s);
  for (std::optional<std::string>* text : {&e.name, &e.run_name}) {
    if (!*text) continue;
    if (const std::size_t at = (*text)->find(from); at != std::string::npos) (*text)->replace(at, from.size(), to);
  }
}

}  // namespace

void Runner::calibrate(std::vector<BenchmarkSpec>& specs) {
  const auto fix = [](BenchmarkSpec& spec, double call_s) {
    spec.iterations = static_cast<std::int64_t>(std::max(1.0, std::ceil(spec.min_time_s / call_s)));
    spec.calibrated = true;
  };
  std::vector<std::size_t> asked;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    BenchmarkSpec& spec = specs[i];
    if (!spec.calibrate || spec.iterations > 0 || !(spec.min_time_s > 0.0)) continue;
    if (spec.calibration_call_s > 0.0) fix(spec, spec.calibration_call_s);
    else asked.push_back(i);
  }
  if (asked.empty()) return;
  benchmark::ClearRegisteredBenchmarks();
  for (const std::size_t i : asked) {
    const BenchmarkSpec& spec = specs[i];
    auto* b = benchmark::RegisterBenchmark((spec.name + "/calibration").c_str(),
                                           [&spec](benchmark::State& state) { spec.body(state); });
    if (spec.manual_time) b->UseManualTime();
    else b->UseRealTime();
    b->Iterations(1)->Repetitions(1);
  }
  CalibrationReporter reporter;
  {
    // The calibration calls, Google Benchmark's handling of them included; a body's own set-up and validation
    // count as theirs (phase_clock.hpp: the innermost phase).
    const PhaseClock::Scope calibrating = PhaseClock::open(&phases_, Phase::calibration);
    benchmark::RunSpecifiedBenchmarks(&reporter);
  }
  benchmark::ClearRegisteredBenchmarks();
  for (std::size_t k = 0; k < asked.size(); ++k) {
    BenchmarkSpec& spec = specs[asked[k]];
    const auto it = reporter.seconds().find(static_cast<std::int64_t>(k));
    // A failed or unmeasurable call: Google Benchmark's own search (the body fails loudly again if it is wrong).
    if (it != reporter.seconds().end() && it->second > 0.0) fix(spec, it->second);
  }
}

std::vector<json> Runner::entries() const {
  std::vector<json> out;
  out.reserve(entries_.size());
  for (const BenchmarkEntry& e : entries_) out.push_back(to_json(e));
  return out;
}

double Runner::round_trip_now(int threads) {
  const auto now = std::chrono::steady_clock::now();
  if (last_round_trip_.threads == threads && now - last_round_trip_.at < std::chrono::milliseconds(100)) {
    return last_round_trip_.ns;
  }
  const PhaseClock::Scope probing = PhaseClock::open(&phases_, Phase::probes);
  const double ns = measure_thread_round_trip_ns(threads);
  last_round_trip_ = {threads, ns, std::chrono::steady_clock::now()};
  return ns;
}

namespace {

// The most threads a spec of the batch runs (labels.threads), 0 when none says.
int batch_threads(const std::vector<BenchmarkSpec>& specs) {
  int threads = 0;
  for (const BenchmarkSpec& s : specs) {
    if (s.labels.is_object() && s.labels.contains("threads") && s.labels["threads"].is_number_integer()) {
      threads = std::max(threads, s.labels["threads"].get<int>());
    }
  }
  return threads;
}

}  // namespace

std::vector<json> Runner::run(const std::vector<BenchmarkSpec>& specs) {
  const std::size_t first = entries_.size();
  // Where the host put the threads, around the batch (the CPU's only: a device's threads are not ours to place).
  const int threads = target_.empty() || target_ == kCpuTargetId ? batch_threads(specs) : 0;
  const double before = threads >= 2 ? round_trip_now(threads) : 0.0;
  std::vector<BenchmarkSpec> together;
  for (const BenchmarkSpec& spec : specs) {
    if (spec.bracket) run_bracketed(spec);
    else together.push_back(spec);
  }
  run_together(together);
  if (threads >= 2) {
    last_round_trip_ = {};  // a new probe after the batch, not the one from before it
    const double after = round_trip_now(threads);
    const double ns = before > 0.0 && after > 0.0 ? (before + after) / 2.0 : std::max(before, after);
    if (ns > 0.0) {
      for (std::size_t i = first; i < entries_.size(); ++i) {
        const BenchmarkEntry& e = entries_[i];
        if (e.labels && e.labels->threads.value_or(0) >= 2) set_field(entries_[i], "thread_round_trip_ns", ns);
      }
    }
  }
  std::vector<json> out;
  for (std::size_t i = first; i < entries_.size(); ++i) out.push_back(to_json(entries_[i]));
  return out;
}

void Runner::run_bracketed(const BenchmarkSpec& spec_in) {
  BenchmarkSpec spec = spec_in;
  const SpecBracket bracket = *spec.bracket;
  spec.bracket.reset();
  json measured = json::object();
  try {
    const PhaseClock::Scope probing = PhaseClock::open(&phases_, Phase::probes);
    measured["before"] = bracket.measure();
  } catch (const std::exception& ex) {
    // The spec is not run without the measurement it must be read against: it fails, loudly.
    const std::string message = fmt::format("{} before the benchmark: {}", bracket.key, ex.what());
    spec.body = [message](benchmark::State& state) { state.SkipWithError(message.c_str()); };
    spec.repetitions = 1;
    run_together({spec});
    return;
  }
  const std::size_t first = entries_.size();
  run_together({spec});
  try {
    const PhaseClock::Scope probing = PhaseClock::open(&phases_, Phase::probes);
    measured["after"] = bracket.measure();
  } catch (const std::exception& ex) {
    failures_.push_back(fmt::format("{}: {} after the benchmark: {}", name_prefix_ + spec.name, bracket.key, ex.what()));
    measured["after"] = nullptr;
    measured["error"] = ex.what();
  }
  for (std::size_t i = first; i < entries_.size(); ++i) set_field(entries_[i], bracket.key, measured);
}

void Runner::run_together(const std::vector<BenchmarkSpec>& specs_in) {
  if (specs_in.empty()) return;
  initialize_google_benchmark();
  benchmark::ClearRegisteredBenchmarks();

  std::vector<BenchmarkSpec> stamped = stamp_target(specs_in, target_, name_prefix_);
  calibrate(stamped);
  const std::vector<BenchmarkSpec>& specs = stamped;
  for (const BenchmarkSpec& spec : specs) {
    const std::string text = label_text(spec.labels);
    PhaseClock* clock = &phases_;
    auto* b = benchmark::RegisterBenchmark(spec.name.c_str(), [&spec, text, clock](benchmark::State& state) {
      // The body's wall, its timed loop included (measure() takes the timed seconds out of it).
      const PhaseClock::Scope in_body = PhaseClock::open(clock, Phase::body);
      spec.body(state);
      state.SetLabel(text);
    });
    if (spec.manual_time) {
      b->UseManualTime();
    } else {
      b->UseRealTime();
    }
    if (spec.iterations > 0) b->Iterations(spec.iterations);
    else b->MinTime(spec.min_time_s);
    b->Repetitions(std::max(1, spec.repetitions));
    b->ComputeStatistics("max", &max_of)->ComputeStatistics("min", &min_of);
    if (spec.configure) spec.configure(b);
  }

  EntryReporter reporter(progress_, specs.size());
  {
    // Google Benchmark's own work around the bodies (its runs, statistics, our reporter and progress line).
    const PhaseClock::Scope harness = PhaseClock::open(&phases_, Phase::harness);
    benchmark::RunSpecifiedBenchmarks(&reporter);
  }
  benchmark::ClearRegisteredBenchmarks();

  if (context_.is_null() && reporter.context().is_object()) {
    context_ = reporter.context();
    context_["random_interleaving"] = kRandomInterleaving;
  } else if (context_.is_null()) {
    failures_.push_back(reporter.context_error());
  }

  const std::size_t first = entries_.size();
  for (BenchmarkEntry& e : reporter.entries()) {
    keep_min_time_name(e, specs);
    // family_index is the position of the registration in this batch, which is the spec's position.
    if (e.family_index && *e.family_index >= 0 && static_cast<std::size_t>(*e.family_index) < specs.size()) {
      set_field(e, "labels", specs[static_cast<std::size_t>(*e.family_index)].labels);
    }
    if (e.error_occurred.value_or(false) && e.run_type.value_or("") == "iteration") {
      const std::string failure =
          fmt::format("{}: {}", e.run_name.value_or(e.name.value_or("")), e.error_message.value_or("failed"));
      if (std::find(failures_.begin(), failures_.end(), failure) == failures_.end()) failures_.push_back(failure);
    }
    entries_.push_back(std::move(e));
  }
  add_single_repetition_aggregates(entries_, first);
}

}  // namespace roofline
