// The gemm suite (issues 5, 6): C(MxN) = A(MxK) B(KxN) at batches 1..1024 per backend (eigen, onednn,
// openblas), precision and thread count, registered with Google Benchmark. Per group (backend x
// precision x threads) the problem is prepared once (weight packing: outside timing) on operands made once per
// precision and shape (allocation, first-touch fill by the pinned team, the reference's column sums: the plan's
// shares, issue 60), warmed up with one call, then each batch is one benchmark whose body
// selects the batch (setup), times run() in the loop, and validates C after the loop (SkipWithError on a
// wrong product). Rates come from the counting row in roofline/common/gemm_count.hpp only.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cmath>
#include <memory>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "roofline/common/units.hpp"
#include "roofline/cpu/bandwidth_plan.hpp"
#include "roofline/cpu/gemm_plan.hpp"
#include "roofline/harness/profile.hpp"
#include "roofline/facts/pinning.hpp"
#include "roofline/cpu/suite.hpp"
#include "roofline/common/gemm_count.hpp"
#include "roofline/common/gemm_labels.hpp"
#include "roofline/common/roof_probe.hpp"
#include "roof_probe.hpp"

namespace roofline {
using nlohmann::json;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One call of the problem's selected batch, timed.
double timed_call(GemmProblem& problem) {
  const auto start = std::chrono::steady_clock::now();
  problem.run();
  return seconds_since(start);
}

BenchmarkSpec make_spec(const GemmGroup& g, int n, std::shared_ptr<GemmProblem> problem,
                        const std::string& implementation, int repetitions, double min_time_s, PhaseClock* phases) {
  const GemmShape shape{g.m, n, g.k};
  const Precision p = g.precision;
  const OperandBytes e = gemm_operand_bytes(p);
  const double ops = gemm_operations(shape);
  const double bytes = gemm_compulsory_bytes(shape, p);
  const double ai = gemm_arithmetic_intensity(shape, p);
  const std::string rate = is_integer(p) ? "op_per_second" : "flop_per_second";

  BenchmarkSpec spec;
  spec.name = gemm_spec_name(g, n);
  spec.labels = {{"suite", "gemm"},
                 {"kernel", n == 1 ? "gemv" : "gemm"},
                 {"backend", std::string(g.backend->name())},
                 {"precision", std::string(to_string(p))},
                 {"threads", g.threads},
                 {"implementation", implementation}};
  spec.labels.update(gemm_labels_json(shape, e));  // the one writer of the shape and element sizes
  spec.repetitions = repetitions;
  spec.min_time_s = min_time_s;
  auto calls = std::make_shared<int>(0);
  spec.body = [problem, n, ops, bytes, ai, rate, calls, repetitions, phases](benchmark::State& state) {
    try {
      const PhaseClock::Scope setting_up = PhaseClock::open(phases, Phase::setup);
      problem->select_batch(n);  // setup: the primitive for this batch exists already, this only selects it
    } catch (const std::exception& ex) {
      state.SkipWithError(ex.what());
      return;
    }
    for (auto _ : state) problem->run();
    // The last repetition's product is checked (every call overwrites C with the same product, and C is poisoned
    // before the group's first call, so a kernel that writes nothing or a wrong product fails), on the group's team
    // (GemmProblem::validate), not after every repetition (issue 46; the first repetition's check too until issue 60).
    const int call = ++*calls;
    if (call >= repetitions) {
      const PhaseClock::Scope validating = PhaseClock::open(phases, Phase::validation);
      const GemmCheck check = problem->validate();
      if (!check.ok) {
        state.SkipWithError(("wrong product: " + check.message).c_str());
        return;
      }
    }
    using benchmark::Counter;
    state.counters[rate] = Counter(ops, Counter::kIsIterationInvariantRate);
    state.counters["bytes_per_second"] = Counter(bytes, Counter::kIsIterationInvariantRate);
    state.counters["arithmetic_intensity"] = Counter(ai);
    state.counters["latency_seconds"] = Counter(1.0, Counter::kIsIterationInvariantRate | Counter::kInvert);
  };
  return spec;
}

// Batch n of group g, its batch selected: the planned repetitions (fewer for calls the plan expects to be long); the
// min time bounds every one.
BenchmarkSpec batch_spec(const GemmGroup& g, int n, const std::shared_ptr<GemmProblem>& problem, const RunConfig& config,
                         PhaseClock* phases) {
  const GemmProfile& settings = profile_settings(config.profile).gemm;
  problem->select_batch(n);
  const int repetitions = gemm_planned_repetitions(g, n, config);
  BenchmarkSpec spec = make_spec(g, n, problem, problem->implementation(), repetitions, settings.min_time_s, phases);
  if (gemm_warm_up_planned(g, n, config)) {
    // The runner's calibration call, made here (runner.hpp: calibration_call_s).
    const PhaseClock::Scope calibrating = PhaseClock::open(phases, Phase::calibration);
    // Warm-up: first-call effects (page mapping of packed buffers, JIT caches). Its time (or a second call's, when
    // short: the first is cold) sets the iterations of every repetition: ceil(min time / call).
    const double first_s = timed_call(*problem);
    spec.calibrate = true;
    spec.calibration_call_s = first_s < settings.min_time_s / 4 ? std::min(first_s, timed_call(*problem)) : first_s;
  }
  // A call the plan expects to take a whole repetition or longer (gemm_warm_up_planned: the compute-bound batches) gets
  // no warm-up call of its own: its primitive and packing are made up front, a call amortizes what is left, Google
  // Benchmark's first repetition searches its iterations (one call more only where the call is shorter than planned),
  // and a first repetition that is slower is reported as it is (a median of several is not moved by one slower call).
  // Issue 46, then issue 60: about a second of the quick profile's 30.
  return spec;
}

// The operands of a share (gemm_plan.hpp), made by its first group: of its largest batch, filled by its widest team,
// pinned as it runs (on one NUMA node where the share spans thread counts), then the group's own team pinned again.
std::shared_ptr<GemmOperandSet> make_share_operands(const GemmOperandShare& share, const GemmGroup& g,
                                                    const GemmRequest& request, const MachineFacts& machine,
                                                    const RunConfig& config) {
  GemmRequest shared = request;
  shared.max_n = share.max_n;
  shared.threads = share.threads;
  const bool repin = config.bind != BindPolicy::none && shared.threads != g.threads;
  if (repin) pin_openmp_threads(shared.threads, binding_plan(machine, shared.threads, config.bind));
  std::shared_ptr<GemmOperandSet> operands = make_gemm_operands(shared);
  if (repin) pin_openmp_threads(g.threads, binding_plan(machine, g.threads, config.bind));
  return operands;
}

json facts_json(const GemmBackend& b, const IsaFeatures& features) {
  json j = json::object();
  for (const auto& [key, value] : b.library_facts(features)) j[key] = value;
  // Reported as found, never set or overridden here.
  for (const std::string& name : b.environment()) {
    const char* value = std::getenv(name.c_str());
    j[name] = value != nullptr ? value : "(unset)";
  }
  return j;
}

// What the suite's context says of its shapes and method (the groups are added as they run).
void shape_context(const GemmPlan& plan, const RunConfig& config, json& ctx) {
  ctx["m"] = plan.groups.empty() ? plan.m : plan.groups.front().m;
  ctx["k"] = plan.groups.empty() ? plan.k : plan.groups.front().k;
  ctx["shape_source"] = plan.shape_source;
  ctx["shapes"] = json::object();
  ctx["compute_shapes"] = json::object();
  for (const GemmGroup& g : plan.groups) {
    ctx[g.compute_shape ? "compute_shapes" : "shapes"][std::string(to_string(g.precision))] = {g.m, g.k};
  }
  ctx["shape_rule"] = fmt::format(
      "memory-bound batches (batch 1 always) at the DRAM shape, weights {}x the cache the threads use ({}); batches "
      "whose AI at that shape is at least {}x the planning ridge at a compute shape whose largest call takes about {} s "
      "at the planning rate (roofline/cpu/gemm_plan.hpp); --gemm-shape: every batch at that shape",
      kGemmCacheFactor, plan.shape_source, kComputeBoundRidgeFactor, profile_settings(config.profile).gemm.compute_fill_s);
  ctx["layout"] = "A MxK row-major (the weights), B KxN and C MxN column-major; identical bytes for every backend";
  ctx["validation"] = "every column's sum against column sums of A times B, plus direct dot products on sampled "
                      "entries, after the last repetition; small-integer inputs make the products exact (tolerance 0) in "
                      "every precision; groups of one precision and shape share A, B and the column sums, and each group's "
                      "C is poisoned (NaN, or the least int32) before its first call, so no group is checked against "
                      "another's product";
  ctx["timing"] = "one warm-up call per batch before timing, whose time sets each repetition's iterations (not for a "
                  "batch the plan expects to take the min time or longer a call at the planning rate: Google "
                  "Benchmark's first repetition finds its iterations; a call over long_call_s gets fewer repetitions); "
                  "weights packed once per group outside timing";
}

// The probes' array, once, before any operands: the largest probed point's size, first touched by the widest probed
// team (on one NUMA node every thread count reads it: roof_probe.hpp). A point whose probe cannot be had is said where
// its bracket is made.
void reserve_roof_probes(const GemmPlan& plan, const RunConfig& config, RoofProbe& probe, PhaseClock* phases) {
  const PhaseClock::Scope probing = PhaseClock::open(phases, Phase::probes);
  int widest = 0;
  std::uint64_t largest = 0;
  for (const GemmGroup& g : plan.groups) {
    for (const int n : g.batches) {
      if (!gemm_roof_probe_planned(g, n, config.features)) continue;
      widest = std::max(widest, g.threads);
      largest = std::max(largest, static_cast<std::uint64_t>(gemm_compulsory_bytes(GemmShape{g.m, n, g.k}, g.precision)));
    }
  }
  if (widest > 0) probe.reserve(widest, largest);  // first touch: the probes' set-up
}

}  // namespace

