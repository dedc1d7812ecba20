// Runs BenchmarkSpecs through Google Benchmark: see runner.hpp. Google Benchmark's own JSONReporter
// formats every entry (so results stay readable by its tools); we only parse its output back and attach
// each entry's labels.
#include "roofline/harness/runner.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "roofline/harness/progress.hpp"

namespace roofline {
using nlohmann::json;

namespace {

double max_of(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); }
double min_of(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end()); }

// Forwards to Google Benchmark's JSONReporter (writing into a string) and shows progress.
class CollectingReporter : public benchmark::BenchmarkReporter {
 public:
  CollectingReporter(Progress* progress, std::size_t total) : progress_(progress), total_(total) {
    json_.SetOutputStream(&out_);
    json_.SetErrorStream(&err_);
  }
  bool ReportContext(const Context& context) override { return json_.ReportContext(context); }
  void ReportRuns(const std::vector<Run>& runs) override {
    json_.ReportRuns(runs);
    if (progress_ != nullptr && !runs.empty() && runs.front().run_type == Run::RT_Iteration) {
      ++done_;
      progress_->update(fmt::format("{}/{} {}", std::min(done_, total_), total_, runs.front().run_name.function_name));
    }
  }
  void Finalize() override { json_.Finalize(); }
  std::string text() const { return out_.str(); }

