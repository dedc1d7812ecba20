// The dequant-dot rows of the compute suite (issue 38): every block-format x ISA kernel this CPU (under the
// --max-isa cap) runs (roofline/kernels/cpu/quant_dot.hpp), a GEMV of weights in their block format times one activation
// vector quantized as llama.cpp quantizes it, with the weights in L1 and in L2 (half of each level per
// thread, so that the activations and the stack stay beside them): compute-bound, the rate a runtime's unpack
// and dot can reach, the ceiling `roofline llm` bounds a quantized step by. 2048 weights per row (a small
// model's hidden size; 8 q8_k blocks). A call repeats the GEMV to about 8M weights per thread (milliseconds at
// these rates), timed alone; a repetition's rate is its fastest call, as for the FMA peaks. Every output of the
// first call and of the last repetition's last call is checked against the double-precision dequantized reference
// after timing.
// Then the GEMV placements (suite "dequant_gemv"): each format's best kernel over weights in DRAM (at least
// 128 MiB and 4x what DRAM-resident means for the threads: dequant_gemv_weight_bytes) at batch 1, 2, 4, 8 and 16 at every thread count (quick: batch 1 at the largest),
// one activation column after another over each chunk of rows (ggml's vec_dot path), placed by analysis/ against the DRAM roof and the format's own dequant-dot roof;
// every 61st row of every column of the last repetition's output is checked against the reference (the whole check
// would take longer than the run).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "roofline/common/statistics.hpp"
#include "roofline/cpu/cpu_plan.hpp"
#include "roofline/facts/pinning.hpp"
#include "roofline/harness/profile.hpp"
#include "roofline/cpu/suite.hpp"
#include "roofline/kernels/cpu/quant_dot.hpp"

