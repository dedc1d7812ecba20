// The compute suite: the measured core clock and the FMA / dot-product peak of every precision and vector
// width this CPU (under the --max-isa cap) supports, on each thread count. Variants the CPU lacks are
// listed in context.suites.compute.not_supported so reports say "not supported" rather than zero.
// Each call of a kernel runs a fixed instruction count (~8M per thread, about a millisecond), so the
// OpenMP fork/join per call is well under 1% of it; Google Benchmark repeats calls for min_time.
// Rates are those of the fastest call of each repetition (each call timed on its own with a steady
// clock): a ceiling is what the core can do, and on a shared or virtual machine most repetitions include
// a call that was preempted. The clock is measured the same way, so rates and clock stay comparable;
// the *_average counters keep the plain mean over all calls of the repetition. The dequant-dot rows
// (quantized weights' dot-product kernels) run last, from suite_dequant_dot.cpp.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <cstdint>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "roofline/cpu/cpu_plan.hpp"
#include "roofline/facts/pinning.hpp"
#include "roofline/harness/profile.hpp"
#include "roofline/cpu/suite.hpp"
#include "roofline/kernels/cpu/peak.hpp"

namespace roofline {
using nlohmann::json;

namespace {
constexpr double kInstructionsPerCall = 8.0e6;     // per thread
constexpr std::int64_t kClockTripsPerCall = 50000;  // x 64 adds = 3.2M cycles
// The clock measured beside each kernel call: 160k cycles (about 45 us at 3.5 GHz, 0.1% of it the timer's resolution),
// a twentieth of a call (320k cost 5% of the compute suite's wall: issue 60).
constexpr std::int64_t kClockTripsBeside = 2500;

// Times each call of a repetition: the fastest and the mean.
class CallTimer {
 public:
  void start() { t0_ = std::chrono::steady_clock::now(); }
  void stop() {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    best_ = std::min(best_, s);
    total_ += s;
    ++calls_;
  }
  [[nodiscard]] double best() const { return best_; }
  [[nodiscard]] double average() const { return calls_ > 0 ? total_ / calls_ : 0.0; }