 private:
  benchmark::JSONReporter json_;
  std::stringstream out_;
  std::stringstream err_;
  Progress* progress_;
  std::size_t total_;
  std::size_t done_ = 0;
};

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
void add_single_repetition_aggregates(std::vector<json>& entries) {
  std::vector<json> extra;
  for (const json& e : entries) {
    if (e.value("run_type", "") != "iteration" || e.value("repetitions", 1) != 1) continue;
    for (const char* name : {"mean", "median", "max", "min"}) {
      json a = e;
      a["name"] = e.value("run_name", e.value("name", "")) + "_" + name;
      a["run_type"] = "aggregate";
      a["aggregate_name"] = name;
      a["aggregate_of_single_repetition"] = true;
      a.erase("repetition_index");
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
void keep_min_time_name(json& e, const std::vector<BenchmarkSpec>& specs) {
  if (!e.contains("family_index") || !e["family_index"].is_number_unsigned()) return;
  const auto index = e["family_index"].get<std::size_t>();
  if (index >= specs.size() || !specs[index].calibrated) return;
  const std::string from = fmt::format("/iterations:{}/", specs[index].iterations);
  const std::string to = fmt::format("/min_time:{:.3f}/", specs[index].min_time_s);
  for (const char* key : {"name", "run_name"}) {
    if (!e.contains(key) || !e[key].is_string()) continue;
    std::string text = e[key].get<std::string>();
    if (const std::size_t at = text.find(from); at != std::string::npos) text.replace(at, from.size(), to);
    e[key] = text;
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
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  for (std::size_t k = 0; k < asked.size(); ++k) {
    BenchmarkSpec& spec = specs[asked[k]];
    const auto it = reporter.seconds().find(static_cast<std::int64_t>(k));
    // A failed or unmeasurable call: Google Benchmark's own search (the body fails loudly again if it is wrong).
    if (it != reporter.seconds().end() && it->second > 0.0) fix(spec, it->second);
  }
}

std::string nan_as_null(const std::string& text) {
  // Google Benchmark writes a non-finite double as a bare NaN or Infinity, which JSON has not: the cv
  // aggregate of a counter whose mean is 0 (e.g. huge_page_bytes of arrays on 4 KiB pages) is 0/0. Each is
  // a whole value after ": ", never inside a string (names and labels are quoted).
  static const std::regex bare(R"(: (-?NaN|-?Infinity)(?=[,\n\r}]))");
  return std::regex_replace(text, bare, ": null");
}

std::vector<json> Runner::run(const std::vector<BenchmarkSpec>& specs) {
  std::vector<json> out;
  std::vector<BenchmarkSpec> together;
  for (const BenchmarkSpec& spec : specs) {
    if (!spec.bracket) {
      together.push_back(spec);
      continue;
    }
    std::vector<json> entries = run_bracketed(spec);
    out.insert(out.end(), std::make_move_iterator(entries.begin()), std::make_move_iterator(entries.end()));
  }
  std::vector<json> rest = run_together(together);
  out.insert(out.end(), std::make_move_iterator(rest.begin()), std::make_move_iterator(rest.end()));
  return out;
}

std::vector<json> Runner::run_bracketed(const BenchmarkSpec& spec_in) {
  BenchmarkSpec spec = spec_in;
  const SpecBracket bracket = *spec.bracket;
  spec.bracket.reset();
  json measured = json::object();
  try {
    measured["before"] = bracket.measure();
  } catch (const std::exception& ex) {
    // The spec is not run without the measurement it must be read against: it fails, loudly.
    const std::string message = fmt::format("{} before the benchmark: {}", bracket.key, ex.what());
    spec.body = [message](benchmark::State& state) { state.SkipWithError(message.c_str()); };
    spec.repetitions = 1;
    return run_together({spec});
  }
  const std::size_t first = entries_.size();
  std::vector<json> out = run_together({spec});
  try {
    measured["after"] = bracket.measure();
  } catch (const std::exception& ex) {
    failures_.push_back(fmt::format("{}: {} after the benchmark: {}", name_prefix_ + spec.name, bracket.key, ex.what()));
    measured["after"] = nullptr;
    measured["error"] = ex.what();
  }
  for (json& e : out) e[bracket.key] = measured;
  for (std::size_t i = first; i < entries_.size(); ++i) entries_[i][bracket.key] = measured;
  return out;
}

std::vector<json> Runner::run_together(const std::vector<BenchmarkSpec>& specs_in) {
  if (specs_in.empty()) return {};
  initialize_google_benchmark();
  benchmark::ClearRegisteredBenchmarks();

  std::map<std::string, const BenchmarkSpec*> by_run_name;
  std::vector<BenchmarkSpec> stamped = stamp_target(specs_in, target_, name_prefix_);
  calibrate(stamped);
  const std::vector<BenchmarkSpec>& specs = stamped;
  for (const BenchmarkSpec& spec : specs) {
    const std::string text = label_text(spec.labels);
    auto* b = benchmark::RegisterBenchmark(spec.name.c_str(), [&spec, text](benchmark::State& state) {
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
    by_run_name[spec.name + (spec.manual_time ? "/manual_time" : "/real_time")] = &spec;
    by_run_name[spec.name] = &spec;
  }

  CollectingReporter reporter(progress_, specs.size());
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();

  json doc;
  try {
    doc = json::parse(nan_as_null(reporter.text()));
  } catch (const json::exception& e) {
    failures_.push_back(fmt::format("internal: Google Benchmark's JSON could not be parsed: {}", e.what()));
    return {};
  }
  if (context_.is_null()) {
    context_ = doc.value("context", json::object());
    context_["random_interleaving"] = kRandomInterleaving;
  }

  std::vector<json> out;
  for (json& e : doc["benchmarks"]) {
    keep_min_time_name(e, specs);
    const std::string run_name = e.value("run_name", e.value("name", ""));
    const auto it = by_run_name.find(run_name);
    if (it != by_run_name.end()) {
      e["labels"] = it->second->labels;
    } else if (e.contains("family_index") && e["family_index"].is_number_unsigned() &&
               e["family_index"].get<std::size_t>() < specs.size()) {
      // Google Benchmark appends "/min_time:.../repeats:N" to run names; family_index is the position of
      // the registration in this batch, which is the spec's position.
      e["labels"] = specs[e["family_index"].get<std::size_t>()].labels;
    }
    if (e.value("error_occurred", false) && e.value("run_type", "") == "iteration") {
      const std::string failure = fmt::format("{}: {}", run_name, e.value("error_message", "failed"));
      if (std::find(failures_.begin(), failures_.end(), failure) == failures_.end()) failures_.push_back(failure);
    }
    out.push_back(std::move(e));
  }
  add_single_repetition_aggregates(out);
  entries_.insert(entries_.end(), out.begin(), out.end());
  return out;
}

}  // namespace roofline