void run_gemm_suite(const RunConfig& config, const MachineFacts& machine, Runner& runner, SuiteOutput& out,
                    CpuRunState& state) {
  // The plan's groups and shapes (cpu_plan.hpp: from the plausible caches, never from this run's curve).
  const GemmPlan& plan = state.plan.gemm;
  RoofProbe probe(machine, config);
  std::set<std::string> unprobed;  // groups whose memory-bound points got no probe, and why
  out.notes.insert(out.notes.end(), plan.notes.begin(), plan.notes.end());

  json& ctx = out.context;
  shape_context(plan, config, ctx);
  ctx["backends"] = json::object();
  ctx["groups"] = json::array();

  reserve_roof_probes(plan, config, probe, &runner.phases());

  // Each share's operands (GemmOperandSet) are made by its first group and given back after its last, before the next
  // share's are allocated: the pool of mappings (huge_pages.hpp) hands the same touched memory to the next shape.
  const std::vector<GemmOperandShare> shares = gemm_operand_shares(plan);
  auto share = shares.begin();
  std::shared_ptr<GemmOperandSet> operands;
  for (std::size_t index = 0; index < plan.groups.size(); ++index) {
    const GemmGroup& g = plan.groups[index];
    while (share->last < index) ++share;
    if (index == share->first) operands.reset();
    const std::string backend(g.backend->name());
    if (!ctx["backends"].contains(backend)) {
      ctx["backends"][backend] = facts_json(*g.backend, config.features);
      for (std::string& note : g.backend->notes(config.features)) out.notes.push_back(std::move(note));
    }
    const std::string what = fmt::format("{} {} threads:{}", backend, to_string(g.precision), g.threads);

    if (config.bind != BindPolicy::none) pin_openmp_threads(g.threads, binding_plan(machine, g.threads, config.bind));
    const GemmRequest request = gemm_request(plan, g, config);

    json group = {{"backend", backend}, {"precision", std::string(to_string(g.precision))}, {"threads", g.threads},
                  {"batches", g.batches}, {"m", g.m}, {"k", g.k}, {"compute_shape", g.compute_shape}};
    std::shared_ptr<GemmProblem> problem;
    std::vector<BenchmarkSpec> specs;
    try {
      const PhaseClock::Scope setting_up(&runner.phases(), Phase::setup);  // to the end of the try: the specs too
      const auto start = std::chrono::steady_clock::now();
      const bool make = operands == nullptr;  // else an earlier group of the share made them: 0 s here
      if (make) operands = make_share_operands(*share, g, request, machine, config);
      group["operands_seconds"] = make ? seconds_since(start) : 0.0;
      problem = g.backend->prepare(request, operands);
      group["prepare_seconds"] = seconds_since(start);
      json implementations = json::object();
      for (int n : g.batches) {
        problem->select_batch(n);  // builds the library's primitive (and packs for a new layout) up front
        implementations[std::to_string(n)] = problem->implementation();
      }
      group["pack_seconds"] = problem->pack_seconds();
      group["implementations"] = implementations;
      for (int n : g.batches) {
        specs.push_back(batch_spec(g, n, problem, config, &runner.phases()));
        // The roof of the moment around a point the plan does not make compute-bound: a read probe of its operands'
        // size (roof_probe.hpp). Decided by the plan (gemm_plan.hpp), never by this run's measured peak.
        if (gemm_roof_probe_planned(g, n, config.features)) {
          const auto bytes = static_cast<std::uint64_t>(gemm_compulsory_bytes(GemmShape{g.m, n, g.k}, g.precision));
          if (probe.reserve(g.threads, bytes)) {
            const int threads = g.threads;
            specs.back().bracket = SpecBracket{"roof_now", [&probe, threads, bytes] { return probe.measure(threads, bytes); }};
          } else {
            unprobed.insert(fmt::format("{} batch {}: no memory for a {} read probe beside the operands", what, n,
                                        format_bytes(static_cast<double>(bytes))));
          }
        }
      }
    } catch (const GemmUnsupported& ex) {
      out.notes.push_back(fmt::format("gemm: {} skipped: {}", what, ex.what()));
      group["skipped"] = ex.what();
      ctx["groups"].push_back(group);
      continue;
    } catch (const std::exception& ex) {
      // A library failing where it should work fails the run loudly, through a benchmark marked failed.
      group["failed"] = ex.what();
      BenchmarkSpec failed;
      BenchmarkKey setup = gemm_group_key(g);
      setup.tail = {"setup"};
      failed.name = benchmark_name(setup);
      failed.labels = {{"suite", "gemm"}, {"backend", backend}, {"precision", std::string(to_string(g.precision))},
                       {"threads", g.threads}};
      const std::string message = std::string("setup failed: ") + ex.what();
      failed.repetitions = 1;
      failed.body = [message](benchmark::State& state) { state.SkipWithError(message.c_str()); };
      specs = {failed};
    }
    runner.run(specs);
    ctx["groups"].push_back(group);
  }
  ctx["roof_now"] = {{"kernel", std::string(kRoofKernel)},
                     {"seconds", probe.seconds()},
                     {"method", fmt::format("a read probe of the operands' size (2 MiB pages from 4 MiB up, the point's "
                                            "threads and binding; best of {}-{} samples, at least {} ms) right before "
                                            "and right after the repetitions of every point the plan does not make compute-bound (batch 1 always; "
                                            "other batches when their AI is below {}x the planning ridge, as the plan "
                                            "says: gemm_plan.hpp)",
                                            kProbeMinSamples, kProbeMaxSamples, kProbeMinSeconds * 1e3,
                                            kComputeBoundRidgeFactor)}};
  for (const std::string& why : unprobed) out.notes.push_back("gemm: no roof now for " + why + ".");
}

}  // namespace roofline
