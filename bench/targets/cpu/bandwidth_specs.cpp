// The bandwidth suite's benchmarks: see bandwidth_specs.hpp.
#include "bandwidth_specs.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "roofline/common/statistics.hpp"
#include "roofline/cpu/bandwidth_plan.hpp"
#include "roofline/facts/pinning.hpp"
#include "roofline/harness/benchmark_name.hpp"
#include "roofline/harness/profile.hpp"

namespace roofline {
namespace {

// The entry's name and labels. 4 KiB-page runs are the suite "bandwidth_pages" (analysis/model/memory_ceilings.cpp
// keeps them out of the curve and levels) with "pages:4K" in the name; mapped arrays' entries say the pages
// asked for.
void name_spec(BenchmarkSpec& spec, StreamKernel kernel, std::size_t n, int threads, PageSize pages, Isa isa) {
  const StreamKernelInfo& info = stream_kernel_info(kernel);
  const bool small_pages = pages == PageSize::base_4k;
  BenchmarkKey key("bandwidth", {std::string(info.name)});
  if (small_pages) key.pages = "4K";
  key.threads = threads;
  key.bytes = stream_working_set_bytes(kernel, n);
  spec.name = benchmark_name(key);
  spec.labels = {{"suite", small_pages ? "bandwidth_pages" : "bandwidth"}, {"kernel", std::string(info.name)},
                 {"precision", "fp64"}, {"isa", std::string(to_string(isa))}, {"threads", threads}};
  if (n * sizeof(double) >= 2 * kHugePageBytes) spec.labels["pages"] = std::string(to_string(pages));
}

// The spread of the threads' own rates over a statically split call (statistics.hpp's rate_spread): each thread's
// elements from stream_chunk, its time from the kernel.
double thread_rate_spread(std::size_t n, const std::vector<double>& thread_seconds) {
  const int threads = static_cast<int>(thread_seconds.size());
  std::vector<double> elements;
  for (int t = 0; t < threads; ++t) {
    const StreamRange r = stream_chunk(n, threads, t);
    elements.push_back(static_cast<double>(r.end - r.begin));
  }
  return rate_spread(elements, thread_seconds);
}

}  // namespace

// Seconds one call of a kernel costs beyond its memory traffic (OpenMP fork/join, pass loop set-up): the
// median of many calls of `read` over one step per thread, pinned like the measurements.
double measure_call_overhead(StreamArena& arena, int threads, const IsaFeatures& features) {
  const std::size_t n = element_unit(StreamKernel::read, threads, features);
  const StreamArrays x = arena.get(StreamKernel::read, n, threads);
  if (x.n == 0) return 0.0;
  std::vector<double> seconds;
  for (int i = 0; i < 301; ++i) {
    const auto start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(run_stream_kernel(StreamKernel::read, x, threads, 1, features));
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::nth_element(seconds.begin(), seconds.begin() + 150, seconds.end());
  return seconds[150];
}

double stream_spec_estimate(std::uint64_t working_set, std::uint64_t bytes_per_call, int repetitions,
                            double min_time_s, int threads, std::uint64_t cache_bytes, std::uint64_t setup_bytes) {
  // Planning rates, low for a cache and typical for DRAM (the 2-vCPU guests read their L2 at 100-200 GB/s a thread,
  // DRAM at 20-40 GB/s): 50 GB/s per thread from a cache, 25 GB/s from DRAM (a 16 MiB cache assumed when none is
  // plausible). Set-up as measured there (issue 60): initialization and first touch of each set of arrays once, at
  // 8 GB/s (the mapping pool hands most sets touched pages, rewritten at 10-20 GB/s; the 1-thread sweep's largest
  // sets and the 4 KiB-page ones are partly fresh, first-touched at 0.4-2 GB/s), each validation at 10 GB/s (two for
  // cache-sized arrays, one for DRAM-sized ones). A quick sweep's DRAM-sized batches on the 2-vCPU Zen 4 guest: 4.6 GB
  // of sets, 1.2 s of wall beside the timed calls, calibration calls and validations included.
  const double ws = static_cast<double>(working_set);
  const double call_s = stream_planned_call_s(working_set, bytes_per_call, threads, cache_bytes);
  // Calibrated repetitions (runner.hpp): one call when longer than the window, else the window plus half a call of
  // rounding up on average; one calibration call, none where a call fills the window (stream_call_fills_window).
  const double repetition_s = call_s >= min_time_s ? call_s : min_time_s + call_s / 2.0;
  const double calibration_s = call_s >= min_time_s ? 0.0 : call_s;
  // Only the first spec of a set of arrays sets it up (add_specs): the others share it or are carved from it.
  const double setup_s = static_cast<double>(setup_bytes) / 8e9;
  return calibration_s + repetitions * repetition_s + setup_s + (ws < kHugePageThreshold ? 2.0 : 1.0) * ws / 10e9 +
         0.002;
}

double stream_planned_call_s(std::uint64_t working_set, std::uint64_t bytes_per_call, int threads,
                             std::uint64_t cache_bytes) {
  const double cache = cache_bytes > 0 ? static_cast<double>(cache_bytes) : double(16ull << 20);
  const double rate = static_cast<double>(working_set) <= cache ? 50e9 * std::max(threads, 1) : 25e9;
  return static_cast<double>(bytes_per_call) / rate;
}

BenchmarkSpec make_spec(StreamKernel kernel, std::size_t n, int threads, double call_overhead_s,
                        const RunConfig& config, StreamArena& arena, PageSize pages, std::uint64_t cache_bytes,
                        std::size_t capacity, std::uint64_t setup_bytes) {
  const std::uint64_t working_set = stream_working_set_bytes(kernel, n);
  const int passes = passes_per_call(kernel, n, kCallTargetBytesPerThread * static_cast<std::uint64_t>(threads));
  const std::uint64_t bytes_per_call = stream_bytes_per_pass(kernel, n) * static_cast<std::uint64_t>(passes);
  const std::uint64_t wa_bytes_per_call =
      stream_bytes_per_pass_write_allocate(kernel, n) * static_cast<std::uint64_t>(passes);
  const IsaFeatures features = config.features;

  BenchmarkSpec spec;
  name_spec(spec, kernel, n, threads, pages, stream_kernel_isa(kernel, config.features));
  const ProfileSettings& settings = profile_settings(config.profile);
  spec.min_time_s = settings.bandwidth.min_time_s;
  // Each repetition's window from the call's own rate (runner.hpp), timed in a calibration call; not where the plan
  // expects one call to fill the window (a DRAM-sized set at the planning rate): Google Benchmark's first repetition
  // times one call and keeps it when it is that long, one trial call more where it is shorter (issue 60: the
  // calibration calls of the DRAM-sized sets were a tenth of the quick sweep's wall beside its timed calls).
  spec.calibrate =
      stream_planned_call_s(working_set, bytes_per_call, threads, cache_bytes) < settings.bandwidth.min_time_s;
  const bool calibrated = spec.calibrate;
  // read and triad give the key figures that `compare` gates on: the profile's repetitions (5, the fewest
  // with which a Mann-Whitney U test can reach p < 0.05); the others, when only spot-measured, fewer.
  const bool key = kernel == StreamKernel::read || kernel == StreamKernel::triad;
  spec.repetitions = key || settings.bandwidth.sweep_every_kernel ? settings.bandwidth.repetitions
                                                                  : settings.bandwidth.spot_repetitions;
  const int repetitions = spec.repetitions;
  spec.estimate_s =
      stream_spec_estimate(working_set, bytes_per_call, repetitions, spec.min_time_s, threads, cache_bytes, setup_bytes);
  auto calls = std::make_shared<int>(0);
  spec.body = [&arena, kernel, n, threads, passes, bytes_per_call, wa_bytes_per_call, working_set, features,
               repetitions, calls, call_overhead_s, pages, capacity, calibrated](benchmark::State& state) {
    const StreamArrays x = arena.get(kernel, n, threads, pages, capacity);
    if (x.n == 0) {
      state.SkipWithError("could not allocate the arrays");
      for (auto _ : state) {
      }
      return;
    }
    double sum = 0.0;
    std::vector<double> thread_seconds(static_cast<std::size_t>(threads), 0.0);
    const auto start = std::chrono::steady_clock::now();
    for (auto _ : state) sum = run_stream_kernel(kernel, x, threads, passes, features, thread_seconds.data());
    const double per_call = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
                            static_cast<double>(std::max<benchmark::IterationCount>(1, state.iterations()));
    const auto set_counters = [&] {
      state.counters["bytes_per_second"] =
          benchmark::Counter(static_cast<double>(bytes_per_call), benchmark::Counter::kIsIterationInvariantRate);
      state.counters["bytes_per_second_write_allocate"] =
          benchmark::Counter(static_cast<double>(wa_bytes_per_call), benchmark::Counter::kIsIterationInvariantRate);
      state.counters["working_set_bytes"] = benchmark::Counter(static_cast<double>(working_set));
      state.counters["elements"] = benchmark::Counter(static_cast<double>(n));
      state.counters["passes_per_call"] = benchmark::Counter(static_cast<double>(passes));
      // The share of a call that the measured fixed cost of a call takes (target: under 2%).
      state.counters["call_overhead_fraction"] = benchmark::Counter(per_call > 0.0 ? call_overhead_s / per_call : 0.0);
      // How far apart the threads' own rates were (fastest over slowest, minus 1): a host that loads one vCPU's SMT
      // sibling slows that thread alone, which the call's rate cannot tell from slower code (issue 59).
      if (threads > 1) state.counters["thread_rate_spread"] = benchmark::Counter(thread_rate_spread(x.n, thread_seconds));
      // What the mapped arrays' pages were, after their first touch (memory.hpp's PageRecord).
      if (const PageRecord* r = arena.pages(); r != nullptr && r->recorded) {
        state.counters["resident_bytes"] = benchmark::Counter(static_cast<double>(r->totals.resident_bytes));
        state.counters["huge_page_bytes"] = benchmark::Counter(static_cast<double>(r->totals.huge_bytes));
      }
    };
    // The runner calls this body once to calibrate (spec.calibrate), then once per repetition (Google Benchmark's
    // own search instead, should the calibration call fail): every call from the last repetition's on is validated,
    // so the final arrays always are; the calibration call too where the arrays are cache-sized (a wrong kernel
    // fails at once, for the price of a cache read). DRAM-sized arrays are read once for it, not three times
    // (issue 60: the validations were a fifth of the quick sweep's wall).
    // Uncalibrated, the repetitions are the calls from the first (and a trial call of Google Benchmark's search, when
    // there is one, comes before the last): every call from the repetitions' count on is validated.
    const int call = ++*calls;
    const bool fail_fast = call == 1 && working_set < kHugePageThreshold;
    if (!fail_fast && call < repetitions + (calibrated ? 1 : 0)) {
      set_counters();
      return;
    }
    // read never writes: its result is its sum, checked against n x a (which also fails when the arena's fill left
    // other values); the other kernels' arrays are checked element by element. Issue 60: reading every DRAM-sized
    // read set once more to compare values read cannot change was 0.2 s of the quick sweep.
    const PhaseClock::Scope validating = PhaseClock::open(arena.phases(), Phase::validation);
    const StreamCheck check =
        kernel == StreamKernel::read ? validate_read_sum(x, sum) : validate_stream(kernel, x, sum, threads);
    if (!check.ok) {
      arena.forget();
      state.SkipWithError(check.message.c_str());
      return;
    }
    set_counters();
  };
  return spec;
}

// Specs for `kernels` at each of `sizes`, size by size, grouped by arity (kernels sharing a set of arrays run back to
// back on the same allocation), as batches whose repetitions run interleaved: the cache-sized specs in one, then the
// mapped ones (arrays of kHugePageThreshold and more) in one batch per arity. A batch's sets stay alive until it ends
// (StreamArena), so a mixed batch of DRAM-sized sets held every arity's at once: the spot sizes' three at 190 MB, the
// top octave's read and triad sets, 550 MB in all. One arity at a time, the pool's mappings of the last batch serve
// the next (issue 60: on the guests we measure, fresh huge pages are first-touched at 0.4-0.9 GB/s a thread, memory
// the process already holds at 11 GB/s; a quick sweep first-touched 430 MB of 2 MiB pages more than its largest set).
// A (kernel, elements) pair already in `planned` is skipped: rounding to whole steps can map two neighbouring small
// sizes onto the same arrays. The sizes of one arity in a batch ask the arena for one capacity, the largest's elements
// (StreamArena::get: mapped ones share it).
void add_specs(const std::vector<StreamKernel>& kernels, const std::vector<std::uint64_t>& sizes, int threads,
               double overhead_s, const RunConfig& config, StreamArena& arena,
               std::set<std::pair<int, std::size_t>>& planned, std::vector<std::vector<BenchmarkSpec>>& batches,
               PageSize pages, std::uint64_t cache_bytes) {
  std::size_t capacity[4] = {0, 0, 0, 0};
  for (std::uint64_t size : sizes) {
    for (StreamKernel k : kernels) {
      std::size_t& c = capacity[stream_array_count(k)];
      c = std::max(c, elements_for(k, size, element_unit(k, threads, config.features)));
    }
  }
  std::vector<BenchmarkSpec> cached;
  std::vector<BenchmarkSpec> mapped[4];
  std::set<std::pair<int, std::size_t>> sets;  // (arity, elements) of the sets these specs use, as StreamArena::get
  for (std::uint64_t size : sizes) {
    for (int arity = 1; arity <= 3; ++arity) {
      for (StreamKernel k : kernels) {
        if (stream_array_count(k) != arity) continue;
        const std::size_t n = elements_for(k, size, element_unit(k, threads, config.features));
        if (!planned.insert({static_cast<int>(k), n}).second) continue;
        const std::size_t extent = arena.set_elements(n, capacity[arity]);
        const bool first = sets.insert({arity, extent}).second;  // the spec whose first call sets the set up
        const std::uint64_t setup = first ? static_cast<std::uint64_t>(arity) * extent * sizeof(double) : 0;
        BenchmarkSpec spec =
            make_spec(k, n, threads, overhead_s, config, arena, pages, cache_bytes, capacity[arity], setup);
        (n * sizeof(double) >= kHugePageThreshold ? mapped[arity] : cached).push_back(std::move(spec));
      }
    }
  }
  if (!cached.empty()) batches.push_back(std::move(cached));
  for (int arity = 1; arity <= 3; ++arity) {
    if (!mapped[arity].empty()) batches.push_back(std::move(mapped[arity]));
  }
}

}  // namespace roofline

namespace roofline {

ThreadSpecs bandwidth_thread_specs(const BandwidthPlan& plan, const BandwidthThreadPlan& t, const RunConfig& config,
                                   StreamArena& arena, double overhead_s) {
  ThreadSpecs out;
  std::set<std::pair<int, std::size_t>> planned;
  for (const std::vector<std::uint64_t>& batch : octave_batches(t.sweep.sizes, t.sweep.per_octave)) {
    add_specs(plan.swept, batch, t.threads, overhead_s, config, arena, planned, out.batches, PageSize::huge_2m,
              t.cache_bytes);
  }
  add_specs(plan.spot, t.spot_sizes, t.threads, overhead_s, config, arena, planned, out.batches, PageSize::huge_2m,
            t.cache_bytes);
  std::set<std::pair<int, std::size_t>> pages;  // the 4 KiB runs' own: they repeat sizes of the sweep
  add_specs({StreamKernel::read, StreamKernel::triad}, t.small_page_sizes, t.threads, overhead_s, config, arena, pages,
            out.batches, PageSize::base_4k, t.cache_bytes);
  return out;
}

}  // namespace roofline

namespace roofline {

ThreadSpecs bandwidth_kind_specs(const BandwidthPlan& plan, const CoreKind& kind, const RunConfig& config,
                                 StreamArena& arena, double overhead_s) {
  ThreadSpecs out;
  const BandwidthThreadPlan& t = plan.kind_sweep;
  const std::vector<int> pus = {core_kind_pu(arena.machine(), kind)};
  arena.bind_to(pus);
  std::set<std::pair<int, std::size_t>> planned;
  for (const std::vector<std::uint64_t>& batch : octave_batches(t.sweep.sizes, t.sweep.per_octave)) {
    add_specs({StreamKernel::read}, batch, 1, overhead_s, config, arena, planned, out.batches, PageSize::huge_2m,
              t.cache_bytes);
  }
  for (std::vector<BenchmarkSpec>& batch : out.batches) {
    for (BenchmarkSpec& spec : batch) {
      spec.name = core_kind_spec_name(spec.name, kind);
      spec.labels["suite"] = "bandwidth_kind";
      spec.labels["core_kind"] = kind.name;
      // Bound before every call of the body: the arena binds the team when it makes a set, not when it reuses one.
      spec.body = [body = std::move(spec.body), pus](benchmark::State& state) {
        pin_openmp_threads(1, pus);
        body(state);
      };
    }
  }
  return out;
}

}  // namespace roofline
