// Selecting the key figures of a run from its roofline section (see key_figures.hpp).
#include "roofline/model/key_figures.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "roofline/model/dequant_ceilings.hpp"
#include "roofline/model/results_targets.hpp"
#include "roofline/model/record_fields.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/common/statistics.hpp"
#include "roofline/common/units.hpp"
#include "roofline/common/vocabulary.hpp"


namespace roofline {
namespace {
using fields::records_of;
using fields::written;

// The rules read the typed section (issue 61, step 3). What the lenient reader could not type it keeps in the
// record's `extra` (a field written in another kind, or null): here that is bad input, as it was for a reader of the
// file's JSON, never a field quietly absent.

// A table of the section, or none; one written in another kind (not an array, an entry not an object) is bad input.
template <class Row>
const std::vector<Row>& section_rows(const RooflineSection& s, const std::optional<std::vector<Row>>& rows,
                                     const char* name) {
  if (const auto it = s.extra.find(name); !rows && it != s.extra.end()) {
    throw InputError(it->is_array() ? fmt::format("roofline.{}: an entry is not an object", name)
                                    : fmt::format("roofline.{} is not an array", name));
  }
  return records_of(rows);
}

// The text fields, numbers and thread counts of a row: `text_field(ROOFLINE_FIELD(e, kernel), "memory_ceilings")`.
template <class R>
std::string text_field(const std::optional<std::string>& member, const R& row, const char* key, const char* array,
                       const std::string& fallback = "") {
  if (member) return *member;
  if (row.extra.contains(key)) throw InputError(fmt::format("roofline.{}: '{}' is not a string", array, key));
  if (!fallback.empty()) return fallback;
  throw InputError(fmt::format("roofline.{}: an entry lacks '{}'", array, key));
}

double positive_field(const std::optional<double>& member, const char* key, const char* array) {
  if (!member) throw InputError(fmt::format("roofline.{}: '{}' is missing or not a number", array, key));
  const double v = *member;
  if (!std::isfinite(v) || v < 0.0) throw InputError(fmt::format("roofline.{}: '{}' is negative or not finite", array, key));
  return v;
}

int threads_field(const std::optional<long long>& threads, const char* array) {
  if (!threads || *threads < 1) {
    throw InputError(fmt::format("roofline.{}: 'threads' is missing or not a positive integer", array));
  }
  return static_cast<int>(*threads);
}

// A row's thread count where it names one (the CPU's rows must: the schema says so when the file is read); 0 for
// a target whose rows name none (a device runs each kernel on all of it).
template <class R>
int threads_of(const R& row, const char* array) {
  return written(ROOFLINE_FIELD(row, threads)) ? threads_field(row.threads, array) : 0;
}

std::string threads_text(int threads) { return threads == 1 ? "1 thread" : fmt::format("{} threads", threads); }
// "/threads:T" and ", T threads" after a figure's id and words; nothing for a row without a thread count.
std::string threads_id(int threads) { return threads > 0 ? fmt::format("/threads:{}", threads) : std::string(); }
std::string threads_words(int threads) { return threads > 0 ? ", " + threads_text(threads) : std::string(); }

// Best value per key, keeping the first-seen order of keys stable through std::map ordering.
template <class Key>
void keep_best(std::map<Key, double>& best, const Key& key, double value) {
  auto [it, inserted] = best.emplace(key, value);
  if (!inserted) it->second = std::max(it->second, value);
}

constexpr const char* kPlateauMedian = "plateau median";

// The levels cores share (KeyFigure::shared_memory): as the target's facts say where they list the level, else by
// the CPU's vocabulary (L3 and DRAM are shared, L1 and L2 private), else shared.
bool shared_level(const RecordedTarget& t, const std::string& level) {
  for (const TargetLevel& l : t.memory_levels) {
    if (l.name == level) return l.shared;
  }
  const std::optional<Level> named = parse_level(level);
  return !named || *named == Level::L3 || *named == Level::DRAM;
}

// A level's place in the figures' order: the CPU's vocabulary (L1..DRAM), then a target's own names in the order
// its ceilings list them (innermost first, as its derivation wrote them).
int level_order(const std::vector<MemoryCeilingRecord>& ceilings, const std::string& level) {
  if (const std::optional<Level> named = parse_level(level)) return static_cast<int>(*named);
  int i = 0;
  for (const MemoryCeilingRecord& c : ceilings) {
    if (c.level.value_or("") == level) break;
    ++i;
  }
  return 100 + i;
}
constexpr const char* kBestRepetition = "best repetition";

void add_memory(const RooflineSection& roofline, const RecordedTarget& t, std::vector<KeyFigure>& out) {
  // (threads, level order, level, kernel) -> the level's value; a level listed twice keeps the larger
  using Key = std::tuple<int, int, std::string, std::string>;
  std::map<Key, double> best;
  std::map<Key, std::string> warnings;  // a warned level's rows carry `warning`
  bool all_plateau = true;  // every entry has plateau_median (files before it give the best repetition)
  const auto& ceilings = section_rows(roofline, roofline.memory_ceilings, "memory_ceilings");
  for (const MemoryCeilingRecord& e : ceilings) all_plateau = all_plateau && written(ROOFLINE_FIELD(e, plateau_median));
  for (const MemoryCeilingRecord& e : ceilings) {
    const std::string kernel = text_field(ROOFLINE_FIELD(e, kernel), "memory_ceilings");
    if (kernel != "read" && kernel != "triad") continue;
    const std::string level = text_field(ROOFLINE_FIELD(e, level), "memory_ceilings");
    const int threads = threads_of(e, "memory_ceilings");
    // The CPU's levels are its vocabulary's (another target names its own).
    if (threads > 0 && !parse_level(level)) throw InputError(fmt::format("roofline.memory_ceilings: unknown level '{}'", level));
    const Key key{threads, level_order(ceilings, level), level, kernel};
    keep_best(best, key, all_plateau ? positive_field(e.plateau_median, "plateau_median", "memory_ceilings")
                                     : positive_field(e.value, "value", "memory_ceilings"));
    if (e.warning) warnings[key] = *e.warning;
  }
  for (const auto& [key, value] : best) {
    const auto& [threads, order, name, kernel] = key;
    out.push_back({fmt::format("memory/{}/{}{}", name, kernel, threads_id(threads)), "memory",
                   fmt::format("{} {}{}", name, kernel, threads_words(threads)), threads, value, "B/s", true,
                   all_plateau ? kPlateauMedian : kBestRepetition, shared_level(t, name),
                   warnings.count(key) > 0 ? warnings.at(key) : std::string()});
  }
}

void add_compute_and_clock(const RooflineSection& roofline, std::vector<KeyFigure>& out) {
  std::map<std::tuple<int, int, int>, double> best;  // (threads, precision order, engine) -> value
  std::map<int, std::vector<double>> clocks;          // threads -> clocks beside the vector kernels
  for (const ComputeCeilingRecord& e : section_rows(roofline, roofline.compute_ceilings, "compute_ceilings")) {
    const std::string p_name = text_field(ROOFLINE_FIELD(e, precision), "compute_ceilings");
    const std::optional<Precision> p = parse_precision(p_name);
    if (!p) throw InputError(fmt::format("roofline.compute_ceilings: unknown precision '{}'", p_name));
    const std::string e_name = text_field(ROOFLINE_FIELD(e, engine), "compute_ceilings", "vector");
    const std::optional<Engine> engine = parse_engine(e_name);
    if (!engine) throw InputError(fmt::format("roofline.compute_ceilings: unknown engine '{}'", e_name));
    const int threads = threads_of(e, "compute_ceilings");
    keep_best(best, {threads, static_cast<int>(*p), static_cast<int>(*engine)}, positive_field(e.value, "value", "compute_ceilings"));
    // The host cores' clock at a thread count, beside their vector kernels; a device's clock is a fact of its
    // compute ceilings (clock_hz, clock_source), not a figure of its own.
    if (threads > 0 && *engine == Engine::vector && written(ROOFLINE_FIELD(e, clock_hz))) {
      clocks[threads].push_back(positive_field(e.clock_hz, "clock_hz", "compute_ceilings"));
    }
  }
  for (const auto& [key, value] : best) {
    const auto& [threads, p, engine] = key;
    const auto precision = static_cast<Precision>(p);
    const std::string e_name(to_string(static_cast<Engine>(engine)));
    out.push_back({fmt::format("compute/{}/{}{}", to_string(precision), e_name, threads_id(threads)), "compute",
                   fmt::format("{} {} peak{}", to_string(precision), e_name, threads_words(threads)), threads, value,
                   std::string(rate_unit(precision)), true, "best kernel"});
  }
  for (const auto& [threads, values] : clocks) {
    out.push_back({fmt::format("clock/threads:{}", threads), "clock", fmt::format("core clock, {}", threads_text(threads)),
                   threads, median(values), "Hz", true, "median over the vector kernels"});
  }
}

// Batch 1 of every backend as a fraction of its roof now (issue 33, roof_now.hpp): the GEMV's median over the
// read probes taken around it. It was meant to be trusted when the canary moved, a GEMV and its probes moving
// together; A/A pairs on a shared Zen 5 host said otherwise (issue 46): 2-thread GEMVs moved 16-38% between runs
// while their probes moved under 12% (openblas fp32 78% -> 60% of its roof now, onednn bf16 85% -> 60%), each in a
// pair where a run's DRAM canary moved 25-47% within it. So it is a shared-memory figure like the GEMV's rate: judged
// only while the canary holds, and not when its own roofs of the moment differ (compare_gate.cpp).
// A placement's roof of the moment (roof_now.bandwidth, B/s), 0 when it has none.
double roof_now_bandwidth(const PlacementRecord& placement) {
  return placement.roof_now ? fields::amount(ROOFLINE_FIELD(*placement.roof_now, bandwidth)) : 0.0;
}

void add_gemv_of_roof_now(const RooflineSection& roofline, std::vector<KeyFigure>& out) {
  struct Now {
    double value = 0.0;
    double bandwidth = 0.0;
  };
  std::map<std::tuple<int, int, std::string>, Now> best;  // (threads, precision order, backend)
  for (const PlacementRecord& e : section_rows(roofline, roofline.placements, "placements")) {
    if (!written(ROOFLINE_FIELD(e, roof_now)) || fields::whole(ROOFLINE_FIELD(e, batch)).value_or(0) != 1) continue;
    if (!e.roof_now) throw InputError("roofline.placements: 'roof_now' is not an object");
    const std::optional<Precision> p = parse_precision(text_field(ROOFLINE_FIELD(e, precision), "placements"));
    if (!p) continue;  // add_gemm has said so
    const double value = positive_field(e.roof_now->efficiency, "efficiency", "placements[].roof_now");
    Now& b = best[{threads_of(e, "placements"), static_cast<int>(*p), text_field(ROOFLINE_FIELD(e, backend), "placements")}];
    if (value > b.value) b = {value, roof_now_bandwidth(e)};
  }
  for (const auto& [key, b] : best) {
    const auto& [threads, p, backend] = key;
    const std::string precision(to_string(static_cast<Precision>(p)));
    out.push_back({fmt::format("gemm/{}/{}/batch:1{}/of_roof_now", precision, backend, threads_id(threads)), "gemm",
                   fmt::format("GEMV {} batch 1 ({}) of its roof now{}", precision, backend, threads_words(threads)),
                   threads, b.value, std::string(kFractionUnit), true, "median over the probes around it", true, "",
                   b.bandwidth});
  }
}

// The weights' shape of a placement ("6144x6144"), "" when the entry has none. A GEMV/GEMM figure's statistic names
// it: two runs whose plans sized the weights differently (another cache verdict, another shape rule, --gemm-shape)
// measured different work, and the gate lists that figure as not comparable instead of judging it.
std::string shape_of(const PlacementRecord& e) {
  if (!e.m || !e.k) return "";
  return fmt::format("{}x{}", *e.m, *e.k);
}

std::string best_backend_at(const std::string& shape) {
  return shape.empty() ? "best backend" : "best backend at " + shape;
}

void add_gemm(const RooflineSection& roofline, const RecordedTarget& t, std::vector<KeyFigure>& out) {
  struct Best {
    double value = 0.0;
    std::string backend;
    bool shared_memory = false;
    double roof_now = 0.0;
    std::string shape;  // "MxK" of the weights the best backend ran at
  };
  std::map<std::tuple<int, int, int>, Best> best;  // (threads, precision order, batch) -> best backend
  for (const PlacementRecord& e : section_rows(roofline, roofline.placements, "placements")) {
    const std::string p_name = text_field(ROOFLINE_FIELD(e, precision), "placements");
    const std::optional<Precision> p = parse_precision(p_name);
    if (!p) throw InputError(fmt::format("roofline.placements: unknown precision '{}'", p_name));
    if (!e.batch || *e.batch < 1) throw InputError("roofline.placements: 'batch' is missing or not a positive integer");
    const double value = positive_field(e.value, "value", "placements");
    Best& b = best[{threads_of(e, "placements"), static_cast<int>(*p), static_cast<int>(*e.batch)}];
    if (value > b.value) {
      // Operands in a shared level (the CPU's L3 or DRAM), whatever bounds the point (KeyFigure::shared_memory);
      // operands whose level is unknown are not said to be shared.
      const std::string resident = text_field(ROOFLINE_FIELD(e, resident_level), "placements", "unknown");
      const bool shared = resident != "unknown" && shared_level(t, resident);
      b = {value, text_field(ROOFLINE_FIELD(e, backend), "placements", "unknown"), shared, roof_now_bandwidth(e), shape_of(e)};
    }
  }
  std::set<std::pair<int, int>> seen;  // (threads, precision)
  for (const auto& [key, b] : best) seen.insert({std::get<0>(key), std::get<1>(key)});
  for (const auto& [threads, p] : seen) {
    const auto precision = static_cast<Precision>(p);
    const std::string unit(rate_unit(precision));
    int largest = 0;
    for (const auto& [key, b] : best) {
      if (std::get<0>(key) == threads && std::get<1>(key) == p) largest = std::max(largest, std::get<2>(key));
    }
    const auto one = best.find({threads, p, 1});
    if (one != best.end()) {
      out.push_back({fmt::format("gemm/{}/batch:1{}", to_string(precision), threads_id(threads)), "gemm",
                     fmt::format("GEMV {} batch 1 ({}){}", to_string(precision), one->second.backend, threads_words(threads)),
                     threads, one->second.value, unit, true, best_backend_at(one->second.shape),
                     one->second.shared_memory, "", one->second.roof_now});
    }
    if (largest > 1) {
      const Best& b = best.at({threads, p, largest});
      out.push_back({fmt::format("gemm/{}/batch:max{}", to_string(precision), threads_id(threads)), "gemm",
                     fmt::format("GEMM {} batch {} ({}){}", to_string(precision), largest, b.backend, threads_words(threads)),
                     threads, b.value, unit, true, best_backend_at(b.shape), b.shared_memory, "", b.roof_now});
    }
  }
  add_gemv_of_roof_now(roofline, out);
}

// A target's link to the host and its launches, roofs of their own (a device's; the CPU has neither):
// transfer/<direction>/<memory> (best repetition) and latency/launch (median launch, lower is better).
void add_link(const RooflineSection& roofline, std::vector<KeyFigure>& out) {
  for (const TransferCeilingRecord& c : section_rows(roofline, roofline.transfer_ceilings, "transfer_ceilings")) {
    const std::string direction = text_field(ROOFLINE_FIELD(c, direction), "transfer_ceilings");
    const std::string memory = text_field(ROOFLINE_FIELD(c, memory), "transfer_ceilings");
    out.push_back({fmt::format("transfer/{}/{}", direction, memory), "transfer",
                   fmt::format("transfer {} ({})", direction, memory), 0, fields::amount(ROOFLINE_FIELD(c, value)), "B/s",
                   true, "best repetition", true});
  }
  for (const LaunchLatencyRecord& c : section_rows(roofline, roofline.launch_latency, "launch_latency")) {
    const double launch = written(ROOFLINE_FIELD(c, median)) ? fields::amount(ROOFLINE_FIELD(c, median))
                                                              : fields::amount(ROOFLINE_FIELD(c, seconds));
    out.push_back({"latency/launch", "latency", "kernel launch", 0, launch, "s", false, "median launch"});
  }
}

// The llm suite's layers (bench/drivers/suite_llm.cpp): per step, the median repetition of layer_seconds (time: lower
// is better), the estimate beside it in the label. Entries without layer_seconds (a layer with operations left
// out of the budget) give none.
std::string llm_label(const std::optional<std::string>& label, const char* key) {
  if (!label) throw InputError(fmt::format("an llm entry's labels.{} is missing or not a word", key));
  return *label;
}

void add_llm(const ResultsDocument& results, std::vector<KeyFigure>& out) {
  for (const BenchmarkEntry& e : results.benchmarks) {
    if (!e.labels || e.error_occurred.value_or(false)) continue;
    if (e.labels->suite.value_or("") != "llm" || e.aggregate_name.value_or("") != "median") continue;
    const double layer_seconds = fields::amount(ROOFLINE_FIELD(e, layer_seconds));
    if (!(layer_seconds > 0.0)) continue;
    const EntryLabels& l = *e.labels;
    const int threads = threads_field(l.threads, "llm labels");
    const std::string model = llm_label(l.model, "model"), phase = llm_label(l.phase, "phase");
    const bool decode = phase == "decode";
    const long long batch = l.batch.value_or(0), context = l.context.value_or(0), prompt = l.prompt_tokens.value_or(0);
    const std::string step = decode ? fmt::format("decode/batch:{}/context:{}", batch, context)
                                    : fmt::format("prefill/prompt:{}", prompt);
    const std::string what = decode ? fmt::format("decode batch {} context {}", batch, context)
                                    : fmt::format("prefill {} tokens", prompt);
    const std::string estimate = l.estimated_seconds ? fmt::format(" (estimate {:.3g} ms)", *l.estimated_seconds * 1e3) : "";
    // A quantized chain's weights are named by their storage format (labels.format: q8_0), others by precision.
    const std::string weights = written(ROOFLINE_FIELD(l, format)) ? llm_label(l.format, "format")
                                                                   : llm_label(l.precision, "precision");
    out.push_back({fmt::format("llm/{}/{}/kv:{}/{}/threads:{}", model, weights, llm_label(l.kv_precision, "kv_precision"),
                               step, threads),
                   "llm", fmt::format("{} {}, one layer{}, {}", model, what, estimate, threads_text(threads)), threads,
                   layer_seconds, "s", false, "median repetition", true});
  }
}

}  // namespace

std::string_view suite_of(const KeyFigure& f) {
  if (f.group == "memory") return "bandwidth";
  if (f.group == "gemm") return "gemm";
  if (f.group == "compute" || f.group == "clock" || f.group == "dequant") return "compute";
  return {};  // llm: `roofline llm measure`'s chains, not a suite of `run`
}

bool core_bound(const KeyFigure& f) {
  if (f.threads <= 0) return false;  // another target's figure: its device, not the host's cores
  if (f.group == "compute" || f.group == "dequant") return true;
  if (f.group == "memory") return !f.shared_memory;
  return f.group == "gemm" && f.id.find("/batch:max/") != std::string::npos;
}

namespace {
const CanaryRecord* canary_of(const ResultsDocument& results, const std::string& which) {
  if (!results.context.environment) return nullptr;
  const RunEnvironment& env = *results.context.environment;
  const std::optional<CanaryRecord>& c = which == "core_canary"        ? env.core_canary
                                          : which == "libc_canary"      ? env.libc_canary
                                          : which == "libc_core_canary" ? env.libc_core_canary
                                                                        : env.canary;
  return c ? &*c : nullptr;
}
}  // namespace

bool is_environment_figure(std::string_view id) { return id.starts_with("environment/"); }

double canary_level(const ResultsDocument& results, const char* which) {
  const CanaryRecord* c = canary_of(results, which);
  if (c == nullptr || !(c->start.value_or(0.0) > 0.0) || !(c->end.value_or(0.0) > 0.0)) return 0.0;
  double sum = 0.0;
  const std::vector<std::pair<std::string, double>> points = canary_points(results, which);
  for (const auto& [at, value] : points) sum += value;
  return sum / static_cast<double>(points.size());
}

std::vector<std::pair<std::string, double>> canary_points(const ResultsDocument& results, const char* which) {
  std::vector<std::pair<std::string, double>> out;
  const CanaryRecord* c = canary_of(results, which);
  if (c == nullptr) return out;
  const std::string where = fmt::format("context.environment.{}.checkpoints", which);
  const std::string each = where + ": each needs 'at' (a suite's name) and 'bytes_per_second' (a number, 0 or more)";
  // The lenient reader keeps a value of the wrong kind in `extra`: a mistyped checkpoint is bad input here, not a
  // quiet environment.
  if (const auto it = c->extra.find("checkpoints"); it != c->extra.end() && !it->is_null()) {
    throw InputError(it->is_array() ? each : where + " is not a list");
  }
  if (const double start = c->start.value_or(0.0); start > 0.0) out.emplace_back("start", start);
  for (const CanaryCheckpointRecord& p : c->checkpoints.value_or(std::vector<CanaryCheckpointRecord>{})) {
    if (!p.at || !p.bytes_per_second || *p.bytes_per_second < 0.0) throw InputError(each);
    // 0: no memory for the canary then; not a point.
    if (*p.bytes_per_second > 0.0) out.emplace_back(*p.at, *p.bytes_per_second);
  }
  if (const double end = c->end.value_or(0.0); end > 0.0) out.emplace_back("end", end);
  return out;
}


std::vector<KeyFigure> key_figures(const ResultsDocument& results) {
  if (!results.roofline) throw InputError("the results file has no roofline section (key figures need its ceilings)");
  // Every target's figures by the same rules, each from its own entries (target_document): the host CPU's ids as
  // they always were, another target's prefixed with its id (target_prefix) and its words with its id.
  std::vector<KeyFigure> out;
  for (const RecordedTarget& t : recorded_targets(results)) {
    const ResultsDocument doc = target_document(results, t.id);
    const RooflineSection& roofline = *doc.roofline;
    std::vector<KeyFigure> figures;
    add_memory(roofline, t, figures);
    add_compute_and_clock(roofline, figures);
    add_dequant_key_figures(roofline, figures);
    add_gemm(roofline, t, figures);
    add_link(roofline, figures);
    add_llm(doc, figures);  // the llm suite's layers (llm --measure)
    const std::string prefix = target_prefix(t.id);
    for (KeyFigure& f : figures) {
      if (!prefix.empty()) std::tie(f.id, f.label) = std::make_pair(prefix + f.id, t.id + " " + f.label);
      out.push_back(std::move(f));
    }
  }
  if (out.empty()) {
    throw InputError("the results file has no memory ceilings, compute ceilings, placements or llm layers to take key figures from");
  }
  return out;
}

}  // namespace roofline
