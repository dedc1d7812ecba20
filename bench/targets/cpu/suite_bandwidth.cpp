// The bandwidth suite: STREAM-style kernels (roofline/kernels/cpu/stream.hpp) swept over working-set sizes from 4 KiB
// to past the caches, at each thread count, so that analysis/model/memory_ceilings.cpp can find the plateaus and
// ceilings per level. Arrays are allocated and first-touched by the pinned team outside the timed loop;
// each benchmark validates its arrays after timing and fails loudly on a mismatch.
//
// It runs the plan (cpu_plan.hpp) and nothing else: every size from 4 KiB to 8x the largest plausible cache those
// threads use (8x 32 MiB per core where the last level's size is not plausible, 1 GiB when none is reported), so DRAM is reached by construction; `full` every kernel at 4 sizes
// per octave, `quick` read and triad at 2 and the other kernels at one size inside each plausible level and one in
// DRAM. No time budget cuts it at run time (the budget shaped the plan). Where DRAM starts is the analysis's one rule
// (memory_ceilings.cpp, warned dram_not_reached where the curve does not show it), not decided here.
// `--sizes` runs every kernel at exactly the sizes given. The settings of both profiles: bench/harness/profile.cpp.
#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "roofline/harness/profile.hpp"
#include "roofline/common/huge_pages.hpp"
#include "roofline/common/units.hpp"
#include "roofline/cpu/bandwidth_plan.hpp"
#include "roofline/facts/memory.hpp"
#include "roofline/facts/pinning.hpp"
#include "roofline/cpu/suite.hpp"
#include "bandwidth_specs.hpp"

namespace roofline {
using nlohmann::json;

namespace {

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
  bool reported_plausible = true;  // else the reported caches are ignored (implausible_caches)
};

// One thread count's state: what it measured, and what the context records of it.
struct ThreadSweep {
  int threads = 0;
  std::string who;            // "1 thread", "2 threads": for notes
  std::set<std::string> unrecorded_pages;  // why a mapped set of arrays has no page record
};

// Runs specs and remembers why a mapped set of arrays had no page record.
void run_specs(SuiteRun& run, ThreadSweep& t, const std::vector<BenchmarkSpec>& specs) {
  if (specs.empty()) return;
  for (const json& e : run.runner.run(specs)) {
    if (e.value("run_type", "") != "iteration" || e.value("error_occurred", false)) continue;
    if (e.contains("labels") && e["labels"].contains("pages") && !e.contains("huge_page_bytes")) {
      if (const PageRecord* r = run.arena.pages(); r != nullptr) t.unrecorded_pages.insert(r->source);
      else t.unrecorded_pages.insert("the arrays were gone before their pages were read");
    }
  }
}

// One thread count: its planned sweep (octave by octave), spot and 4 KiB-page runs, and its notes and context.
json run_threads(SuiteRun& run, const BandwidthPlan& plan, const BandwidthThreadPlan& tp) {
  ThreadSweep t;
  t.threads = tp.threads;
  t.who = fmt::format("{} thread{}", tp.threads, tp.threads == 1 ? "" : "s");
  const double overhead_s = [&] {
    const PhaseClock::Scope probing = PhaseClock::open(&run.runner.phases(), Phase::probes);
    return measure_call_overhead(run.arena, tp.threads, run.config.features);
  }();
  const ThreadSpecs specs = bandwidth_thread_specs(plan, tp, run.config, run.arena, overhead_s);
  for (const std::vector<BenchmarkSpec>& batch : specs.batches) {
    run_specs(run, t, batch);
    run.arena.end_batch();
  }
  run.arena.release();
  const SweepPlan& sweep = tp.sweep;
  for (const std::string& why : t.unrecorded_pages) {
    run.out.notes.push_back(fmt::format("bandwidth, {}: the pages some arrays got are not recorded: {}.", t.who, why));
  }
  return {{"start_bytes", sweep.start_bytes},   {"planned_end_bytes", sweep.planned_end_bytes},
          {"end_bytes", sweep.sizes.empty() ? 0 : sweep.sizes.back()},
          {"capped", sweep.capped},             {"stopped_early", false},
          {"size_count", sweep.sizes.size()},   {"spot_sizes", tp.spot_sizes},
          {"small_page_sizes", tp.small_page_sizes},
          {"largest_cache_bytes", tp.cache_bytes > 0 ? json(tp.cache_bytes) : json(nullptr)},
          {"call_overhead_seconds", overhead_s}};
}

// A hybrid CPU's core kind: `read` swept at 1 thread on a PU of the kind, its arrays made and first-touched there (an
// arena of its own, bound to that PU).
json run_kind(SuiteRun& run, const BandwidthPlan& plan, const CoreKind& kind, std::uint64_t keep_bytes,
              const MachineFacts& machine) {
  StreamArena arena(machine, run.config.bind, keep_bytes);
  arena.bind_to({core_kind_pu(machine, kind)});
  ThreadSweep t;
  t.threads = 1;
  t.who = "1 thread on core kind " + kind.name;
  SuiteRun kind_run{run.config, run.machine_json, run.policy, run.runner, arena, run.out, run.reported_plausible};
  arena.count_on(&run.runner.phases());
  const double overhead_s = [&] {
    const PhaseClock::Scope probing = PhaseClock::open(&run.runner.phases(), Phase::probes);
    return measure_call_overhead(arena, 1, run.config.features);
  }();
  const ThreadSpecs specs = bandwidth_kind_specs(plan, kind, run.config, arena, overhead_s);
  for (const std::vector<BenchmarkSpec>& batch : specs.batches) {
    run_specs(kind_run, t, batch);
    arena.end_batch();
  }
  arena.release();
  for (const std::string& why : t.unrecorded_pages) {
    run.out.notes.push_back(fmt::format("bandwidth, {}: the pages some arrays got are not recorded: {}.", t.who, why));
  }
  return {{"core_kind", kind.name}, {"pu", core_kind_pu(machine, kind)}, {"call_overhead_seconds", overhead_s}};
}

}  // namespace

