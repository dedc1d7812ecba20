// The CPU's plan: see cpu_plan.hpp. The estimates use planning rates (a guess per precision and per memory level,
// deliberately low) and never feed a measured figure; a run that takes longer than its estimate says so.
#include "roofline/cpu/cpu_plan.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "roofline/harness/benchmark_name.hpp"
#include "roofline/harness/plausible_caches.hpp"
#include "roofline/harness/profile.hpp"
#include "roofline/common/gemm_count.hpp"
#include "roofline/common/units.hpp"
#include "roofline/kernels/cpu/peak.hpp"
#include "roofline/kernels/cpu/quant_dot.hpp"
#include "bandwidth_specs.hpp"
#include "roof_probe.hpp"

namespace roofline {
namespace {

constexpr double kKiB = 1024.0;
constexpr double kMiB = 1024.0 * 1024.0;

// The cost of one calibrated repetition (runner.hpp: ceil(min time / call) calls) of at least `min_time_s` whose call
// takes `call_s`: one call when it is longer, else the window plus half a call of rounding up on average.
double repetition_seconds(double call_s, double min_time_s) {
  return call_s >= min_time_s ? call_s : min_time_s + call_s / 2.0;
}

// One spot size inside each plausible level (between the level before it and its own size) and one in DRAM (the
// middle of the sweep's last octave but one, 4x-8x the largest cache, or of `reach_bytes` where the last level's
// size is unknown); without plausible levels, typical ones.
std::vector<std::uint64_t> spot_sizes(const BandwidthThreadPlan& t, std::uint64_t reach_bytes) {
  const std::vector<std::uint64_t>& sizes = t.sweep.sizes;
  std::vector<std::pair<double, double>> ranges;
  double previous = static_cast<double>(kSweepStartBytes);
  for (const ReportedLevel& l : t.levels) {
    if (l.bytes > previous) ranges.emplace_back(previous, l.bytes);
    previous = std::max(previous, l.bytes);
  }
  if (t.levels.empty()) {
    ranges = {{4.0 * kKiB, 32.0 * kKiB}, {32.0 * kKiB, 1.0 * kMiB}, {1.0 * kMiB, 32.0 * kMiB}};
    previous = static_cast<double>(kSweepDefaultEndBytes) / kSweepEndCacheFactor;
  }
  previous = std::max(previous, static_cast<double>(reach_bytes));
  ranges.emplace_back(4.0 * previous, 8.0 * previous);
  std::vector<std::uint64_t> out;
  for (const auto& [lo, hi] : ranges) {
    const std::uint64_t s = middle_size(sizes, lo, hi);
    if (s > 0 && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  return out;
}

// A call's planned time: its operations at `rate_factor` x the planning rate, or its operands from DRAM at the
// planning DRAM rate. Repetitions are chosen at the planning rate itself (1), the estimate at what the libraries
// reach (kGemmExpectedOverPlanningRate).
double gemm_call_estimate(const GemmGroup& g, int n, const IsaFeatures& isa, double rate_factor = 1.0) {
  const GemmShape shape{g.m, n, g.k};
  return std::max(gemm_operations(shape) / (rate_factor * planning_ops_per_thread(g.precision, isa) * g.threads),
                  gemm_compulsory_bytes(shape, g.precision) / kPlanningDramBytesPerSecond);
}

std::vector<PlanEntry> to_entries(const std::vector<BenchmarkSpec>& specs, const std::string& suite) {
  std::vector<PlanEntry> out;
  for (const BenchmarkSpec& s : specs) {
    out.push_back({"cpu", suite, s.name, s.labels.value("threads", 0), s.repetitions, s.estimate_s});
  }
  return out;
}

SuitePlan bandwidth_suite(const BandwidthPlan& plan, const RunConfig& config, const MachineFacts& machine) {
  SuitePlan s{"cpu", "bandwidth", suite_budget_seconds(config.profile, false, "bandwidth"), {}, plan.notes};
  StreamArena stand_in(machine, config.bind);  // names only: nothing is allocated until a spec runs
  for (const BandwidthThreadPlan& t : plan.per_threads) {
    const ThreadSpecs specs = bandwidth_thread_specs(plan, t, config, stand_in, 0.0);
    for (const std::vector<BenchmarkSpec>& batch : specs.batches) {
      for (PlanEntry& e : to_entries(batch, "bandwidth")) s.entries.push_back(std::move(e));
    }
  }
  for (const CoreKind& k : plan.kinds) {  // a hybrid CPU's: `read` at 1 thread on a PU of each kind
    const ThreadSpecs specs = bandwidth_kind_specs(plan, k, config, stand_in, 0.0);
    for (const std::vector<BenchmarkSpec>& batch : specs.batches) {
      for (PlanEntry& e : to_entries(batch, "bandwidth")) s.entries.push_back(std::move(e));
    }
  }
  return s;
}

SuitePlan compute_suite(const ComputePlan& plan, const RunConfig& config) {
  const ProfileSettings& settings = profile_settings(config.profile);
  const double min_time = settings.compute.min_time_s;
  const int reps = settings.compute.repetitions;
  SuitePlan s{"cpu", "compute", suite_budget_seconds(config.profile, false, "compute"), {}, {}};
  for (const int t : plan.threads) {
    // One calibration call (runner.hpp), then the repetitions.
    s.entries.push_back({"cpu", "compute", clock_spec_name(t), t, reps, 0.002 + reps * repetition_seconds(0.002, min_time)});
    for (const PeakVariant* v : plan.peak.runnable) {
      s.entries.push_back({"cpu", "compute", peak_spec_name(*v, t), t, reps, 0.003 + reps * repetition_seconds(0.003, min_time)});
    }
  }
  // A hybrid CPU's: the same rows at 1 thread on a PU of each core kind.
  for (const CoreKind& k : plan.kinds) {
    s.entries.push_back({"cpu", "compute", clock_spec_name(1, &k), 1, reps, 0.002 + reps * repetition_seconds(0.002, min_time)});
    for (const PeakVariant* v : plan.peak.runnable) {
      s.entries.push_back({"cpu", "compute", peak_spec_name(*v, 1, &k), 1, reps, 0.003 + reps * repetition_seconds(0.003, min_time)});
    }
  }
  // The dequant-dot rows (suite_dequant_dot.cpp), in L1 and L2.
  for (const int t : plan.threads) {
    for (const Level level : plan.dequant_levels) {
      for (const QuantDotVariant* v : plan.dequant) {
        s.entries.push_back({"cpu", "compute",
                             dequant_dot_spec_name(*v, level, t),
                             t, reps, 0.01 + reps * repetition_seconds(0.003, min_time)});
      }
    }
  }
  // The DRAM GEMVs (suite_dequant_dot.cpp's run_dequant_gemv_rows). Their weights (4x the L3, 128 MiB to 1 GiB) are
  // made once per format: planned at about half a second an entry, weights included. Each format's weights are made by
  // its first entry (at a planning 1 GB/s: block quantization of random weights); a call streams them once per
  // activation column from DRAM at the planning rate; one warm-up call, one calibration.
  const double weights = static_cast<double>(plan.gemv_weight_bytes);
  for (const QuantDotVariant* v : plan.dequant_best) {
    double make = weights / 1e9;
    for (const int t : plan.gemv_threads) {
      for (const int b : plan.gemv_batches) {
        const double call = b * weights / kPlanningDramBytesPerSecond;
        s.entries.push_back({"cpu", "compute", dequant_gemv_spec_name(*v, b, t), t, reps,
                             make + 2.0 * call + reps * repetition_seconds(call, min_time)});
        make = 0.0;
      }
    }
  }
  return s;
}

SuitePlan gemm_suite(const GemmPlan& plan, const RunConfig& config) {
  const GemmProfile& settings = profile_settings(config.profile).gemm;
  SuitePlan s{"cpu", "gemm", suite_budget_seconds(config.profile, false, "gemm"), {}, plan.notes};
  // Preparation at kGemmPrepareBytesPerSecond; a probe (roof_probe.hpp) of 3 samples of the operands at twice the planning
  // DRAM rate (the rate the plan's repetitions are at is deliberately low), at least kProbeMinSeconds.
  constexpr double kGemmPrepareBytesPerSecond = 1.6e9;
  const auto probe_s = [](double bytes) {
    return std::max(kProbeMinSeconds, kProbeMinSamples * bytes / (2.0 * kPlanningDramBytesPerSecond));
  };
  for (const GemmOperandShare& share : gemm_operand_shares(plan)) {
    for (std::size_t i = share.first; i <= share.last; ++i) {
      const GemmGroup& g = plan.groups[i];
      const GemmRequest request = gemm_request(plan, g, config);
      // Preparation in the group's first entry: the operands (allocation, first-touch fill, the reference) once per
      // share, in its first group; what the backend packs in every group. Issue 60, the quick profile on the Zen 4
      // guest: 0.71 GB of operands made in 0.45 s, 0.58 GB packed in 0.36 s (fresh pages at 0.6 GB/s, kept ones at
      // 2-7 GB/s), so 1.6 GB/s.
      double prepare = (g.backend->footprint_bytes(request) - gemm_operand_footprint(request)) / kGemmPrepareBytesPerSecond;
      if (i == share.first) {
        prepare += gemm_compulsory_bytes(GemmShape{g.m, share.max_n, g.k}, g.precision) / kGemmPrepareBytesPerSecond;
      }
      bool probed_before = false;  // the last point's "after" probe is this one's "before" (RoofProbe::measure)
      for (const int n : g.batches) {
        const double call = gemm_call_estimate(g, n, config.features, kGemmExpectedOverPlanningRate);
        const int reps = gemm_planned_repetitions(g, n, config);
        const bool probed = gemm_roof_probe_planned(g, n, config.features);
        const double probes =
            probed ? (probed_before ? 1.0 : 2.0) * probe_s(gemm_compulsory_bytes(GemmShape{g.m, n, g.k}, g.precision)) : 0.0;
        probed_before = probed;
        const double warm_up = gemm_warm_up_planned(g, n, config) ? call : 0.0;
        s.entries.push_back({"cpu", "gemm", gemm_spec_name(g, n), g.threads, reps,
                             prepare + warm_up + reps * repetition_seconds(call, settings.min_time_s) + probes});
        prepare = 0.0;
      }
    }
  }
  return s;
}

// The gemm plan; over its budget (not with --batches, the work asked for), the batch sweeps (groups of more than two
// batches) keep every other batch between their first and last, once: the sweep keeps its shape. Deterministic and
// said; the memory- and compute-bound ends of every group stay, and an estimate still over the budget is said.
SuitePlan thinned_gemm_suite(GemmPlan& plan, const RunConfig& config) {
  SuitePlan s = gemm_suite(plan, config);
  if (!config.batches.empty()) return s;
  const double before = s.estimated_seconds();
  int halvings = 0;
  // Once: the sweep keeps its shape (1, 4, 16, ..., 1024); what is still over the budget is said, not cut.
  while (s.budget_s > 0.0 && s.estimated_seconds() > s.budget_s && halvings < 1) {
    // A sweep is every batch of one backend x precision x threads, over its DRAM- and compute-shape groups.
    std::map<std::tuple<const GemmBackend*, Precision, int>, std::vector<int>> sweeps;
    for (const GemmGroup& g : plan.groups) {
      std::vector<int>& all = sweeps[{g.backend, g.precision, g.threads}];
      all.insert(all.end(), g.batches.begin(), g.batches.end());
    }
    bool any = false;
    for (auto& [key, all] : sweeps) {
      std::sort(all.begin(), all.end());
      if (all.size() <= 2) continue;
      std::set<int> kept;
      for (std::size_t i = 0; i < all.size(); i += 2) kept.insert(all[i]);
      kept.insert(all.back());
      for (GemmGroup& g : plan.groups) {
        if (std::tuple(g.backend, g.precision, g.threads) != key) continue;
        std::erase_if(g.batches, [&](int n) { return kept.count(n) == 0; });
      }
      any = true;
    }
    std::erase_if(plan.groups, [](const GemmGroup& g) { return g.batches.empty(); });
    if (!any) break;
    ++halvings;
    s = gemm_suite(plan, config);
  }
  if (halvings > 0) {
    plan.notes.push_back(fmt::format("gemm: the plan was estimated at {:.1f} s, over the {:.0f} s budget: the batch "
                                     "sweeps keep every other batch between their first and last", before, s.budget_s));
    s = gemm_suite(plan, config);
  }
  return s;
}

}  // namespace

BandwidthPlan plan_bandwidth(const RunConfig& config, const MachineFacts& machine, int per_octave) {
  BandwidthPlan p;
  const bool user = !config.sizes.empty();
  p.swept = swept_kernels(config.profile, user);
  p.spot = spot_kernels(config.profile, user);
  p.implausible = implausible_caches(machine);
  for (const std::string& why : p.implausible) p.notes.push_back(why + ": the sweep's end and spot sizes ignore it");
  // The 1-thread sweep of a hybrid CPU's core kinds: planned as the 1-thread sweep is (below), whatever --threads says.
  std::vector<int> thread_counts = config.thread_counts;
  if (machine.hybrid()) thread_counts.push_back(1);
  for (std::size_t i = 0; i < thread_counts.size(); ++i) {
    const int threads = thread_counts[i];
    const bool kind_sweep = i >= config.thread_counts.size();
    BandwidthThreadPlan t;
    t.threads = threads;
    t.levels = plausible_levels(machine, threads, config.bind);
    for (const ReportedLevel& l : t.levels) t.cache_bytes = std::max<std::uint64_t>(t.cache_bytes, std::uint64_t(l.bytes));
    // A last level of unknown size: sweep to 8x the most a real CPU caches for these threads (not to 8x the L2, inside
    // that level, nor to a fixed gibibyte).
    const std::uint64_t reach_bytes = dram_threshold_bytes(machine, threads, config.bind);
    t.sweep = plan_sweep(config.profile, config.sizes, reach_bytes, config.memory_budget_bytes, per_octave);
    p.per_octave = t.sweep.per_octave;
    if (!p.spot.empty()) t.spot_sizes = spot_sizes(t, reach_bytes);
    // 4 KiB pages at DRAM sizes: the middle of 4x-8x the caches (every --sizes size from twice the caches).
    const double reach = reach_bytes > 0 ? static_cast<double>(reach_bytes)
                                           : static_cast<double>(kSweepDefaultEndBytes) / kSweepEndCacheFactor;
    t.small_page_sizes = small_page_sizes(t.sweep.sizes, user ? 0.0 : 4.0 * reach, reach, user);
    if (t.sweep.capped && !kind_sweep) {
      p.notes.push_back(fmt::format("{} thread(s): the sweep ends at {}, the memory budget, before {} (8x the caches): "
                                    "DRAM may not be reached", threads, format_bytes(double(t.sweep.sizes.back())),
                                    format_bytes(double(t.sweep.planned_end_bytes))));
    }
    if (kind_sweep) {
      p.kind_sweep = std::move(t);
      p.kinds = machine.core_kinds;
    } else {
      p.per_threads.push_back(std::move(t));
    }
  }
  return p;
}

namespace {

// The gemm plan's shapes, from the plausible caches (or the assumed last cache where none is).
GemmPlan plan_cpu_gemm_shapes(const RunConfig& config, const MachineFacts& machine) {
  const int threads = config.thread_counts.empty() ? 1 : config.thread_counts.back();
  if (last_cache_unknown(machine)) {
    const std::uint64_t assumed = unknown_last_cache_bytes(threads);
    return plan_gemm(config, static_cast<double>(assumed),
                     fmt::format("an assumed last cache of {} ({} per core {} thread(s) use, the most a real CPU has): "
                                 "the machine reports one whose size is not plausible",
                                 format_bytes(double(assumed)), format_bytes(kLargestRealL3BytesPerCore), threads));
  }
  const std::uint64_t cache = plausible_cache_bytes(machine, threads, config.bind);
  const std::string source = fmt::format("the largest plausible cache {} thread(s) use, reported by {}", threads,
                                         machine.caches.empty() ? std::string("the machine") : machine.caches.back().source);
  return plan_gemm(config, static_cast<double>(cache), source);
}

}  // namespace

GemmPlan plan_cpu_gemm(const RunConfig& config, const MachineFacts& machine) {
  GemmPlan plan = plan_cpu_gemm_shapes(config, machine);
  plan.share_across_threads = machine.numa_nodes <= 1;
  return plan;
}

ComputePlan plan_compute(const RunConfig& config, const MachineFacts& machine) {
  ComputePlan p;
  p.threads = config.thread_counts;
  p.peak = select_peak_variants(config.features);
  for (const QuantDotVariant& v : quant_dot_variants()) {
    if (!quant_dot_runnable(v, config.features)) {
      p.dequant_not_supported.push_back(&v);
      continue;
    }
    p.dequant_runnable.push_back(&v);
    if (!p.dequant_best.empty() && p.dequant_best.back()->format == v.format) p.dequant_best.back() = &v;
    else p.dequant_best.push_back(&v);
  }
  // Quick: each format's best ISA; full: every row. Both profiles, every thread count (issue 48).
  p.quick = config.profile != Profile::full;
  p.dequant = p.quick ? p.dequant_best : p.dequant_runnable;
  p.dequant_levels = {Level::L1, Level::L2};
  // The DRAM GEMVs: each format's best kernel, batch 1 at the largest thread count (quick) or batches 1-16 at every
  // thread count (full).
  if (!config.thread_counts.empty()) {
    const int largest = *std::max_element(config.thread_counts.begin(), config.thread_counts.end());
    p.gemv_threads = p.quick ? std::vector<int>{largest} : config.thread_counts;
  }
  p.gemv_batches = p.quick ? std::vector<int>{1} : std::vector<int>{1, 2, 4, 8, 16};
  p.gemv_weight_bytes = dequant_gemv_weight_bytes(config, machine);
  if (machine.hybrid()) p.kinds = machine.core_kinds;
  return p;
}

namespace {
void add_kind(BenchmarkKey& key, const CoreKind* kind) {
  if (kind != nullptr) key.tail.push_back(name_segment("kind", kind->name));
}
}  // namespace

std::string clock_spec_name(int threads, const CoreKind* kind) {
  BenchmarkKey key("clock", {"add_chain"});
  key.threads = threads;
  add_kind(key, kind);
  return benchmark_name(key);
}

std::string peak_spec_name(const PeakVariant& v, int threads, const CoreKind* kind) {
  BenchmarkKey key("compute",
                   {std::string(v.kernel()), std::string(to_string(v.precision)), std::string(to_string(v.isa))});
  key.bits = v.vector_bits;
  key.threads = threads;
  // A tile row names its instruction: TDPBSSD and TDPBUSD are both int8 rows of one ISA and width (same_row in
  // peak.cpp keeps both), and one name for two benchmarks would hide one of them.
  if (v.op == PeakOp::tile) key.tail.emplace_back(v.instruction);
  add_kind(key, kind);
  return benchmark_name(key);
}

// The tail is the last of a name's segments (benchmark_name.hpp), so the kind's goes after the whole name.
std::string core_kind_spec_name(const std::string& name, const CoreKind& kind) {
  return name + "/" + name_segment("kind", kind.name);
}

std::string dequant_dot_spec_name(const QuantDotVariant& v, Level level, int threads) {
  BenchmarkKey key("compute", {"dequant_dot", std::string(to_string(v.format)), std::string(v.isa_name)});
  key.level = std::string(to_string(level));
  key.threads = threads;
  return benchmark_name(key);
}

// Its batch before its threads, as every results file has it (benchmark_name.hpp).
std::string dequant_gemv_spec_name(const QuantDotVariant& v, int batch, int threads) {
  BenchmarkKey key("dequant_gemv",
                   {std::string(to_string(v.format)), std::string(v.isa_name), name_segment("batch", batch)});
  key.threads = threads;
  return benchmark_name(key);
}

std::uint64_t dequant_gemv_weight_bytes(const RunConfig& config, const MachineFacts& machine) {
  const int largest = config.thread_counts.empty() ? 1 : *std::max_element(config.thread_counts.begin(), config.thread_counts.end());
  const std::uint64_t cache = dram_threshold_bytes(machine, largest, config.bind);
  return std::clamp<std::uint64_t>(4 * cache, std::uint64_t{128} << 20, std::uint64_t{1} << 30);
}

int gemm_planned_repetitions(const GemmGroup& g, int n, const RunConfig& config) {
  const GemmProfile& settings = profile_settings(config.profile).gemm;
  return gemm_call_estimate(g, n, config.features) > settings.long_call_s ? settings.long_call_repetitions : settings.repetitions;
}

bool gemm_warm_up_planned(const GemmGroup& g, int n, const RunConfig& config) {
  const GemmProfile& settings = profile_settings(config.profile).gemm;
  return gemm_call_estimate(g, n, config.features) < settings.min_time_s;
}

CpuPlan plan_cpu(const RunConfig& config, const MachineFacts& machine) {
  CpuPlan plan;
  plan.bandwidth = plan_bandwidth(config, machine);
  plan.compute = plan_compute(config, machine);
  if (config.wants_suite("compute")) plan.suites.push_back(compute_suite(plan.compute, config));
  if (config.wants_suite("gemm")) {
    plan.gemm = plan_cpu_gemm(config, machine);
    plan.suites.push_back(thinned_gemm_suite(plan.gemm, config));
  }
  if (config.wants_suite("bandwidth")) {
    SuitePlan s = bandwidth_suite(plan.bandwidth, config, machine);
    // Over its budget, or the whole plan over the profile's (the compute and gemm suites are what they are; the sweep's
    // density is what gives): one size per octave instead (the budget shapes the plan, never the run).
    double others = 0.0;
    for (const SuitePlan& o : plan.suites) others += o.estimated_seconds();
    const double profile_budget = config.suites.empty() ? profile_budget_seconds(config.profile, false) : 0.0;
    const bool over_suite = s.budget_s > 0.0 && s.estimated_seconds() > s.budget_s;
    const bool over_profile = profile_budget > 0.0 && others + s.estimated_seconds() > profile_budget;
    if ((over_suite || over_profile) && plan.bandwidth.per_octave > 1 && config.sizes.empty()) {
      const double before = s.estimated_seconds();
      const int was = plan.bandwidth.per_octave;
      plan.bandwidth = plan_bandwidth(config, machine, 1);
      plan.bandwidth.notes.push_back(
          over_suite ? fmt::format("the sweep at {} sizes per octave was estimated at {:.1f} s, over the {:.0f} s budget: "
                                   "planned at 1 size per octave", was, before, s.budget_s)
                     : fmt::format("the sweep at {} sizes per octave was estimated at {:.1f} s, the whole CPU plan at "
                                   "{:.1f} s, over the profile's {:.0f} s: planned at 1 size per octave",
                                   was, before, others + before, profile_budget));
      s = bandwidth_suite(plan.bandwidth, config, machine);
    }
    plan.suites.insert(plan.suites.begin(), std::move(s));
  }
  for (SuitePlan& s : plan.suites) {
    if (s.budget_s > 0.0 && s.estimated_seconds() > s.budget_s) {
      s.notes.push_back(fmt::format("estimated {:.1f} s, over its {:.0f} s budget: nothing is cut at run time",
                                    s.estimated_seconds(), s.budget_s));
    }
  }
  return plan;
}

}  // namespace roofline
