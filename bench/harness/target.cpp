// The target seam's harness side: facts to and from JSON, device work as manual-time benchmarks, the provider
// registry and --target resolution. See target.hpp.
#include "roofline/harness/target.hpp"

#include <algorithm>
#include <exception>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "roofline/common/errors.hpp"

namespace roofline {
using nlohmann::json;

// nlohmann-json writes the fields under their own names (the macro is the library's, so the list of fields is
// written once); reading back goes through target_facts_from_json, whose errors name the field.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TargetMemoryLevel, name, capacity_bytes, shared)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TargetFacts, target, kind, name, vendor, api, driver, compute_units, clock_hz,
                                   memory_total_bytes, memory_available_bytes, memory_levels, peak_model,
                                   ops_per_unit_per_clock, details, notes)

json to_json(const TargetFacts& f) { return json(f); }

namespace {

// The field `key` of `j` as T, or InputError naming it ("context.targets: 'clock_hz' is not a number").
template <typename T>
T field(const json& j, const char* key, const char* type_name, bool (json::*is_type)() const noexcept) {
  if (!j.contains(key) || !(j[key].*is_type)()) {
    throw InputError(fmt::format("context.targets: '{}' is missing or not {}", key, type_name));
  }
  return j[key].get<T>();
}

std::string text(const json& j, const char* key) { return field<std::string>(j, key, "a string", &json::is_string); }
double number(const json& j, const char* key) { return field<double>(j, key, "a number", &json::is_number); }
std::uint64_t count(const json& j, const char* key) {
  const double v = number(j, key);
  if (v < 0) throw InputError(fmt::format("context.targets: '{}' is negative", key));
  return static_cast<std::uint64_t>(v);
}

}  // namespace

TargetFacts target_facts_from_json(const json& j) {
  if (!j.is_object()) throw InputError("context.targets: an entry is not an object");
  TargetFacts f;
  f.target = text(j, "target");
  f.kind = text(j, "kind");
  f.name = text(j, "name");
  f.vendor = j.contains("vendor") ? text(j, "vendor") : "";
  f.api = text(j, "api");
  f.driver = j.contains("driver") ? text(j, "driver") : "";
  f.compute_units = static_cast<int>(count(j, "compute_units"));
  f.clock_hz = number(j, "clock_hz");
  f.memory_total_bytes = count(j, "memory_total_bytes");
  f.memory_available_bytes = j.contains("memory_available_bytes") ? count(j, "memory_available_bytes") : 0;
  for (const json& l : field<json>(j, "memory_levels", "an array", &json::is_array)) {
    if (!l.is_object()) throw InputError("context.targets: a memory level is not an object");
    f.memory_levels.push_back({text(l, "name"), count(l, "capacity_bytes"),
                               l.contains("shared") ? field<bool>(l, "shared", "a flag", &json::is_boolean) : true});
  }
  f.peak_model = j.contains("peak_model") ? text(j, "peak_model") : "";
  if (j.contains("ops_per_unit_per_clock")) {
    f.ops_per_unit_per_clock = field<json>(j, "ops_per_unit_per_clock", "an object", &json::is_object);
  }
  if (j.contains("details")) f.details = field<json>(j, "details", "an object", &json::is_object);
  if (j.contains("notes")) {
    for (const json& n : field<json>(j, "notes", "an array", &json::is_array)) {
      if (!n.is_string()) throw InputError("context.targets: a note is not a string");
      f.notes.push_back(n.get<std::string>());
    }
  }
  return f;
}

