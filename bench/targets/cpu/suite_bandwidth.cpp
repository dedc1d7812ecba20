// The bandwidth suite: STREAM-style kernels (kernels/stream.hpp) swept over working-set sizes from 4 KiB
// to past the caches, at each thread count, so that analysis/memory_ceilings can find the plateaus and
// ceilings per level. Arrays are allocated and first-touched by the pinned team outside the timed loop;
// each benchmark validates its arrays after timing and fails loudly on a mismatch.
//
// Profiles: `full` sweeps every kernel at 4 sizes per octave. `quick` sweeps `read` and `triad` at 2 sizes
// per octave, stops once the read curve has been flat for two octaves past the knee into DRAM, then runs
// the other kernels at one size in the middle of each level found, which keeps it under 25 s on 2 cores.
// `--sizes` runs every kernel at exactly the sizes given. The settings of both profiles: bench/harness/profile.cpp.
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "roofline/analysis/memory_ceilings.hpp"
#include "roofline/bench/profile.hpp"
#include "roofline/analysis/plateaus.hpp"
#include "roofline/common/huge_pages.hpp"
#include "roofline/common/units.hpp"
#include "roofline/bench/bandwidth_plan.hpp"
#include "roofline/bench/memory.hpp"
#include "roofline/bench/pinning.hpp"
#include "roofline/bench/suite.hpp"

