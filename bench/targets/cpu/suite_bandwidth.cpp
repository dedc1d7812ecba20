// The bandwidth suite: STREAM-style kernels (kernels/stream.hpp) swept over working-set sizes from 4 KiB
// to past the caches, at each thread count, so that analysis/memory_ceilings can find the plateaus and
// ceilings per level. Arrays are allocated and first-touched by the pinned team outside the timed loop;
// each benchmark validates its arrays after timing and fails loudly on a mismatch.
//
// Profiles: `full` sweeps every kernel at 4 sizes per octave. `quick` sweeps `read` and `triad` at 2 sizes
// per octave, stops once the read curve has reached DRAM (sweep_stop.hpp: fallen below the last cache plateau,
// then flat within its own noise for an octave), never past 1 GiB, then runs the other kernels at one size in
// the middle of each level found. Both stay inside the suite's time budget (profile.cpp), split evenly between
// the thread counts; what the budget cuts is named in a note.
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

#include "roofline/analysis/memory_ceilings.hpp"
#include "roofline/bench/profile.hpp"
#include "roofline/analysis/plateaus.hpp"
#include "roofline/common/huge_pages.hpp"
#include "roofline/common/units.hpp"
#include "roofline/bench/bandwidth_plan.hpp"
#include "roofline/bench/memory.hpp"
#include "roofline/bench/pinning.hpp"
#include "roofline/bench/suite.hpp"
#include "roofline/bench/sweep_stop.hpp"
#include "bandwidth_specs.hpp"