BenchmarkSpec device_benchmark(const DeviceWork& work) {
  BenchmarkSpec spec;
  spec.name = work.name;
  spec.labels = work.labels.is_object() ? work.labels : json::object();
  spec.labels["timing"] = work.device_timed ? "device" : "host";
  spec.min_time_s = work.min_time_s;
  spec.repetitions = work.repetitions;
  spec.manual_time = true;
  auto w = std::make_shared<DeviceWork>(work);
  spec.body = [w](benchmark::State& state) {
    using benchmark::Counter;
    // A device error ends the work but not the loop: Google Benchmark 1.7.1 aborts computing the repetitions'
    // statistics when one repetition stopped after fewer iterations than the others (google/benchmark#1406,
    // fixed upstream in 2026 by PR #2199), so every repetition runs its full count and the error is reported
    // after it, with the counters set.
    std::string device_error;
    for (auto _ : state) {
      double seconds = 1e-9;
      if (device_error.empty()) {
        try {
          seconds = w->run(1);
        } catch (const std::exception& e) {
          device_error = e.what();
        }
      }
      state.SetIterationTime(seconds);
    }
    if (w->bytes > 0) state.counters["bytes_per_second"] = Counter(w->bytes, Counter::kIsIterationInvariantRate);
    if (w->flop > 0) state.counters["flop_per_second"] = Counter(w->flop, Counter::kIsIterationInvariantRate);
    if (w->op > 0) state.counters["op_per_second"] = Counter(w->op, Counter::kIsIterationInvariantRate);
    const double ops = w->flop > 0 ? w->flop : w->op;
    if (ops > 0 && w->bytes > 0) state.counters["arithmetic_intensity"] = Counter(ops / w->bytes);
    if (w->working_set_bytes > 0) state.counters["working_set_bytes"] = Counter(w->working_set_bytes);
    state.counters["seconds"] = Counter(1.0, Counter::kIsIterationInvariantRate | Counter::kInvert);
    if (device_error.empty() && w->clock_hz) {
      // The clock kernel validates itself and throws when wrong; Google Benchmark catches nothing, so the
      // error fails this entry instead of ending the process.
      try {
        if (const double clock = w->clock_hz(); clock > 0) state.counters["clock_hz"] = Counter(clock);
      } catch (const std::exception& e) {
        state.SkipWithError(fmt::format("clock beside the work: {}", e.what()).c_str());
        return;
      }
    }
    if (!device_error.empty()) {
      state.SkipWithError(fmt::format("device error: {}", device_error).c_str());
      return;
    }
    // Validated after timing, like every kernel: a wrong answer fails the entry loudly. A validator's own device
    // call may throw: that fails this entry too (Google Benchmark catches nothing).
    std::string error;
    try {
      error = w->validate ? w->validate() : std::string();
    } catch (const std::exception& e) {
      error = fmt::format("the check itself failed: {}", e.what());
    }
    if (!error.empty()) state.SkipWithError(fmt::format("validation failed: {}", error).c_str());
  };
  return spec;
}

std::vector<TargetProvider>& target_providers() {
  static std::vector<TargetProvider> providers;
  return providers;
}

void register_target_provider(TargetProvider provider) {
  auto& all = target_providers();
  const auto same = [&](const TargetProvider& p) { return p.api == provider.api; };
  all.erase(std::remove_if(all.begin(), all.end(), same), all.end());
  all.push_back(std::move(provider));
}

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "opencl:0" names the first device of platform 0 ("opencl:0.0"), as clpeak's and our listings count them.
bool id_matches(const std::string& requested, const std::string& id) {
  return requested == id || (id.find('.') != std::string::npos && requested + ".0" == id);
}

}  // namespace

std::vector<TargetFacts> select_targets(const std::vector<std::string>& requested,
                                        const std::vector<TargetFacts>& available) {
  std::vector<TargetFacts> chosen;
  const auto add = [&](const TargetFacts& f) {
    const auto same = [&](const TargetFacts& c) { return c.target == f.target; };
    if (std::none_of(chosen.begin(), chosen.end(), same)) chosen.push_back(f);
  };
  for (const std::string& r : requested) {
    if (r == "all") {
      for (const TargetFacts& f : available) add(f);
      continue;
    }
    std::vector<const TargetFacts*> by_id;
    std::vector<const TargetFacts*> by_name;
    for (const TargetFacts& f : available) {
      if (id_matches(r, f.target)) by_id.push_back(&f);
      if (!r.empty() && lower(f.name).find(lower(r)) != std::string::npos) by_name.push_back(&f);
    }
    const std::vector<const TargetFacts*>& hits = by_id.empty() ? by_name : by_id;
    std::vector<std::string> listed;
    for (const TargetFacts& f : available) listed.push_back(fmt::format("{} ({})", f.target, f.name));
    if (hits.empty()) {
      throw InputError(fmt::format("--target '{}': no such target here (targets: {}; `roofline devices` lists them)", r,
                                   fmt::join(listed, ", ")));
    }
    if (hits.size() > 1) {
      throw InputError(fmt::format("--target '{}' matches {} targets (targets: {}): give its id", r, hits.size(),
                                   fmt::join(listed, ", ")));
    }
    add(*hits.front());
  }
  return chosen;
}

}  // namespace roofline