namespace roofline {
using nlohmann::json;

namespace {

// Bytes one timed call moves at least, per thread (see passes_per_call).
constexpr std::uint64_t kCallTargetBytesPerThread = 16ull << 20;
// Arrays of kHugePageThreshold and more (common/huge_pages.hpp) are aligned to a huge page and asked for
// transparent huge pages (fewer TLB misses in DRAM), or, for the 4 KiB-page runs, told not to use them.

// Frees either kind of array: munmap for mapped ones (mapped_bytes > 0), free for heap ones.
struct BufferDeleter {
  std::size_t mapped_bytes = 0;
  void operator()(double* p) const {
    if (mapped_bytes > 0) munmap(p, mapped_bytes);
    else std::free(p);
  }
};
using Buffer = std::unique_ptr<double, BufferDeleter>;

// Arrays under 4 MiB (cache-sized: no page size bounds them) come from the heap, 64-byte aligned. Larger
// ones are mapped fresh, so that every page is first touched by the kernel's team and the mapping is theirs
// alone in /proc/self/smaps, 2 MiB aligned (a huge page can back the first byte), and advised before the
// first touch: MADV_HUGEPAGE for the main sweep, MADV_NOHUGEPAGE for the 4 KiB-page runs.
Buffer allocate(std::size_t n, PageSize pages) {
  const std::size_t bytes = n * sizeof(double);
  if (bytes < kHugePageThreshold) return Buffer(static_cast<double*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64)));
  const std::size_t length = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  void* raw = mmap(nullptr, length + kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  // One huge page more than needed, trimmed to the 2 MiB boundary inside it.
  const auto base = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (base + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  if (aligned > base) munmap(raw, aligned - base);
  if (aligned + length < base + length + kHugePageBytes) {
    munmap(reinterpret_cast<void*>(aligned + length), base + length + kHugePageBytes - aligned - length);
  }
  void* p = reinterpret_cast<void*>(aligned);
  madvise(p, length, pages == PageSize::huge_2m ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  return Buffer(static_cast<double*>(p), BufferDeleter{length});
}

// The arrays of the kernel now being measured. One set is alive at a time: asking for another size,
// arity or thread count frees the old one first, so peak memory is one working set. Google Benchmark runs
// a benchmark's repetitions back to back, so each set is allocated and first-touched once.
class StreamArena {
 public:
  StreamArena(const MachineFacts& machine, BindPolicy bind) : machine_(machine), bind_(bind) {}

  // Arrays for `kernel` at n elements on `pages`, initialized, first touched by the pinned team of `threads`.
  // Empty (n == 0) when memory could not be allocated.
  StreamArrays get(StreamKernel kernel, std::size_t n, int threads, PageSize pages = PageSize::huge_2m) {
    const int arity = stream_array_count(kernel);
    bool fresh = false;
    if (arity != arity_ || n != n_ || threads != threads_ || pages != pages_) {
      release();
      pin_openmp_threads(threads, binding_plan(machine_, threads, bind_));
      for (int i = 0; i < arity; ++i) {
        buffers_[i] = allocate(n, pages);
        if (!buffers_[i]) {
          release();
          return {};
        }
      }
      arity_ = arity;
      n_ = n;
      threads_ = threads;
      pages_ = pages;
      fresh = true;
    }
    // Same arrays, another kernel: put back the initial values the validator expects.
    StreamArrays x = view(kernel);
    if (!has_kernel_ || kernel != kernel_) {
      stream_init(kernel, x, threads);
      kernel_ = kernel;
      has_kernel_ = true;
    }
    if (fresh) record_pages();
    return x;
  }

  void release() {
    for (Buffer& b : buffers_) b.reset();
    arity_ = 0;
    n_ = 0;
    threads_ = 0;
    has_kernel_ = false;
    record_.reset();
  }

  // What the mapped arrays now held got, read once after their first touch; nullptr for heap arrays.
  [[nodiscard]] const PageRecord* pages() const { return record_ ? &*record_ : nullptr; }

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

  // After the first touch of mapped arrays: the pages the kernel gave them.
  void record_pages() {
    if (buffers_[0].get_deleter().mapped_bytes == 0) return;
    std::vector<AddressRange> ranges;
    for (int i = 0; i < arity_; ++i) {
      const auto begin = reinterpret_cast<std::uintptr_t>(buffers_[i].get());
      ranges.push_back({begin, begin + buffers_[i].get_deleter().mapped_bytes});
    }
    record_ = page_record(ranges, pages_);
  }

  const MachineFacts& machine_;
  BindPolicy bind_;
  Buffer buffers_[3];
  PageSize pages_ = PageSize::huge_2m;
  std::optional<PageRecord> record_;
  int arity_ = 0;
  std::size_t n_ = 0;
  int threads_ = 0;
  StreamKernel kernel_ = StreamKernel::copy;
  bool has_kernel_ = false;
};

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

// The entry's name and labels. 4 KiB-page runs are the suite "bandwidth_pages" (analysis/memory_ceilings
// keeps them out of the curve and levels) with "pages:4K" in the name; mapped arrays' entries say the pages
// asked for.
void name_spec(BenchmarkSpec& spec, StreamKernel kernel, std::size_t n, int threads, PageSize pages, Isa isa) {
  const StreamKernelInfo& info = stream_kernel_info(kernel);
  const bool small_pages = pages == PageSize::base_4k;
  spec.name = fmt::format("bandwidth/{}/{}threads:{}/bytes:{}", info.name, small_pages ? "pages:4K/" : "", threads,
                          stream_working_set_bytes(kernel, n));
  spec.labels = {{"suite", small_pages ? "bandwidth_pages" : "bandwidth"}, {"kernel", std::string(info.name)},
                 {"precision", "fp64"}, {"isa", std::string(to_string(isa))}, {"threads", threads}};
  if (n * sizeof(double) >= 2 * kHugePageBytes) spec.labels["pages"] = std::string(to_string(pages));
}

BenchmarkSpec make_spec(StreamKernel kernel, std::size_t n, int threads, double call_overhead_s,
                        const RunConfig& config, StreamArena& arena, PageSize pages = PageSize::huge_2m) {
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
  // read and triad give the key figures that `compare` gates on: the profile's repetitions (5, the fewest
  // with which a Mann-Whitney U test can reach p < 0.05); the others, when only spot-measured, fewer.
  const bool key = kernel == StreamKernel::read || kernel == StreamKernel::triad;
  spec.repetitions = key || settings.bandwidth.sweep_every_kernel ? settings.bandwidth.repetitions
                                                                  : settings.bandwidth.spot_repetitions;
  const int repetitions = spec.repetitions;
  auto calls = std::make_shared<int>(0);
  spec.body = [&arena, kernel, n, threads, passes, bytes_per_call, wa_bytes_per_call, working_set, features,
               repetitions, calls, call_overhead_s, pages](benchmark::State& state) {
    const StreamArrays x = arena.get(kernel, n, threads, pages);
    if (x.n == 0) {
      state.SkipWithError("could not allocate the arrays");
      for (auto _ : state) {
      }
      return;
    }
    double sum = 0.0;
    const auto start = std::chrono::steady_clock::now();
    for (auto _ : state) sum = run_stream_kernel(kernel, x, threads, passes, features);
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
      // What the mapped arrays' pages were, after their first touch (memory.hpp's PageRecord).
      if (const PageRecord* r = arena.pages(); r != nullptr && r->recorded) {
        state.counters["resident_bytes"] = benchmark::Counter(static_cast<double>(r->totals.resident_bytes));
        state.counters["huge_page_bytes"] = benchmark::Counter(static_cast<double>(r->totals.huge_bytes));
      }
    };
    // Google Benchmark calls this body once per repetition (plus its iteration-count estimates): the first
    // call and every call from the last repetition's on are validated, so the final arrays always are,
    // while large working sets are not re-read five times for nothing.
    const int call = ++*calls;
    if (call > 1 && call < repetitions) {
      set_counters();
      return;
    }
    const StreamCheck check = validate_stream(kernel, x, sum, threads);
    if (!check.ok) {
      state.SkipWithError(check.message.c_str());
      return;
    }
    set_counters();
  };
  return spec;
}

// Specs for `kernels` at `size`, grouped by arity (kernels sharing a set of arrays run back to back on the
// same allocation). A (kernel, elements) pair already in `planned` is skipped: rounding to whole steps can
// map two neighbouring small sizes onto the same arrays.
void add_specs(const std::vector<StreamKernel>& kernels, std::uint64_t size, int threads, double overhead_s,
               const RunConfig& config, StreamArena& arena, std::set<std::pair<int, std::size_t>>& planned,
               std::vector<BenchmarkSpec>& specs, PageSize pages = PageSize::huge_2m) {
  for (int arity = 1; arity <= 3; ++arity) {
    for (StreamKernel k : kernels) {
      if (stream_array_count(k) != arity) continue;
      const std::size_t n = elements_for(k, size, element_unit(k, threads, config.features));
      if (!planned.insert({static_cast<int>(k), n}).second) continue;
      specs.push_back(make_spec(k, n, threads, overhead_s, config, arena, pages));
    }
  }
}

// The memory levels the analysis finds in the entries measured so far at `threads` (derive_memory_ceilings
// itself, on the same entries, so that the sweep's decisions and the spot sizes agree with the levels the
// results file will show).
std::vector<LevelLabel> levels_so_far(const std::vector<json>& entries, const json& machine,
                                      const std::string& policy, int threads) {
  const json doc = {{"context", {{"machine", machine}, {"binding", {{"policy", policy}}}}},
                    {"benchmarks", entries}};
  std::vector<LevelLabel> out;
  // Held by name: a range-for over a member of a temporary reads freed memory (ASan found it).
  const json levels = derive_memory_ceilings(doc).value("memory_levels", json::array());
  for (const json& l : levels) {
    if (l.value("threads", 0) != threads || l.value("source", "") != "curve") continue;
    LevelLabel label;
    label.level = l.value("level", "");
    label.min_bytes = l["min_bytes"].is_number() ? l["min_bytes"].get<double>() : 0.0;
    label.max_bytes = l["max_bytes"].is_number() ? l["max_bytes"].get<double>() : 0.0;
    out.push_back(label);
  }
  return out;
}

// Whether the quick sweep may stop: the last level is DRAM, has stayed flat for two octaves up to the
// largest size measured, and the sweep is past twice the reported caches (a flat L3 must not pass for
// DRAM; a VM reporting its host's L3 only costs an octave or two more).
bool sweep_is_done(const std::vector<LevelLabel>& levels, double largest_measured,
                   const std::vector<ReportedLevel>& reported, double& dram_from) {
  if (levels.empty() || levels.back().level != "DRAM") return false;
  const LevelLabel& dram = levels.back();
  if (dram.max_bytes < largest_measured * 0.99 || std::log2(dram.max_bytes / dram.min_bytes) < 2.0 - 1e-9) return false;
  if (!reported.empty() && largest_measured < 2.0 * reported.back().bytes) return false;
  dram_from = dram.min_bytes;
  return true;
}

// One size per level for the spot kernels: the middle of each level's range (DRAM: the second size of its
// plateau; any size there is DRAM-resident and larger ones only cost time); every fourth size without levels.
std::vector<std::uint64_t> spot_sizes_for(const std::vector<LevelLabel>& levels, const std::vector<std::uint64_t>& measured) {
  std::vector<std::uint64_t> out;
  for (const LevelLabel& l : levels) {
    const std::uint64_t s = l.level == "DRAM" ? middle_size(measured, l.min_bytes, l.min_bytes * 2.0)
                                              : middle_size(measured, l.min_bytes, l.max_bytes);
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  if (out.empty()) {
    for (std::size_t i = 0; i < measured.size(); i += 4) out.push_back(measured[i]);
  }
  return out;
}

// The kernels' metadata rows as the results file records them: both word counts, so that either byte
// count can be recomputed from the file.
json kernel_table(const IsaFeatures& features) {
  json rows = json::array();
  for (const StreamKernelInfo& k : stream_kernels()) {
    rows.push_back({{"kernel", std::string(k.name)}, {"words_read", k.words_read},
                    {"words_written", k.words_written}, {"words_write_allocate", k.words_write_allocate},
                    {"flops_per_element", k.flops_per_element}, {"non_temporal", k.non_temporal},
                    {"step_elements", stream_step_elements(k.kernel, features)}});
  }
  return rows;
}

std::vector<std::string> kernel_names(const std::vector<StreamKernel>& kernels) {
  std::vector<std::string> out;
  for (StreamKernel k : kernels) out.emplace_back(stream_kernel_info(k).name);
  return out;
}

// What one run of the suite shares across its thread counts.
struct SuiteRun {
  const RunConfig& config;
  const json machine_json;
  const std::string policy;
  Runner& runner;
  StreamArena& arena;
  SuiteOutput& out;
};

// One thread count's state: what it measured, and what the context records of it.
struct ThreadSweep {
  int threads = 0;
  std::string who;            // "1 thread", "2 threads": for notes
  std::vector<ReportedLevel> reported;
  std::vector<json> entries;  // the swept kernels', for levels_so_far
  std::vector<std::uint64_t> measured;
  std::set<std::pair<int, std::size_t>> planned;
  bool stopped_early = false;
  double overhead_s = 0.0;
  std::vector<std::uint64_t> spot_sizes;
  std::vector<std::uint64_t> small_page_sizes;
  std::set<std::string> unrecorded_pages;  // why a mapped set of arrays has no page record
};

// The batches of the sweep: the planned octaves, then, past the planned end, one more octave (two in `full`,
// within the budget) while the curve has not yet settled on a DRAM plateau: DRAM must be reached in fact, not
// only by the reported cache sizes.
std::vector<std::vector<std::uint64_t>> sweep_batches(const SweepPlan& plan, Profile profile) {
  std::vector<std::vector<std::uint64_t>> batches = octave_batches(plan.sizes, plan.per_octave);
  if (plan.from_user || plan.sizes.empty()) return batches;
  const std::uint64_t last = plan.sizes.back();
  const auto extra_octaves = static_cast<std::uint64_t>(profile_settings(profile).bandwidth.extra_octaves);
  const std::uint64_t limit =
      std::min<std::uint64_t>(extra_octaves * last, plan.cap_bytes > 0 ? plan.cap_bytes : extra_octaves * last);
  std::vector<std::uint64_t> extra;
  for (std::uint64_t s : geometric_sizes(last, limit, plan.per_octave)) {
    if (s > last) extra.push_back(s);
  }
  for (auto& b : octave_batches(extra, plan.per_octave)) batches.push_back(b);
  return batches;
}

// Runs specs and remembers why a mapped set of arrays had no page record.
std::vector<json> run_specs(SuiteRun& run, ThreadSweep& t, const std::vector<BenchmarkSpec>& specs) {
  std::vector<json> entries = run.runner.run(specs);
  for (const json& e : entries) {
    if (e.value("run_type", "") != "iteration" || e.value("error_occurred", false)) continue;
    if (e.contains("labels") && e["labels"].contains("pages") && !e.contains("huge_page_bytes")) {
      if (const PageRecord* r = run.arena.pages(); r != nullptr) t.unrecorded_pages.insert(r->source);
      else t.unrecorded_pages.insert("the arrays were gone before their pages were read");
    }
  }
  return entries;
}

// The swept kernels over the plan's batches; in `quick`, until DRAM has been flat for two octaves.
void sweep(SuiteRun& run, const SweepPlan& plan, const std::vector<StreamKernel>& swept, ThreadSweep& t,
           json& stopped) {
  const RunConfig& config = run.config;
  const bool user = !config.sizes.empty();
  double largest = 0.0;  // the largest size measured so far
  const std::vector<std::vector<std::uint64_t>> batches = sweep_batches(plan, config.profile);
  const std::size_t planned_batches = octave_batches(plan.sizes, plan.per_octave).size();
  for (std::size_t bi = 0; bi < batches.size(); ++bi) {
    const std::vector<std::uint64_t>& batch = batches[bi];
    if (bi == planned_batches) {
      double ignored = 0.0;
      if (sweep_is_done(levels_so_far(t.entries, run.machine_json, run.policy, t.threads), largest, t.reported,
                        ignored)) {
        break;
      }
      run.out.notes.push_back(fmt::format("bandwidth, {}: no flat DRAM plateau by {}; the sweep goes on up to {}.",
                                          t.who, format_bytes(double(plan.sizes.back())),
                                          format_bytes(double(batches.back().back()))));
    }
    std::vector<BenchmarkSpec> specs;
    for (std::uint64_t size : batch) {
      add_specs(swept, size, t.threads, t.overhead_s, config, run.arena, t.planned, specs);
      t.measured.push_back(size);
    }
    for (json& e : run_specs(run, t, specs)) t.entries.push_back(std::move(e));
    largest = std::max(largest, static_cast<double>(batch.back()));
    double dram_from = 0.0;
    // Never stop below the sweep's minimum end: a flat L3 plateau (the 2-thread VM curve is flat from 8 to
    // ~90 MiB) would otherwise pass for DRAM. DRAM must be reached in fact, not only by the curve so far.
    const std::uint64_t stop_floor = plan.capped ? 0 : std::min<std::uint64_t>(kSweepMinEndBytes, plan.sizes.back());
    if (profile_settings(config.profile).bandwidth.stop_when_flat && !user && batch.back() >= stop_floor &&
        sweep_is_done(levels_so_far(t.entries, run.machine_json, run.policy, t.threads), largest, t.reported,
                      dram_from)) {
      t.stopped_early = bi + 1 < planned_batches;
      if (t.stopped_early) {
        stopped[std::to_string(t.threads)] = batch.back();
        run.out.notes.push_back(fmt::format(
            "bandwidth, {}: the quick sweep stopped at {}: flat for two octaves on the DRAM plateau (from {}).", t.who,
            format_bytes(double(batch.back())), format_bytes(dram_from)));
      }
      break;
    }
  }
}

// After the sweep: the spot kernels (quick) at the middle of each level the swept curves show, then read and
// triad on 4 KiB pages at DRAM sizes, as likwid-bench and STREAM allocate, beside the huge-page figures.
void spot_and_small_pages(SuiteRun& run, const std::vector<StreamKernel>& spot, ThreadSweep& t) {
  const std::vector<LevelLabel> levels = levels_so_far(t.entries, run.machine_json, run.policy, t.threads);
  if (!spot.empty()) {
    // The levels as the analysis will find them (the same detection on the same entries), so that each
    // spot size lies inside its level's final range.
    t.spot_sizes = spot_sizes_for(levels, t.measured);
    std::vector<BenchmarkSpec> specs;
    for (std::uint64_t size : t.spot_sizes) {
      add_specs(spot, size, t.threads, t.overhead_s, run.config, run.arena, t.planned, specs);
    }
    run_specs(run, t, specs);
  }
  const double dram_from = !levels.empty() && levels.back().level == "DRAM" ? levels.back().min_bytes : 0.0;
  t.small_page_sizes = small_page_sizes(t.measured, dram_from, t.reported.empty() ? 0.0 : t.reported.back().bytes,
                                       !run.config.sizes.empty());
  std::set<std::pair<int, std::size_t>> planned;  // the 4 KiB runs' own: they repeat sizes of the sweep
  std::vector<BenchmarkSpec> specs;
  for (std::uint64_t size : t.small_page_sizes) {
    add_specs({StreamKernel::read, StreamKernel::triad}, size, t.threads, t.overhead_s, run.config, run.arena, planned,
              specs, PageSize::base_4k);
  }
  run_specs(run, t, specs);
}

// One thread count: the sweep, the spot and 4 KiB-page runs, and its notes and context.
json run_threads(SuiteRun& run, const SweepPlan& plan, const std::vector<StreamKernel>& swept,
                 const std::vector<StreamKernel>& spot, int threads, json& stopped) {
  ThreadSweep t;
  t.threads = threads;
  t.who = fmt::format("{} thread{}", threads, threads == 1 ? "" : "s");
  t.reported = reported_levels(run.machine_json, threads, run.policy);
  t.overhead_s = measure_call_overhead(run.arena, threads, run.config.features);
  sweep(run, plan, swept, t, stopped);
  spot_and_small_pages(run, spot, t);
  run.arena.release();
  if (plan.capped) {
    run.out.notes.push_back(fmt::format("bandwidth, {}: sweep capped at {} by the memory budget (4x the caches "
                                        "would be {}).", t.who, format_bytes(double(plan.sizes.back())),
                                        format_bytes(double(plan.planned_end_bytes))));
  }
  for (const std::string& why : t.unrecorded_pages) {
    run.out.notes.push_back(fmt::format("bandwidth, {}: the pages some arrays got are not recorded: {}.", t.who, why));
  }
  return {{"start_bytes", plan.start_bytes},   {"planned_end_bytes", plan.planned_end_bytes},
          {"end_bytes", t.measured.empty() ? 0 : t.measured.back()},
          {"capped", plan.capped},             {"stopped_early", t.stopped_early},
          {"size_count", t.measured.size()},   {"spot_sizes", t.spot_sizes},
          {"small_page_sizes", t.small_page_sizes},
          {"call_overhead_seconds", t.overhead_s}};
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
  SuiteRun run{config, machine_json, policy, runner, arena, out};
  json per_threads = json::object();
  json stopped = json::object();
  for (std::size_t t = 0; t < config.thread_counts.size(); ++t) {
    const int threads = config.thread_counts[t];
    per_threads[std::to_string(threads)] = run_threads(run, plans[t], swept, spot, threads, stopped);
  }
  out.context = {{"sizes_from", user ? "--sizes" : "profile"},
                 {"points_per_octave", plans.empty() ? 0 : plans.front().per_octave},
                 {"memory_budget_bytes", config.memory_budget_bytes},
                 {"swept_kernels", kernel_names(swept)},
                 {"kernels", kernel_table(config.features)},
                 {"byte_counts", "bytes_per_second: STREAM's convention (the words a kernel names); "
                                 "bytes_per_second_write_allocate: plus the read of each line a cached store "
                                 "writes (copy 3 words, triad 4, write 2; _nt kernels as STREAM's)"},
                 {"spot_kernels", kernel_names(spot)},
                 {"call_target_bytes_per_thread", kCallTargetBytesPerThread},
                 {"huge_pages", "arrays of 4 MiB and more are mapped 2 MiB aligned and madvise(MADV_HUGEPAGE)d "
                                "before their first touch; the suite 'bandwidth_pages' (read and triad at DRAM "
                                "sizes) madvise(MADV_NOHUGEPAGE)s them instead: 4 KiB pages, as likwid-bench and "
                                "STREAM get. Each mapped entry's resident_bytes and huge_page_bytes are the Rss and "
                                "AnonHugePages of its arrays' mappings in /proc/self/smaps after the first touch"},
                 {"small_page_kernels", kernel_names({StreamKernel::read, StreamKernel::triad})},
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