 private:
  std::chrono::steady_clock::time_point t0_;
  double best_ = std::numeric_limits<double>::infinity();
  double total_ = 0.0;
  long calls_ = 0;
};

struct Plan {
  double min_time_s;
  int repetitions;
};

Plan plan_for(const RunConfig& config) {
  const ProfileSettings& s = profile_settings(config.profile);
  return Plan{s.compute.min_time_s, s.compute.repetitions};
}

std::int64_t iterations_per_call(const PeakVariant& v) {
  const auto n = static_cast<std::int64_t>(kInstructionsPerCall / v.instructions_per_iteration);
  return std::clamp<std::int64_t>(n, 1, max_peak_iterations(v));
}

json variant_json(const PeakVariant& v) {
  return {{"variant", std::string(v.name)},
          {"kernel", std::string(v.kernel())},
          {"precision", std::string(to_string(v.precision))},
          {"isa", std::string(to_string(v.isa))},
          {"vector_bits", v.vector_bits},
          {"instruction", std::string(v.instruction)},
          {"chains", v.chains},
          {"instructions_per_iteration", v.instructions_per_iteration},
          {"ops_per_instruction", v.ops_per_instruction},
          {"ops_per_cycle_per_core", v.ops_per_cycle_per_core},
          {"engine", std::string(to_string(v.engine()))},
          {"unit", std::string(v.unit())}};
}

// Why a row does not run: the build, the --max-isa cap, the AMX gates (machine.amx) or the CPU.
std::string not_supported_reason(const PeakVariant& v, const RunConfig& config, const MachineFacts& machine) {
  if (auto gap = peak_build_gap(v)) return *gap;
  // machine.isa is the detected set before the cap: runnable there means only the cap stops it.
  if (peak_runnable(v, machine.isa)) return fmt::format("above --max-isa {}", to_string(config.max_isa));
  if (v.isa == Isa::amx && !machine.amx.usable()) {
    return fmt::format("AMX {} ({})", to_string(machine.amx.status), machine.amx.source);
  }
  return "CPU lacks the feature";
}

// A core kind's row (`kind`, a hybrid CPU's): its own suite ("clock_kind", "compute_kind": the analysis derives each
// kind's ceilings from its rows alone), the kind in its labels and as its name's last segment.
void mark_core_kind(BenchmarkSpec& spec, const CoreKind* kind) {
  if (kind == nullptr) return;
  spec.labels["suite"] = spec.labels.value("suite", "") + "_kind";
  spec.labels["core_kind"] = kind->name;
}

BenchmarkSpec clock_spec(int threads, const std::vector<int>& pus, const Plan& plan, PhaseClock* phases,
                         const CoreKind* kind = nullptr) {
  BenchmarkSpec spec;
  spec.name = clock_spec_name(threads, kind);
  spec.labels = {{"suite", "clock"}, {"kernel", "clock"}, {"threads", threads}};
  mark_core_kind(spec, kind);
  spec.repetitions = plan.repetitions;
  spec.min_time_s = plan.min_time_s;
  spec.calibrate = true;  // each repetition's window from the call's own rate (runner.hpp)
  spec.body = [threads, pus, phases](benchmark::State& state) {
    std::vector<std::int64_t> out(static_cast<std::size_t>(threads));
    {
      const PhaseClock::Scope setting_up = PhaseClock::open(phases, Phase::setup);
      pin_openmp_threads(threads, pus);
      run_clock(threads, kClockTripsPerCall, 1, out.data());  // warm-up: wakes the team, settles the clock
    }
    CallTimer timer;
    for (auto _ : state) {
      timer.start();
      run_clock(threads, kClockTripsPerCall, 1, out.data());
      timer.stop();
      benchmark::DoNotOptimize(out.data());
    }
    // Cycles of one thread per second: each thread's chain takes 64 cycles per trip.
    const double cycles = static_cast<double>(kClockTripsPerCall) * kClockAddsPerIteration;
    state.counters["clock_hz"] = cycles / timer.best();
    state.counters["clock_hz_average"] = cycles / timer.average();
    const PhaseClock::Scope validating = PhaseClock::open(phases, Phase::validation);
    if (auto err = validate_clock(threads, kClockTripsPerCall, 1, out.data())) state.SkipWithError(err->c_str());
  };
  return spec;
}

BenchmarkSpec peak_spec(const PeakVariant& v, int threads, const std::vector<int>& pus, const Plan& plan,
                        PhaseClock* phases, const CoreKind* kind = nullptr) {
  BenchmarkSpec spec;
  spec.name = peak_spec_name(v, threads, kind);
  spec.labels = variant_json(v);
  spec.labels["suite"] = "compute";
  spec.labels["threads"] = threads;
  mark_core_kind(spec, kind);
  spec.repetitions = plan.repetitions;
  spec.min_time_s = plan.min_time_s;
  spec.calibrate = true;  // each repetition's window from the call's own rate (runner.hpp)
  spec.body = [&v, threads, pus, phases](benchmark::State& state) {
    const PeakInputs in = default_peak_inputs(v);
    const std::int64_t n = iterations_per_call(v);
    std::vector<double> out(static_cast<std::size_t>(threads) * v.accumulators());
    {
      const PhaseClock::Scope setting_up = PhaseClock::open(phases, Phase::setup);
      pin_openmp_threads(threads, pus);
      run_peak(v, threads, n, in, out.data());  // warm-up: wakes the team and the wide vector units
    }
    CallTimer timer;
    CallTimer clock_timer;
    std::vector<std::int64_t> clock_out(static_cast<std::size_t>(threads));
    for (auto _ : state) {
      timer.start();
      run_peak(v, threads, n, in, out.data());
      timer.stop();
      benchmark::DoNotOptimize(out.data());
      // The clock beside every call (untimed by Google Benchmark): turbo frequency drifts with the host's
      // load, so the clock benchmark alone, minutes apart, can be several percent off for this kernel.
      state.PauseTiming();
      clock_timer.start();
      run_clock(threads, kClockTripsBeside, 1, clock_out.data());
      clock_timer.stop();
      state.ResumeTiming();
    }
    const double beside_hz = static_cast<double>(kClockTripsBeside) * kClockAddsPerIteration / clock_timer.best();
    state.counters["clock_hz"] = beside_hz;
    const double ops_per_call = v.ops_per_iteration() * static_cast<double>(n) * threads;
    const std::string counter = is_integer(v.precision) ? "op_per_second" : "flop_per_second";
    state.counters[counter] = ops_per_call / timer.best();
    state.counters[counter + "_average"] = ops_per_call / timer.average();
    // Instructions one core retires per cycle of the clock measured beside the calls.
    state.counters["instructions_per_cycle"] =
        v.instructions_per_iteration * static_cast<double>(n) / timer.best() / beside_hz;
    const PhaseClock::Scope validating = PhaseClock::open(phases, Phase::validation);
    if (auto err = validate_peak(v, n, in, threads, out.data())) state.SkipWithError(err->c_str());
    if (auto err = validate_clock(threads, kClockTripsBeside, 1, clock_out.data())) state.SkipWithError(err->c_str());
  };
  return spec;
}

}  // namespace

void run_compute_suite(const RunConfig& config, const MachineFacts& machine, Runner& runner, SuiteOutput& out,
                       CpuRunState& state) {
  // The plan's rows (cpu_plan.hpp: plan_compute), fixed before the first measurement; no list of the suite's own.
  const ComputePlan& compute = state.plan.compute;
  const PeakSelection& selection = compute.peak;
  const Plan plan = plan_for(config);

  json variants = json::array();
  for (const PeakVariant* v : selection.runnable) variants.push_back(variant_json(*v));
  json not_supported = json::array();
  for (const PeakVariant* v : selection.not_supported) {
    json row = variant_json(*v);
    row["reason"] = not_supported_reason(*v, config, machine);
    not_supported.push_back(row);
  }
  out.context["variants"] = variants;
  out.context["not_supported"] = not_supported;
  out.context["clock_method"] =
      "dependent chain of 64 register-register integer adds per loop trip, assumed 1 cycle each";
  out.context["counting"] =
      "FMA = 2 FLOP per lane; mul or add = 1 FLOP per lane; vdpbf16ps = 2 multiply-adds per 32-bit lane = "
      "4 FLOP/lane; vpdpbusd = 4 multiply-adds per 32-bit lane = 8 OP/lane; one AMX tdpbf16ps/tdpfp16ps on full "
      "tiles = 16x16x32 multiply-adds = 16384 FLOP, one tdpbssd/tdpbusd = 16x16x64 = 32768 OP";
  out.context["amx"] = to_json(machine.amx);
  out.context["instructions_per_call"] = kInstructionsPerCall;
  if (!not_supported.empty()) {
    out.notes.push_back(fmt::format("compute: {} precision x ISA x width rows not supported on this CPU or above "
                                    "--max-isa {}",
                                    not_supported.size(), to_string(config.max_isa)));
  }

  // Every kernel at every thread count, as planned (cpu_plan.hpp): nothing is cut at run time.
  for (const int threads : compute.threads) {
    const std::vector<int> pus = binding_plan(machine, threads, config.bind);
    runner.run({clock_spec(threads, pus, plan, &runner.phases())});
    std::vector<BenchmarkSpec> specs;
    for (const PeakVariant* v : selection.runnable) specs.push_back(peak_spec(*v, threads, pus, plan, &runner.phases()));
    runner.run(specs);
  }
  // A hybrid CPU: the clock and every row again, one thread bound to a PU of each core kind (whatever --bind says:
  // a kind's figure is the figure of a core of that kind).
  for (const CoreKind& k : compute.kinds) {
    const std::vector<int> pus = {core_kind_pu(machine, k)};
    runner.run({clock_spec(1, pus, plan, &runner.phases(), &k)});
    std::vector<BenchmarkSpec> specs;
    for (const PeakVariant* v : selection.runnable) specs.push_back(peak_spec(*v, 1, pus, plan, &runner.phases(), &k));
    runner.run(specs);
  }
  if (!compute.kinds.empty()) {
    json kinds = json::array();
    for (const CoreKind& k : compute.kinds) kinds.push_back({{"core_kind", k.name}, {"pu", core_kind_pu(machine, k)}});
    out.context["core_kinds"] = kinds;
  }
  run_dequant_dot_rows(compute, config, machine, runner, out);
}

}  // namespace roofline