namespace roofline {
using nlohmann::json;

namespace {

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

// The read curve measured so far at one thread count, as the stop rule (sweep_stop.hpp) takes it: each size's
// repetitions' bandwidths.
std::vector<SweepPoint> read_points(const std::vector<json>& entries) {
  std::map<std::uint64_t, std::vector<double>> by_size;
  for (const json& e : entries) {
    if (e.value("run_type", "") != "iteration" || e.value("error_occurred", false)) continue;
    if (!e.contains("labels") || e["labels"].value("kernel", "") != "read") continue;
    if (!e.contains("bytes_per_second") || !e.contains("working_set_bytes")) continue;
    by_size[static_cast<std::uint64_t>(e["working_set_bytes"].get<double>())].push_back(e["bytes_per_second"].get<double>());
  }
  std::vector<SweepPoint> out;
  for (auto& [bytes, bw] : by_size) out.push_back({bytes, std::move(bw)});
  return out;
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
  bool reported_plausible = true;  // else the reported caches are ignored (implausible_caches)
};

// One thread count's state: what it measured, and what the context records of it.
struct ThreadSweep {
  int threads = 0;
  std::string who;            // "1 thread", "2 threads": for notes
  std::vector<ReportedLevel> reported;
  std::vector<json> entries;  // the swept kernels', for the stop rule and levels_so_far
  std::vector<std::uint64_t> measured;
  std::set<std::pair<int, std::size_t>> planned;
  bool stopped_early = false;
  bool dram_reached = false;
  std::string stop_why;
  std::uint64_t dram_from = 0;
  double overhead_s = 0.0;
  double deadline_s = 1e30;   // the suite budget's elapsed time by which this thread count is done
  double sweep_s = 0.0;       // wall time of the sweep's batches, and how many benchmarks they ran:
  std::size_t sweep_specs = 0;  // what one more benchmark costs here, for the estimates after the sweep
  std::vector<std::uint64_t> spot_sizes;
  std::vector<std::uint64_t> small_page_sizes;
  double largest_cache = 0.0;  // the largest cache level's upper end on the curve (0: none found)
  std::set<std::string> unrecorded_pages;  // why a mapped set of arrays has no page record
};

// The batches of the sweep: the planned octaves, then, past the planned end, more octaves (up to extra_octaves x
// the planned end, the cap, and the profile's largest size) while the curve has not yet reached DRAM: DRAM must be
// reached in fact, not only by the reported cache sizes.
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

// Whether work estimated at `estimate_s` fits both the suite's budget and this thread count's share of it.
// A --sizes list is the work asked for, every size of it: no budget cuts it.
bool fits(const SuiteRun& run, const ThreadSweep& t, double estimate_s) {
  if (!run.config.sizes.empty()) return true;
  const SuiteBudget& b = run.runner.budget();
  return b.allows(estimate_s) && (!b.bounded() || b.elapsed() + estimate_s <= t.deadline_s);
}

// The least size the sweep may stop at: twice a plausible reported last-level cache, at least kSweepMinEndBytes (a
// flat L3 plateau, as the 2-thread VM curve's from 8 to ~90 MiB, must not pass for DRAM), at most the plan's end.
std::uint64_t least_end(const SuiteRun& run, const SweepPlan& plan, const ThreadSweep& t) {
  if (plan.capped || plan.sizes.empty()) return 0;
  const double reach = run.reported_plausible && !t.reported.empty() ? t.reported.back().bytes : 0.0;
  return std::min<std::uint64_t>(std::max<std::uint64_t>(kSweepMinEndBytes, static_cast<std::uint64_t>(2.0 * reach)),
                                 plan.sizes.back());
}

// The swept kernels over the plan's batches; in `quick`, until the read curve reaches DRAM; in any profile,
// while the next batch (estimated at twice the last one: its sizes are twice as large) fits the budget.
void sweep(SuiteRun& run, const SweepPlan& plan, const std::vector<StreamKernel>& swept, ThreadSweep& t) {
  const RunConfig& config = run.config;
  const bool user = !config.sizes.empty();
  const std::vector<std::vector<std::uint64_t>> batches = sweep_batches(plan, config.profile);
  const std::size_t planned_batches = octave_batches(plan.sizes, plan.per_octave).size();
  const std::uint64_t floor = least_end(run, plan, t);
  double last_batch_s = 0.0, growth = 1.0;  // small sizes first: each octave costs about the same
  for (std::size_t bi = 0; bi < batches.size(); ++bi) {
    const std::vector<std::uint64_t>& batch = batches[bi];
    // The next octave costs the last one's time times their growth (1x while a call's fixed costs dominate, up to
    // 2x once the arrays are large).
    if (bi > 0 && !fits(run, t, growth * last_batch_s)) {
      run.out.notes.push_back(run.runner.budget().cut(
          "bandwidth", fmt::format("{}: the sweep stopped at {}, before {} to {}{}", t.who,
                                   format_bytes(double(t.measured.back())), format_bytes(double(batch.front())),
                                   format_bytes(double(batches.back().back())),
                                   t.dram_reached ? "" : " (DRAM not yet reached on the curve)")));
      break;
    }
    if (bi == planned_batches && !t.dram_reached) {
      run.out.notes.push_back(fmt::format("bandwidth, {}: the read curve has not reached DRAM by {} ({}); the sweep "
                                          "goes on up to {}.", t.who, format_bytes(double(plan.sizes.back())),
                                          t.stop_why, format_bytes(double(batches.back().back()))));
    }
    const auto started = std::chrono::steady_clock::now();
    std::vector<BenchmarkSpec> specs;
    for (std::uint64_t size : batch) {
      add_specs(swept, size, t.threads, t.overhead_s, config, run.arena, t.planned, specs);
      t.measured.push_back(size);
    }
    for (json& e : run_specs(run, t, specs)) t.entries.push_back(std::move(e));
    const double batch_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (last_batch_s > 0.0) growth = std::clamp(batch_s / last_batch_s, 1.0, 2.0);
    last_batch_s = batch_s;
    t.sweep_s += batch_s;
    t.sweep_specs += specs.size();
    if (user) continue;
    const DramVerdict v = dram_reached(read_points(t.entries), floor);
    t.dram_reached = v.reached;
    t.stop_why = v.why;
    t.dram_from = v.from_bytes;
    if (!v.reached || !profile_settings(config.profile).bandwidth.stop_when_flat) continue;
    t.stopped_early = bi + 1 < batches.size();
    if (t.stopped_early) {
      run.out.notes.push_back(fmt::format("bandwidth, {}: the quick sweep stopped at {}: DRAM reached ({}).", t.who,
                                          format_bytes(double(batch.back())), v.why));
    }
    break;
  }
}

// After the sweep: the spot kernels (quick) at the middle of each level the swept curves show, then read and
// triad on 4 KiB pages at DRAM sizes, as likwid-bench and STREAM allocate, beside the huge-page figures; each
// left out (and said) when the budget has no room for it.
void spot_and_small_pages(SuiteRun& run, const std::vector<StreamKernel>& spot, ThreadSweep& t) {
  const std::vector<LevelLabel> levels = levels_so_far(t.entries, run.machine_json, run.policy, t.threads);
  const double min_time = profile_settings(run.config.profile).bandwidth.min_time_s;
  // The GEMM suite sizes its quick shapes at 4x this: where the curve is DRAM, not where the last cache plateau
  // ends (a VM's L3 keeps serving part of a working set well past its plateau: GEMVs of 100 MiB read 14-18% above
  // the DRAM roof on this Zen 5 guest, whose 2 vCPUs sit on two CCDs). Rounded up to a power of two, so that two
  // runs whose DRAM starts a sweep step apart usually get the same shapes (key figures compare like with like).
  double cache_end = 0.0, dram_start = 0.0;
  for (const LevelLabel& l : levels) {
    if (l.level != "DRAM") cache_end = std::max(cache_end, l.max_bytes);
    if (l.level == "DRAM") dram_start = l.min_bytes;
  }
  const double end = std::max(cache_end, dram_start);
  t.largest_cache = end > 0.0 ? std::exp2(std::ceil(std::log2(end))) : 0.0;
  if (!spot.empty()) {
    // The levels as the analysis will find them (the same detection on the same entries), so that each
    // spot size lies inside its level's final range.
    t.spot_sizes = spot_sizes_for(levels, t.measured);
    std::vector<BenchmarkSpec> specs;
    for (std::uint64_t size : t.spot_sizes) {
      add_specs(spot, size, t.threads, t.overhead_s, run.config, run.arena, t.planned, specs);
    }
    const double per_spec = t.sweep_specs > 0 ? t.sweep_s / static_cast<double>(t.sweep_specs) : 6.0 * min_time;
    const double estimate = static_cast<double>(specs.size()) * per_spec;
    if (fits(run, t, estimate)) {
      run_specs(run, t, specs);
    } else {
      run.out.notes.push_back(run.runner.budget().cut("bandwidth", fmt::format("{}: the spot kernels ({} runs)", t.who,
                                                                               specs.size())));
      t.spot_sizes.clear();
    }
  }
  const double dram_from = !levels.empty() && levels.back().level == "DRAM" ? levels.back().min_bytes
                           : t.dram_reached                                   ? double(t.dram_from)
                                                                               : 0.0;
  // Without a plausible reported cache, DRAM sizes are those from kSweepMinEndBytes (the least end of a sweep).
  const double reach = run.reported_plausible && !t.reported.empty() ? t.reported.back().bytes
                                                                     : static_cast<double>(kSweepMinEndBytes) / 2.0;
  t.small_page_sizes = small_page_sizes(t.measured, dram_from, reach, !run.config.sizes.empty());
  std::set<std::pair<int, std::size_t>> planned;  // the 4 KiB runs' own: they repeat sizes of the sweep
  std::vector<BenchmarkSpec> specs;
  double bytes = 0.0;
  for (std::uint64_t size : t.small_page_sizes) {
    add_specs({StreamKernel::read, StreamKernel::triad}, size, t.threads, t.overhead_s, run.config, run.arena, planned,
              specs, PageSize::base_4k);
    bytes += static_cast<double>(size);
  }
  // A first touch of 4 KiB pages costs about a second per 4 GiB; each repetition at least its minimum time.
  const double estimate = bytes / 4e9 + static_cast<double>(specs.size()) * 6.0 * min_time;
  if (specs.empty() || fits(run, t, estimate)) {
    run_specs(run, t, specs);
  } else {
    run.out.notes.push_back(run.runner.budget().cut(
        "bandwidth", fmt::format("{}: read and triad on 4 KiB pages at {}", t.who,
                                 format_bytes(double(t.small_page_sizes.front())))));
    t.small_page_sizes.clear();
  }
}

// One thread count: the sweep, the spot and 4 KiB-page runs, and its notes and context.
json run_threads(SuiteRun& run, const SweepPlan& plan, const std::vector<StreamKernel>& swept,
                 const std::vector<StreamKernel>& spot, int threads, double deadline_s) {
  ThreadSweep t;
  t.threads = threads;
  t.who = fmt::format("{} thread{}", threads, threads == 1 ? "" : "s");
  t.reported = reported_levels(run.machine_json, threads, run.policy);
  t.deadline_s = deadline_s;
  t.overhead_s = measure_call_overhead(run.arena, threads, run.config.features);
  sweep(run, plan, swept, t);
  spot_and_small_pages(run, spot, t);
  run.arena.release();
  if (plan.capped) {
    run.out.notes.push_back(fmt::format("bandwidth, {}: sweep capped at {} by {} (4x the caches would be {}).", t.who,
                                        format_bytes(double(plan.sizes.back())),
                                        plan.cap_bytes < run.config.memory_budget_bytes || run.config.memory_budget_bytes == 0
                                            ? "the profile's largest size"
                                            : "the memory budget",
                                        format_bytes(double(plan.planned_end_bytes))));
  }
  for (const std::string& why : t.unrecorded_pages) {
    run.out.notes.push_back(fmt::format("bandwidth, {}: the pages some arrays got are not recorded: {}.", t.who, why));
  }
  return {{"start_bytes", plan.start_bytes},   {"planned_end_bytes", plan.planned_end_bytes},
          {"end_bytes", t.measured.empty() ? 0 : t.measured.back()},
          {"capped", plan.capped},             {"stopped_early", t.stopped_early},
          {"dram_reached", t.dram_reached},    {"dram_from_bytes", t.dram_reached ? json(t.dram_from) : json(nullptr)},
          {"stop_rule", t.stop_why},
          {"size_count", t.measured.size()},   {"spot_sizes", t.spot_sizes},
          {"small_page_sizes", t.small_page_sizes},
          {"largest_cache_bytes", t.largest_cache > 0.0 ? json(t.largest_cache) : json(nullptr)},
          {"call_overhead_seconds", t.overhead_s}};
}

// The largest working set this run's sweep may reach: the memory budget, and in `quick` the profile's largest size.
std::uint64_t sweep_cap(const RunConfig& config) {
  const std::uint64_t profile_max = profile_settings(config.profile).bandwidth.max_end_bytes;
  if (profile_max == 0 || !config.sizes.empty()) return config.memory_budget_bytes;
  if (config.memory_budget_bytes == 0) return profile_max;
  return std::min(profile_max, config.memory_budget_bytes);
}

}  // namespace

void run_bandwidth_suite(const RunConfig& config, const MachineFacts& machine, Runner& runner, SuiteOutput& out,
                         CpuRunState& state) {
  const bool user = !config.sizes.empty();
  const std::vector<StreamKernel> swept = swept_kernels(config.profile, user);
  const std::vector<StreamKernel> spot = spot_kernels(config.profile, user);
  const json machine_json = to_json(machine);
  const std::string policy(to_string(config.bind));
  const std::vector<std::string> implausible = implausible_caches(machine);
  for (const std::string& why : implausible) {
    out.notes.push_back(fmt::format("bandwidth: {}: the sweep's end comes from the curve alone.", why));
  }

  // Plans first: a bad --sizes list fails before anything is measured.
  std::vector<SweepPlan> plans;
  for (int threads : config.thread_counts) {
    const std::vector<ReportedLevel> reported = reported_levels(machine_json, threads, policy);
    const double reach = reported.empty() || !implausible.empty() ? 0.0 : reported.back().bytes;
    plans.push_back(plan_sweep(config.profile, config.sizes, static_cast<std::uint64_t>(reach), sweep_cap(config)));
  }

  StreamArena arena(machine, config.bind);
  SuiteRun run{config, machine_json, policy, runner, arena, out, implausible.empty()};
  json per_threads = json::object();
  json stopped = json::object();
  for (std::size_t t = 0; t < config.thread_counts.size(); ++t) {
    const int threads = config.thread_counts[t];
    // Each thread count gets an even share of what is left of the budget.
    const SuiteBudget& budget = runner.budget();
    const double share = budget.left() / static_cast<double>(config.thread_counts.size() - t);
    per_threads[std::to_string(threads)] =
        run_threads(run, plans[t], swept, spot, threads, budget.bounded() ? budget.elapsed() + share : 1e30);
    if (per_threads[std::to_string(threads)]["stopped_early"].get<bool>()) {
      stopped[std::to_string(threads)] = per_threads[std::to_string(threads)]["end_bytes"];
    }
  }
  out.context = {{"sizes_from", user ? "--sizes" : "profile"},
                 {"points_per_octave", plans.empty() ? 0 : plans.front().per_octave},
                 {"memory_budget_bytes", config.memory_budget_bytes},
                 {"largest_size_bytes", sweep_cap(config)},
                 {"reported_caches_ignored", implausible},
                 {"stop_rule", "DRAM is reached when the read curve has fallen below the last cache plateau and stays "
                               "within the noise of its own repetitions for an octave (bench/targets/cpu/sweep_stop.hpp)"},
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
  // The largest cache level the curve showed at the most threads: the gemm suite sizes its operands past it.
  if (!config.thread_counts.empty()) {
    const json& largest = per_threads[std::to_string(config.thread_counts.back())]["largest_cache_bytes"];
    out.context["largest_cache_bytes"] = largest;
    state.largest_cache_bytes = largest.is_number() ? largest.get<double>() : 0.0;
  }
}

}  // namespace roofline