namespace roofline {
using nlohmann::json;

namespace {
constexpr std::int64_t kCols = 2048;
constexpr double kWeightsPerCall = 8.0e6;  // per thread
constexpr std::int64_t kGemvRowStride = 61;  // rows checked in the DRAM GEMVs

struct Placement {
  Level level;
  std::uint64_t bytes_per_thread;  // the weights' share of one thread
};

// Half of each planned private level per thread (L1d, L2), from the machine's facts; 48 KiB / 1 MiB when unknown.
std::vector<Placement> placements(const std::vector<Level>& levels, const MachineFacts& machine) {
  std::uint64_t l1 = 48 * 1024, l2 = 1024 * 1024;
  for (const CacheInfo& c : machine.caches) {
    if (c.type == "instruction" || c.size_bytes == 0) continue;
    const std::uint64_t share = c.size_bytes / std::max(1, c.cores_per_instance);
    if (c.level == 1) l1 = share;
    if (c.level == 2) l2 = share;
  }
  std::vector<Placement> out;
  for (const Level level : levels) {
    if (level != Level::L1 && level != Level::L2) {
      std::fprintf(stderr, "dequant-dot: weights planned in %s, a level without a private share\n",
                   std::string(to_string(level)).c_str());
      std::abort();
    }
    out.push_back({level, (level == Level::L1 ? l1 : l2) / 2});
  }
  return out;
}

json variant_json(const QuantDotVariant& v) {
  return {{"variant", std::string(v.name)},
          {"kernel", "dequant_dot"},
          {"format", std::string(to_string(v.format))},
          {"isa", std::string(v.isa_name)},
          {"isa_level", std::string(to_string(v.isa))},
          {"vector_bits", v.vector_bits},
          {"instruction", std::string(v.instruction)},
          {"activations", std::string(quant_activations(v.format))},
          {"block_weights", quant_block_weights(v.format)},
          {"block_bytes", quant_block_bytes(v.format)}};
}

std::string not_supported_reason(const QuantDotVariant& v, const RunConfig& config, const MachineFacts& machine) {
  // machine.isa is the detected set before the cap: runnable there means only the cap stops it.
  if (quant_dot_runnable(v, machine.isa)) return fmt::format("above --max-isa {}", to_string(config.max_isa));
  return "CPU lacks the feature";
}

BenchmarkSpec dequant_spec(const QuantDotVariant& v, const Placement& where, int threads, const std::vector<int>& pus,
                           const ProfileSettings& settings, PhaseClock* phases) {
  const std::int64_t row_bytes = quant_row_bytes(v.format, kCols);
  const std::int64_t rows_per_thread = std::max<std::int64_t>(1, static_cast<std::int64_t>(where.bytes_per_thread) / row_bytes);
  const std::int64_t rows = rows_per_thread * threads;
  BenchmarkSpec spec;
  spec.name = dequant_dot_spec_name(v, where.level, threads);
  spec.labels = variant_json(v);
  spec.labels["suite"] = "dequant_dot";
  spec.labels["level"] = std::string(to_string(where.level));
  spec.labels["threads"] = threads;
  spec.labels["batch"] = 1;
  spec.labels["rows"] = rows;
  spec.labels["cols"] = kCols;
  spec.repetitions = settings.compute.repetitions;
  spec.min_time_s = settings.compute.min_time_s;
  spec.calibrate = true;  // each repetition's window from the call's own rate (runner.hpp)
  const int repetitions = spec.repetitions;
  auto invocations = std::make_shared<int>(0);
  spec.body = [&v, threads, pus, rows, rows_per_thread, row_bytes, repetitions, invocations,
               phases](benchmark::State& state) {
    PhaseClock::Scope setting_up(phases, Phase::setup);
    pin_openmp_threads(threads, pus);
    const QuantMatrix w = make_quant_matrix(v.format, rows, kCols, 38);
    const QuantVector x = make_quant_vector(v.format, kCols, 39);
    const int repeats = static_cast<int>(std::max<double>(1.0, kWeightsPerCall / static_cast<double>(rows_per_thread * kCols)));
    std::vector<float> y(static_cast<std::size_t>(rows));
    run_quant_gemv(v, w, &x, 1, threads, y.data(), repeats);  // warm-up: the team, the caches, the wide units
    setting_up.close();
    double best = std::numeric_limits<double>::infinity(), total = 0.0;
    long calls = 0;
    std::vector<double> thread_seconds(static_cast<std::size_t>(threads), 0.0);
    for (auto _ : state) {
      const auto t0 = std::chrono::steady_clock::now();
      run_quant_gemv(v, w, &x, 1, threads, y.data(), repeats, thread_seconds.data());
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      best = std::min(best, s);
      total += s;
      ++calls;
      benchmark::DoNotOptimize(y.data());
    }
    const double weights = static_cast<double>(rows) * kCols * repeats;
    state.counters["weights_per_second"] = weights / best;
    state.counters["weights_per_second_average"] = calls > 0 ? weights * calls / total : 0.0;
    state.counters["flop_per_second"] = kQuantFlopPerWeight * weights / best;
    state.counters["bytes_per_second"] = static_cast<double>(rows * row_bytes) * repeats / best;
    state.counters["working_set_bytes"] =
        static_cast<double>(rows * row_bytes + quant_activation_bytes(v.format, kCols));
    // The threads' own rates over the repetition (bandwidth_specs.cpp says why; issue 59).
    if (threads > 1) {
      std::vector<double> thread_rows;
      for (int t = 0; t < threads; ++t) {
        const auto [begin, end] = quant_gemv_rows(rows, threads, t);
        thread_rows.push_back(static_cast<double>(end - begin));
      }
      state.counters["thread_rate_spread"] = rate_spread(thread_rows, thread_seconds);
    }
    // The first call's output (a wrong kernel fails at once) and the last repetition's are checked, not every
    // repetition's: each call writes the same y (issue 60: the reference was a twentieth of the compute suite's wall).
    if (const int call = ++*invocations; call == 1 || call >= repetitions) {
      const PhaseClock::Scope validating = PhaseClock::open(phases, Phase::validation);
      if (auto err = validate_quant_gemv(w, &x, 1, y.data())) state.SkipWithError(err->c_str());
    }
  };
  return spec;
}

// The weights of one format's GEMVs, made by the first of its specs that runs and shared by the others, in the
// one storage every format's weights are made in (paged in once: the quick profile's cost is mostly pages).
struct SharedWeights {
  std::shared_ptr<QuantMatrix> storage;
  std::shared_ptr<bool> made;  // this format's weights are in the storage
  // The spec whose call ran last over these weights (its batch and threads), {0, 0}: none yet. A call right after one
  // of the same spec needs no warm-up: its team is awake and the weights are as a warm-up would leave them (DRAM-sized).
  std::shared_ptr<std::pair<int, int>> last_spec;
};

BenchmarkSpec gemv_spec(const QuantDotVariant& v, const SharedWeights& weights, std::int64_t rows, int batch, int threads,
                        const std::vector<int>& pus, const ProfileSettings& settings, PhaseClock* phases) {
  const std::int64_t row_bytes = quant_row_bytes(v.format, kCols);
  BenchmarkSpec spec;
  spec.name = dequant_gemv_spec_name(v, batch, threads);
  spec.labels = variant_json(v);
  spec.labels["suite"] = "dequant_gemv";
  spec.labels["kernel"] = "dequant_gemv";
  spec.labels["threads"] = threads;
  spec.labels["batch"] = batch;
  spec.labels["m"] = rows;
  spec.labels["k"] = kCols;
  spec.repetitions = settings.compute.repetitions;
  spec.min_time_s = settings.compute.min_time_s;
  spec.calibrate = true;  // each repetition's window from the call's own rate (runner.hpp)
  const int repetitions = spec.repetitions;
  auto invocations = std::make_shared<int>(0);
  spec.body = [&v, weights, threads, pus, rows, row_bytes, batch, repetitions, invocations,
               phases](benchmark::State& state) {
    PhaseClock::Scope setting_up(phases, Phase::setup);
    pin_openmp_threads(threads, pus);
    if (!*weights.made) {
      fill_quant_matrix(*weights.storage, v.format, rows, kCols, 40);
      *weights.made = true;
    }
    const QuantMatrix& w = *weights.storage;
    std::vector<QuantVector> x;
    for (int c = 0; c < batch; ++c) x.push_back(make_quant_vector(v.format, kCols, 41 + static_cast<std::uint64_t>(c)));
    std::vector<float> y(static_cast<std::size_t>(rows) * batch);
    // Warm-up: first touch is done, the team awake; not after a call of this same spec (its calibration call or its
    // previous repetition, back to back when nothing else ran between: a quick profile's batch of one spec), which
    // left everything as the warm-up would (issue 60: 256 MiB warm-ups were a quarter of the compute suite's set-up).
    const std::pair<int, int> self{batch, threads};
    if (*weights.last_spec != self) run_quant_gemv(v, w, x.data(), batch, threads, y.data());
    *weights.last_spec = self;
    setting_up.close();
    double best = std::numeric_limits<double>::infinity();
    for (auto _ : state) {
      const auto t0 = std::chrono::steady_clock::now();
      run_quant_gemv(v, w, x.data(), batch, threads, y.data());
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      benchmark::DoNotOptimize(y.data());
    }
    const double weights = static_cast<double>(rows) * kCols;
    const double bytes = static_cast<double>(rows * row_bytes) +
                         static_cast<double>(batch) * (static_cast<double>(quant_activation_bytes(v.format, kCols)) + 4.0 * rows);
    state.counters["weights_per_second"] = weights * batch / best;
    state.counters["flop_per_second"] = kQuantFlopPerWeight * weights * batch / best;
    state.counters["bytes_per_second"] = bytes / best;
    state.counters["arithmetic_intensity"] = kQuantFlopPerWeight * weights * batch / bytes;
    state.counters["working_set_bytes"] = bytes;
    state.counters["latency_seconds"] = best;
    // DRAM-sized weights: the last repetition's output is checked (every call writes the same y), not every one's;
    // from the call that is the last repetition when no calibration call comes first.
    if (++*invocations < repetitions) return;
    const PhaseClock::Scope validating = PhaseClock::open(phases, Phase::validation);
    if (auto err = validate_quant_gemv(w, x.data(), batch, y.data(), kGemvRowStride)) state.SkipWithError(err->c_str());
  };
  return spec;
}

// The DRAM GEMV placements. The full profile: each format's best kernel at every batch and thread count. The
// quick profile: batch 1 at the largest thread count only (the step `roofline llm` estimates), a fraction of a
// second per format, most of it making the weights.
void run_dequant_gemv_rows(const ComputePlan& plan, const MachineFacts& machine, const RunConfig& config,
                           const ProfileSettings& settings, Runner& runner, SuiteOutput& out) {
  const std::uint64_t weight_bytes = plan.gemv_weight_bytes;
  out.context["dequant_gemv"] = {{"weight_bytes", weight_bytes}, {"batches", plan.gemv_batches}, {"threads", plan.gemv_threads},
                                 {"cols", kCols}, {"checked_row_stride", kGemvRowStride}};
  if (plan.quick) out.context["dequant_gemv"]["quick"] = "batch 1 at the largest thread count; --profile full runs batches 1-16 at every thread count";
  const auto storage = std::make_shared<QuantMatrix>();
  for (const QuantDotVariant* v : plan.dequant_best) {
    // One format at a time, its weights made once for every batch and thread count over the previous format's.
    const std::int64_t rows = static_cast<std::int64_t>(weight_bytes) / quant_row_bytes(v->format, kCols);
    const SharedWeights weights{storage, std::make_shared<bool>(false), std::make_shared<std::pair<int, int>>(0, 0)};
    std::vector<BenchmarkSpec> specs;
    for (const int threads : plan.gemv_threads) {
      const std::vector<int> pus = binding_plan(machine, threads, config.bind);
      for (const int b : plan.gemv_batches) specs.push_back(gemv_spec(*v, weights, rows, b, threads, pus, settings, &runner.phases()));
    }
    runner.run(specs);
  }
}

}  // namespace

void run_dequant_dot_rows(const ComputePlan& plan, const RunConfig& config, const MachineFacts& machine, Runner& runner,
                          SuiteOutput& out) {
  // The plan's rows (cpu_plan.hpp: plan_compute), fixed before measuring: every thread count (no budget cut: llm
  // estimates at the largest thread count and needs the dequant rate there). The quick profile measures each format's
  // best ISA with its weights in L1 and in L2; the full profile every format x ISA row. Every row validates in the
  // unit tests (test_kernels) whatever the profile.
  json variants = json::array(), not_supported = json::array();
  for (const QuantDotVariant* v : plan.dequant_runnable) variants.push_back(variant_json(*v));
  for (const QuantDotVariant* v : plan.dequant_not_supported) {
    json row = variant_json(*v);
    row["reason"] = not_supported_reason(*v, config, machine);
    not_supported.push_back(row);
  }
  const std::vector<Placement> where = placements(plan.dequant_levels, machine);
  json levels = json::array();
  for (const Placement& p : where) levels.push_back({{"level", std::string(to_string(p.level))}, {"weight_bytes_per_thread", p.bytes_per_thread}});
  out.context["dequant_dot"] = {
      {"variants", variants},
      {"not_supported", not_supported},
      {"levels", levels},
      {"cols", kCols},
      {"int4_group", kInt4Group},
      {"counting", "a weight times its activation is one multiply-add = 2 FLOP; weights/s counts the weights of "
                   "the GEMV (rows x cols) per second; bytes/s their block bytes"},
      {"activations", "q8_0 and q4_0 times q8_0 activations, q4_k/q5_k/q6_k times q8_k (llama.cpp's "
                      "quantize_row_q8_0/q8_K), int4-g128 times fp32"}};
  if (!not_supported.empty()) {
    out.notes.push_back(fmt::format("compute: {} dequant-dot format x ISA rows not supported on this CPU or above "
                                    "--max-isa {}", not_supported.size(), to_string(config.max_isa)));
  }
  if (plan.quick) {
    out.context["dequant_dot"]["quick"] = "each format's best ISA, weights in L1 and L2, at every thread count; "
                                          "--profile full runs every format x ISA row";
  }
  const ProfileSettings& settings = profile_settings(config.profile);
  for (const int threads : plan.threads) {
    const std::vector<int> pus = binding_plan(machine, threads, config.bind);
    std::vector<BenchmarkSpec> specs;
    for (const Placement& p : where) {
      for (const QuantDotVariant* v : plan.dequant) specs.push_back(dequant_spec(*v, p, threads, pus, settings, &runner.phases()));
    }
    runner.run(specs);
  }
  run_dequant_gemv_rows(plan, machine, config, settings, runner, out);
}

}  // namespace roofline
