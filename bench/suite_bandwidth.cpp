// The bandwidth suite: STREAM-style kernels (kernels/stream.hpp) swept over working-set sizes from 4 KiB
// to past the caches, at each thread count, so that analysis/memory_ceilings can find the plateaus and
// ceilings per level. Arrays are allocated and first-touched by the pinned team outside the timed loop;
// each benchmark validates its arrays after timing and fails loudly on a mismatch.
//
// Profiles: `full` sweeps every kernel at 4 sizes per octave. `quick` sweeps `read` and `triad` at 2 sizes
// per octave, stops once the read curve has been flat for two octaves past the knee into DRAM, then runs
// the other kernels at one size in the middle of each level found, which keeps it under 25 s on 2 cores.
// `--sizes` runs every kernel at exactly the sizes given.
#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

#include <fmt/format.h>

#include "roofline/analysis/memory_ceilings.hpp"
#include "roofline/analysis/plateaus.hpp"
#include "roofline/common/units.hpp"
#include "roofline/bench/bandwidth_plan.hpp"
#include "roofline/bench/pinning.hpp"
#include "roofline/bench/suite.hpp"

namespace roofline {
using nlohmann::json;

namespace {

// Bytes one timed call moves at least, per thread (see passes_per_call).
constexpr std::uint64_t kCallTargetBytesPerThread = 16ull << 20;
// Arrays this large are aligned to 2 MiB and asked for transparent huge pages (fewer TLB misses in DRAM).
constexpr std::size_t kHugePageBytes = 2u << 20;

struct FreeDeleter {
  void operator()(double* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<double, FreeDeleter>;

Buffer allocate(std::size_t n) {
  const std::size_t bytes = n * sizeof(double);
  const std::size_t align = bytes >= 2 * kHugePageBytes ? kHugePageBytes : 64;
  void* p = std::aligned_alloc(align, (bytes + align - 1) / align * align);
  if (p == nullptr) return nullptr;
  if (align == kHugePageBytes) madvise(p, (bytes + align - 1) / align * align, MADV_HUGEPAGE);
  return Buffer(static_cast<double*>(p));
}

// The arrays of the kernel now being measured. One set is alive at a time: asking for another size,
// arity or thread count frees the old one first, so peak memory is one working set. Google Benchmark runs
// a benchmark's repetitions back to back, so each set is allocated and first-touched once.
class StreamArena {
 public:
  StreamArena(const MachineFacts& machine, BindPolicy bind) : machine_(machine), bind_(bind) {}

  // Arrays for `kernel` at n elements, initialized, first touched by the pinned team of `threads`.
  // Empty (n == 0) when memory could not be allocated.
  StreamArrays get(StreamKernel kernel, std::size_t n, int threads) {
    const int arity = stream_array_count(kernel);
    if (arity != arity_ || n != n_ || threads != threads_) {
      release();
      pin_openmp_threads(threads, binding_plan(machine_, threads, bind_));
      for (int i = 0; i < arity; ++i) {
        buffers_[i] = allocate(n);
        if (!buffers_[i]) {
          release();
          return {};
        }
      }
      arity_ = arity;
      n_ = n;
      threads_ = threads;
    }
    // Same arrays, another kernel: put back the initial values the validator expects.
    StreamArrays x = view(kernel);
    if (!has_kernel_ || kernel != kernel_) {
      stream_init(kernel, x, threads);
      kernel_ = kernel;
      has_kernel_ = true;
    }
    return x;
  }

  void release() {
    for (Buffer& b : buffers_) b.reset();
    arity_ = 0;
    n_ = 0;
    threads_ = 0;
    has_kernel_ = false;
  }

 private:
  // Buffers go to the arrays the kernel uses, in the order a, b, c.
  StreamArrays view(StreamKernel kernel) const {
    const StreamArrayUse use = stream_kernel_uses(kernel);
    StreamArrays x;
    x.n = n_;
    int next = 0;
    if (use.a) x.a = buffers_[next++].get();
    if (use.b) x.b = buffers_[next++].get();
    if (use.c) x.c = buffers_[next++].get();
    return x;
  }

  const MachineFacts& machine_;
  BindPolicy bind_;
  Buffer buffers_[3];
  int arity_ = 0;
  std::size_t n_ = 0;
  int threads_ = 0;
  StreamKernel kernel_ = StreamKernel::copy;
  bool has_kernel_ = false;
};

BenchmarkSpec make_spec(StreamKernel kernel, std::uint64_t size, int threads, const RunConfig& config,
                        StreamArena& arena) {
  const StreamKernelInfo& info = stream_kernel_info(kernel);
  const std::size_t n = elements_for(kernel, size);
  const std::uint64_t working_set = stream_working_set_bytes(kernel, n);
  const int passes = passes_per_call(kernel, n, kCallTargetBytesPerThread * static_cast<std::uint64_t>(threads));
  const std::uint64_t bytes_per_call = stream_bytes_per_pass(kernel, n) * static_cast<std::uint64_t>(passes);
  const Isa isa = stream_kernel_isa(kernel, config.features);
  const IsaFeatures features = config.features;

  BenchmarkSpec spec;
  spec.name = fmt::format("bandwidth/{}/threads:{}/bytes:{}", info.name, threads, working_set);
  spec.labels = {{"suite", "bandwidth"}, {"kernel", std::string(info.name)}, {"precision", "fp64"},
                 {"isa", std::string(to_string(isa))}, {"threads", threads}};
  // Each call already moves kCallTargetBytesPerThread per thread (milliseconds), so 5 ms per repetition is
  // far above the timer's resolution; full takes 20 ms for steadier medians.
  spec.min_time_s = config.profile == Profile::full ? 0.02 : 0.005;
  // The swept kernels give the key figures that `compare` gates on (DRAM triad, L1 read): 5 repetitions,
  // the fewest with which a Mann-Whitney U test can reach p < 0.05. Spot kernels in quick get 3.
  const bool key = kernel == StreamKernel::read || kernel == StreamKernel::triad;
  spec.repetitions = config.profile == Profile::full || key ? 5 : 3;
  const int repetitions = spec.repetitions;
  auto calls = std::make_shared<int>(0);
  spec.body = [&arena, kernel, n, threads, passes, bytes_per_call, working_set, features, repetitions,
               calls](benchmark::State& state) {
    const StreamArrays x = arena.get(kernel, n, threads);
    if (x.n == 0) {
      state.SkipWithError("could not allocate the arrays");
      for (auto _ : state) {
      }
      return;
    }
    double sum = 0.0;
    for (auto _ : state) sum = run_stream_kernel(kernel, x, threads, passes, features);
    // Google Benchmark calls this body once per repetition (plus its iteration-count estimates): the first
    // call and every call from the last repetition's on are validated, so the final arrays always are,
    // while large working sets are not re-read five times for nothing.
    const int call = ++*calls;
    if (call > 1 && call < repetitions) {
      state.counters["bytes_per_second"] =
          benchmark::Counter(static_cast<double>(bytes_per_call), benchmark::Counter::kIsIterationInvariantRate);
      state.counters["working_set_bytes"] = benchmark::Counter(static_cast<double>(working_set));
      return;
    }
    const StreamCheck check = validate_stream(kernel, x, sum, threads);
    if (!check.ok) {
      state.SkipWithError(check.message.c_str());
      return;
    }
    state.counters["bytes_per_second"] =
        benchmark::Counter(static_cast<double>(bytes_per_call), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["working_set_bytes"] = benchmark::Counter(static_cast<double>(working_set));
  };
  return spec;
}

// The median bandwidth per working set of `kernel` in these entries, appended to `curve`.
void append_curve(const std::vector<json>& entries, const std::string& kernel, std::vector<CurvePoint>& curve) {
  for (const json& e : entries) {
    if (e.value("run_type", "") != "aggregate" || e.value("aggregate_name", "") != "median") continue;
    if (e.value("error_occurred", false) || !e.contains("labels") || e["labels"].value("kernel", "") != kernel) continue;
    curve.push_back({e.value("working_set_bytes", 0.0), e.value("bytes_per_second", 0.0)});
  }
}

// Whether the quick sweep may stop: the read curve's last plateau is DRAM (per label_levels) and has
// stayed flat for two octaves past the last knee.
bool sweep_is_done(std::vector<CurvePoint> curve, const std::vector<ReportedLevel>& reported, double& dram_from) {
  const std::vector<Plateau> plateaus = find_plateaus(curve);
  if (!flat_after_last_knee(curve, plateaus, 2.0)) return false;
  const LevelLabels labels = label_levels(curve, plateaus, reported);
  if (labels.levels.empty() || labels.levels.back().level != "DRAM") return false;
  dram_from = labels.levels.back().min_bytes;
  return true;
}

std::vector<std::string> kernel_names(const std::vector<StreamKernel>& kernels) {
  std::vector<std::string> out;
  for (StreamKernel k : kernels) out.emplace_back(stream_kernel_info(k).name);
  return out;
}

}  // namespace

void run_bandwidth_suite(const RunConfig& config, const MachineFacts& machine, Runner& runner, SuiteOutput& out) {
  const bool user = !config.sizes.empty();
  const std::vector<StreamKernel> swept = swept_kernels(config.profile, user);
  const std::vector<StreamKernel> spot = spot_kernels(config.profile, user);
  const json machine_json = to_json(machine);
  const std::string policy(to_string(config.bind));

  // Plans first: a bad --sizes list fails before anything is measured.
  std::vector<SweepPlan> plans;
  for (int threads : config.thread_counts) {
    const std::vector<ReportedLevel> reported = reported_levels(machine_json, threads, policy);
    const double reach = reported.empty() ? 0.0 : reported.back().bytes;
    plans.push_back(plan_sweep(config.profile, config.sizes, static_cast<std::uint64_t>(reach),
                               config.memory_budget_bytes));
  }

  StreamArena arena(machine, config.bind);
  json per_threads = json::object();
  json stopped = json::object();
  for (std::size_t t = 0; t < config.thread_counts.size(); ++t) {
    const int threads = config.thread_counts[t];
    const SweepPlan& plan = plans[t];
    const std::vector<ReportedLevel> reported = reported_levels(machine_json, threads, policy);
    const std::string who = fmt::format("{} thread{}", threads, threads == 1 ? "" : "s");
    std::vector<CurvePoint> curve;
    std::vector<std::uint64_t> measured;
    bool stopped_early = false;
    // Past the planned end, one more octave (two in `full`, within the budget) while the curve has not
    // yet settled on a DRAM plateau: DRAM must be reached in fact, not only by the reported cache sizes.
    std::vector<std::vector<std::uint64_t>> batches = octave_batches(plan.sizes, plan.per_octave);
    if (!plan.from_user && !plan.sizes.empty()) {
      const std::uint64_t last = plan.sizes.back();
      const std::uint64_t extra_octaves = config.profile == Profile::full ? 4 : 2;
      const std::uint64_t limit =
          std::min<std::uint64_t>(extra_octaves * last, plan.cap_bytes > 0 ? plan.cap_bytes : extra_octaves * last);
      std::vector<std::uint64_t> extra;
      for (std::uint64_t s : geometric_sizes(last, limit, plan.per_octave)) {
        if (s > last) extra.push_back(s);
      }
      for (auto& b : octave_batches(extra, plan.per_octave)) batches.push_back(b);
    }
    const std::size_t planned_batches = octave_batches(plan.sizes, plan.per_octave).size();
    for (std::size_t bi = 0; bi < batches.size(); ++bi) {
      const std::vector<std::uint64_t>& batch = batches[bi];
      if (bi == planned_batches) {
        double ignored = 0.0;
        if (sweep_is_done(curve, reported, ignored)) break;
        out.notes.push_back(fmt::format("bandwidth, {}: no flat DRAM plateau by {}; the sweep goes on up to {}.", who,
                                        format_bytes(double(plan.sizes.back())),
                                        format_bytes(double(batches.back().back()))));
      }
      std::vector<BenchmarkSpec> specs;
      for (std::uint64_t size : batch) {
        // Grouped by arity, so kernels sharing a set of arrays run back to back on the same allocation.
        for (int arity = 1; arity <= 3; ++arity) {
          for (StreamKernel k : swept) {
            if (stream_array_count(k) == arity) specs.push_back(make_spec(k, size, threads, config, arena));
          }
        }
        measured.push_back(size);
      }
      append_curve(runner.run(specs), "read", curve);
      double dram_from = 0.0;
      // Never stop below the sweep's minimum end: a flat L3 plateau (the 2-thread VM curve is flat from 8 to
      // ~90 MiB) would otherwise pass for DRAM. DRAM must be reached in fact, not only by the curve so far.
      const std::uint64_t stop_floor = plan.capped ? 0 : std::min<std::uint64_t>(kSweepMinEndBytes, plan.sizes.back());
      if (config.profile == Profile::quick && !user && batch.back() >= stop_floor &&
          sweep_is_done(curve, reported, dram_from)) {
        stopped_early = bi + 1 < planned_batches;
        if (stopped_early) {
          stopped[std::to_string(threads)] = batch.back();
          out.notes.push_back(fmt::format(
              "bandwidth, {}: the quick sweep stopped at {}: flat for two octaves on the DRAM plateau (from {}).",
              who, format_bytes(double(batch.back())), format_bytes(dram_from)));
        }
        break;
      }
    }
    // Quick: the other kernels at the middle of each level the read curve shows.
    std::vector<std::uint64_t> spot_sizes;
    if (!spot.empty()) {
      std::vector<CurvePoint> sorted = curve;
      const std::vector<Plateau> plateaus = find_plateaus(sorted);
      for (const LevelLabel& l : label_levels(sorted, plateaus, reported).levels) {
        // DRAM: the second size of its plateau (any size there is DRAM-resident; larger ones only cost time).
        const std::uint64_t s = l.level == "DRAM" ? middle_size(measured, l.min_bytes, l.min_bytes * 2.0)
                                                  : middle_size(measured, l.min_bytes, l.max_bytes);
        if (std::find(spot_sizes.begin(), spot_sizes.end(), s) == spot_sizes.end()) spot_sizes.push_back(s);
      }
      if (spot_sizes.empty()) {  // no plateaus: every fourth size
        for (std::size_t i = 0; i < measured.size(); i += 4) spot_sizes.push_back(measured[i]);
      }
      std::vector<BenchmarkSpec> specs;
      for (std::uint64_t size : spot_sizes) {
        for (int arity = 1; arity <= 3; ++arity) {
          for (StreamKernel k : spot) {
            if (stream_array_count(k) == arity) specs.push_back(make_spec(k, size, threads, config, arena));
          }
        }
      }
      runner.run(specs);
    }
    arena.release();
    if (plan.capped) {
      out.notes.push_back(fmt::format("bandwidth, {}: sweep capped at {} by the memory budget (4x the caches "
                                      "would be {}).", who, format_bytes(double(plan.sizes.back())),
                                      format_bytes(double(plan.planned_end_bytes))));
    }
    per_threads[std::to_string(threads)] = {
        {"start_bytes", plan.start_bytes},   {"planned_end_bytes", plan.planned_end_bytes},
        {"end_bytes", measured.empty() ? 0 : measured.back()},
        {"capped", plan.capped},             {"stopped_early", stopped_early},
        {"size_count", measured.size()},          {"spot_sizes", spot_sizes}};
  }
  out.context = {{"sizes_from", user ? "--sizes" : "profile"},
                 {"points_per_octave", plans.empty() ? 0 : plans.front().per_octave},
                 {"memory_budget_bytes", config.memory_budget_bytes},
                 {"swept_kernels", kernel_names(swept)},
                 {"spot_kernels", kernel_names(spot)},
                 {"call_target_bytes_per_thread", kCallTargetBytesPerThread},
                 {"huge_pages", "arrays of 4 MiB and more are 2 MiB aligned with madvise(MADV_HUGEPAGE)"},
                 {"per_threads", per_threads},
                 {"stopped_early_at_bytes", stopped}};
  if (!spot.empty()) {
    out.notes.push_back(fmt::format("bandwidth: the quick profile sweeps {} at {} sizes per octave and measures "
                                    "{} at one size per memory level.", fmt::join(kernel_names(swept), ", "),
                                    plans.empty() ? 0 : plans.front().per_octave,
                                    fmt::join(kernel_names(spot), ", ")));
  }
}

}  // namespace roofline