void run_bandwidth_suite(const RunConfig& config, const MachineFacts& machine, Runner& runner, SuiteOutput& out,
                         CpuRunState& state) {
  const BandwidthPlan& plan = state.plan.bandwidth;
  const bool user = !config.sizes.empty();
  const json machine_json = to_json(machine);
  const std::string policy(to_string(config.bind));
  for (const std::string& n : plan.notes) out.notes.push_back("bandwidth: " + n);

  // Array sets stay alive across a batch's interleaved repetitions: up to 3x the largest planned working set (a
  // batch's cache-sized sets; its mapped ones are one arity's, carved from one set: bandwidth_specs.hpp), at most half
  // of what this run may use.
  std::uint64_t largest = 0;
  for (const BandwidthThreadPlan& tp : plan.per_threads) {
    if (!tp.sweep.sizes.empty()) largest = std::max(largest, tp.sweep.sizes.back());
  }
  // Freed sets' mappings stay in the process's pool for reuse (roofline/common/huge_pages.hpp; limit set by measure()).
  const std::uint64_t keep = std::min(3 * largest, config.memory_budget_bytes / 2);
  int widest = 0;
  for (const BandwidthThreadPlan& tp : plan.per_threads) widest = std::max(widest, tp.threads);
  StreamArena arena(machine, config.bind, keep, widest);
  arena.count_on(&runner.phases());
  SuiteRun run{config, machine_json, policy, runner, arena, out, plan.implausible.empty()};
  json per_threads = json::object();
  for (const BandwidthThreadPlan& tp : plan.per_threads) per_threads[std::to_string(tp.threads)] = run_threads(run, plan, tp);
  json kinds = json::array();
  for (const CoreKind& k : plan.kinds) kinds.push_back(run_kind(run, plan, k, keep, machine));
  out.context = {{"sizes_from", user ? "--sizes" : "profile"},
                 {"points_per_octave", plan.per_octave},
                 {"memory_budget_bytes", config.memory_budget_bytes},
                 {"largest_size_bytes", config.memory_budget_bytes},
                 {"reported_caches_ignored", plan.implausible},
                 {"sweep_end", fmt::format("{}x the largest plausible cache the threads use ({} per core they use where "
                                           "the last level's size is not plausible), {} when no cache is reported, at "
                                           "most the memory budget (roofline/harness/sweep_plan.hpp)",
                                           kSweepEndCacheFactor, format_bytes(kLargestRealL3BytesPerCore),
                                           format_bytes(double(kSweepDefaultEndBytes)))},
                 {"stop_rule", kNoStopRule},
                 {"swept_kernels", kernel_names(plan.swept)},
                 {"kernels", kernel_table(config.features)},
                 {"byte_counts", "bytes_per_second: STREAM's convention (the words a kernel names); "
                                 "bytes_per_second_write_allocate: plus the read of each line a cached store "
                                 "writes (copy 3 words, triad 4, write 2; _nt kernels as STREAM's)"},
                 {"spot_kernels", kernel_names(plan.spot)},
                 {"call_target_bytes_per_thread", kCallTargetBytesPerThread},
                 {"huge_pages", "arrays of 4 MiB and more are mapped 2 MiB aligned and madvise(MADV_HUGEPAGE)d "
                                "before their first touch; the suite 'bandwidth_pages' (read and triad at DRAM "
                                "sizes) madvise(MADV_NOHUGEPAGE)s them instead: 4 KiB pages, as likwid-bench and "
                                "STREAM get. Each mapped entry's resident_bytes and huge_page_bytes are the Rss and "
                                "AnonHugePages of its arrays' mappings in /proc/self/smaps after the first touch"},
                 {"small_page_kernels", kernel_names({StreamKernel::read, StreamKernel::triad})},
                 {"per_threads", per_threads},
                 {"stopped_early_at_bytes", json::object()}};
  if (!plan.spot.empty()) {
    out.notes.push_back(fmt::format("bandwidth: the quick profile sweeps {} at {} sizes per octave and measures "
                                    "{} at one size inside each plausible cache level and one in DRAM.",
                                    fmt::join(kernel_names(plan.swept), ", "), plan.per_octave,
                                    fmt::join(kernel_names(plan.spot), ", ")));
  }
  if (!kinds.empty()) out.context["core_kinds"] = kinds;
  // The largest plausible cache at the most threads: the gemm suite's shapes are sized past it (the plan's).
  if (!plan.per_threads.empty()) {
    const std::uint64_t largest = plan.per_threads.back().cache_bytes;
    out.context["largest_cache_bytes"] = largest > 0 ? json(largest) : json(nullptr);
  }
}

}  // namespace roofline
