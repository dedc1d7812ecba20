// The key-figure gate of `roofline compare`: identities of machine and configuration, the environment
// check, the history noise model, and the verdict of two runs. Paired rounds: compare_paired.cpp;
// rendering: compare_gate_render.cpp. See compare_gate.hpp.
#include "roofline/regress/compare_gate.hpp"
#include "roofline/regress/compare_levels.hpp"
#include "gate_rows.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/common/name_table.hpp"
#include "roofline/regress/signed_rank.hpp"
#include "roofline/common/statistics.hpp"
#include "roofline/common/units.hpp"

namespace roofline {
using nlohmann::json;
using regress_detail::cpu_disturbed;
using regress_detail::distrust_thread_disturbances;
using regress_detail::FigurePairs;
using regress_detail::judge_figure;
using regress_detail::judge_weighed;
using regress_detail::moment_moved;

namespace {
std::string percent(double fraction) { return fmt::format("{:.1f}%", fraction * 100.0); }

std::string environment_part(const char* side, const EnvironmentCheck& e) {
  return e.recorded ? fmt::format("{} {}{}", side, e.why, e.disturbed ? " (DISTURBED)" : "")
                    : fmt::format("{} environment not recorded", side);
}

}  // namespace

double gate_k(double alpha, std::size_t figures) { return normal_quantile(1.0 - alpha / static_cast<double>(std::max<std::size_t>(1, figures))); }

std::pair<double, std::string> history_threshold(double relative_spread, double k, const GateOptions& options) {
  const double spread_threshold = k * relative_spread;
  if (spread_threshold > options.floor) {
    return {spread_threshold, fmt::format("history: {:.2f} x spread {}", k, percent(relative_spread))};
  }
  return {options.floor, fmt::format("floor {} (history: {:.2f} x spread {} is below)", percent(options.floor), k,
                                     percent(relative_spread))};
}

Outcome decide_outcome(const std::vector<FigureRow>& figures, bool disturbed, bool final) {
  const auto any = [&](Verdict v) {
    return std::any_of(figures.begin(), figures.end(), [&](const FigureRow& r) { return r.verdict == v; });
  };
  if (any(Verdict::regression)) return Outcome::regression;
  if (disturbed || (final && any(Verdict::unclear))) return Outcome::inconclusive;
  return Outcome::clean;
}

std::string_view to_string(Outcome outcome) {
  static constexpr NameTable<Outcome, 4> kNames{
      {{Outcome::clean, "clean"}, {Outcome::regression, "regression"}, {Outcome::inconclusive, "inconclusive"},
       {Outcome::undecided, "undecided"}}};
  return name_of(kNames, outcome, "");
}

int exit_code(Outcome outcome, bool fail_on_inconclusive, bool allow_undecided) {
  if (outcome == Outcome::regression) return 1;
  if (outcome == Outcome::inconclusive && fail_on_inconclusive) return 3;
  if (outcome == Outcome::undecided && !allow_undecided) return 3;
  return 0;
}

namespace {
// Each figure's median and spread over the latest kHistoryWindow runs of model.run_figures (newest first).
void summarize_history(NoiseModel& model) {
  std::map<std::string, std::vector<double>> values;
  for (const auto& figures : model.run_figures) {
    for (const auto& [id, v] : figures) {
      auto& list = values[id];
      if (static_cast<int>(list.size()) < kHistoryWindow && v > 0.0) list.push_back(v);
    }
  }
  model.figures.clear();
  for (auto& [id, list] : values) {
    FigureNoise n;
    n.median = median(list);
    n.relative_spread = n.median > 0.0 ? robust_sigma(list) / n.median : 0.0;
    n.values = std::move(list);
    model.figures[id] = std::move(n);
  }
}
}  // namespace

NoiseModel noise_model(const std::vector<HistoryPoint>& runs, const ResultsDocument& results, const std::string& exclude_hash,
                       const std::string& source) {
  NoiseModel model;
  model.source = source;
  const std::string machine = machine_identity(results), config = configuration_identity(results);
  std::vector<const HistoryPoint*> matching;
  for (const HistoryPoint& r : runs) {
    if (r.machine_id == machine && r.configuration_id == config && r.content_hash != exclude_hash) matching.push_back(&r);
  }
  model.runs = static_cast<int>(matching.size());
  for (auto it = matching.rbegin(); it != matching.rend(); ++it) model.run_figures.push_back((*it)->figures);
  summarize_history(model);
  return model;
}

NoiseModel same_memory_state(const NoiseModel& model, double canary, double limit) {
  NoiseModel out;
  out.source = model.source;
  for (const auto& figures : model.run_figures) {
    const auto it = figures.find(kCanaryFigureId);
    if (it != figures.end() && it->second > 0.0 && std::fabs(it->second / canary - 1.0) <= limit) out.run_figures.push_back(figures);
  }
  out.runs = static_cast<int>(out.run_figures.size());
  summarize_history(out);
  return out;
}

namespace {

// The figures both runs have (and `only` allows), each as (base, new); the rest listed in the gate.
std::vector<std::pair<const KeyFigure*, const KeyFigure*>> pair_figures(const std::vector<KeyFigure>& base_figures,
                                                                        const std::vector<KeyFigure>& next_figures,
                                                                        const GateOptions& options, Gate& g) {
  const std::set<std::string> only(options.only_figures.begin(), options.only_figures.end());
  std::map<std::string, const KeyFigure*> base_by_id;
  for (const KeyFigure& f : base_figures) base_by_id[f.id] = &f;
  std::vector<std::pair<const KeyFigure*, const KeyFigure*>> pairs;
  std::set<std::string> matched;
  for (const KeyFigure& f : next_figures) {
    const auto it = base_by_id.find(f.id);
    if (it == base_by_id.end()) {
      g.only_in_next.push_back(f.id);
    } else if (only.empty() || only.contains(f.id)) {
      matched.insert(f.id);
      if (it->second->statistic == f.statistic) {
        pairs.emplace_back(it->second, &f);
      } else {  // a best repetition is not a median: comparing them would invent a change
        g.not_comparable.push_back(fmt::format("{} (base: {}, new: {})", f.id, it->second->statistic, f.statistic));
      }
    }
  }
  for (const KeyFigure& f : base_figures) {
    if (!matched.contains(f.id) && (only.empty() || only.contains(f.id))) g.only_in_base.push_back(f.id);
  }
  if (pairs.empty()) throw InputError("the two runs have no comparable key figure in common to gate");
  return pairs;
}


// The memory environment with a history, whose runs are the reference (the base run does not count): the
// new run's canary moved within the run, or too few history runs were measured in its memory state
// (canary within the limit of the new run's). Returns those runs, against which shared-memory figures are
// judged; empty when the history recorded no canary (shared-memory figures are then judged on all runs).
std::optional<NoiseModel> check_memory_against_history(Gate& g, const NoiseModel& noise, double canary_limit) {
  const EnvironmentCheck& n = g.next_environment;
  std::vector<std::string> why;
  if (n.memory_disturbed) why.push_back(fmt::format("canary drift {} within the new run", percent(n.canary_drift)));
  std::optional<NoiseModel> same;
  bool too_few = false;
  if (noise.figures.contains(kCanaryFigureId) && n.canary > 0.0) {
    same = same_memory_state(noise, n.canary, canary_limit);
    too_few = same->runs < kMinHistoryRuns;
    g.memory_state_runs = same->runs;
    why.push_back(fmt::format("{} of {} history runs in this run's memory state (canary {} +- {}){}", same->runs,
                              noise.runs, format_si(n.canary, "B/s"), percent(canary_limit),
                              too_few ? fmt::format(", {} needed", kMinHistoryRuns) : ""));
  }
  g.memory_disturbed = too_few || n.memory_disturbed;
  g.memory_why = fmt::format("{}", fmt::join(why, ", "));
  return same;
}

using CanaryPoints = std::vector<std::pair<std::string, double>>;
struct CheckpointShift {
  std::string at;  // the suite the checkpoint came before
  double base = 0.0, next = 0.0;
  double shift = 0.0;  // |next / base - 1|
};
// The checkpoint (not start or end: their mean is the level compared above) whose canary moved most between
// two runs; a shift of 0 when the runs share none.
CheckpointShift largest_checkpoint_shift(const CanaryPoints& base, const CanaryPoints& next) {
  CheckpointShift worst;
  for (const auto& [at, b] : base) {
    if (at == "start" || at == "end") continue;
    for (const auto& [at_next, n] : next) {
      if (at_next == at && std::fabs(n / b - 1.0) > worst.shift) worst = {at, b, n, std::fabs(n / b - 1.0)};
    }
  }
  return worst;
}

// The memory environment of the pair: the canary moved within a run, or between the two runs.
void check_memory_environment(Gate& g, double canary_limit) {
  const EnvironmentCheck &b = g.base_environment, &n = g.next_environment;
  std::vector<std::string> why;
  if (b.memory_disturbed) why.push_back(fmt::format("canary drift {} within the base run", percent(b.canary_drift)));
  if (n.memory_disturbed) why.push_back(fmt::format("canary drift {} within the new run", percent(n.canary_drift)));
  if (b.canary > 0.0 && n.canary > 0.0) {
    g.canary_shift = std::fabs(n.canary / b.canary - 1.0);
    const bool moved = g.canary_shift > canary_limit;
    why.push_back(fmt::format("canary {} -> {} between the runs ({:+.1f}%{})", format_si(b.canary, "B/s"),
                              format_si(n.canary, "B/s"), (n.canary / b.canary - 1.0) * 100.0,
                              moved ? fmt::format(" > {}", percent(canary_limit)) : ""));
    // Checkpoint by checkpoint: a state that flipped in the middle of one run and not the other.
    const CheckpointShift at = largest_checkpoint_shift(b.canary_points, n.canary_points);
    const bool at_moved = at.shift > canary_limit;
    if (at_moved) {
      why.push_back(fmt::format("canary before {} {} -> {} between the runs ({:+.1f}% > {})", at.at,
                                format_si(at.base, "B/s"), format_si(at.next, "B/s"), (at.next / at.base - 1.0) * 100.0,
                                percent(canary_limit)));
    }
    if (!moved && !at_moved && !b.memory_disturbed && !n.memory_disturbed) why.clear();
    g.memory_disturbed = moved || at_moved;
  }
  g.memory_disturbed = g.memory_disturbed || b.memory_disturbed || n.memory_disturbed;
  g.memory_why = fmt::format("{}", fmt::join(why, ", "));
}

// The cores' environment of the pair: the core canary moved within a run, or between the two runs (with a
// history, only the new run's own drift counts: the history keeps no core canary).
void check_core_environment(Gate& g, const GateOptions& options) {
  const EnvironmentCheck &b = g.base_environment, &n = g.next_environment;
  const double limit = options.max_core_canary_drift;
  std::vector<std::string> why;
  const bool base_counts = !g.history_used;
  if (base_counts && b.core_disturbed) why.push_back(fmt::format("core canary drift {} within the base run", percent(b.core_canary_drift)));
  if (n.core_disturbed) why.push_back(fmt::format("core canary drift {} within the new run", percent(n.core_canary_drift)));
  bool moved = false;
  if (base_counts && b.core_canary > 0.0 && n.core_canary > 0.0) {
    g.core_shift = std::fabs(n.core_canary / b.core_canary - 1.0);
    moved = g.core_shift > limit;
    if (moved) {
      why.push_back(fmt::format("core canary {} -> {} between the runs ({:+.1f}% > {})", format_si(b.core_canary, "B/s"),
                                format_si(n.core_canary, "B/s"), (n.core_canary / b.core_canary - 1.0) * 100.0, percent(limit)));
    }
    const CheckpointShift at = largest_checkpoint_shift(b.core_canary_points, n.core_canary_points);
    if (at.shift > limit) {
      moved = true;
      why.push_back(fmt::format("core canary before {} {} -> {} between the runs ({:+.1f}% > {})", at.at,
                                format_si(at.base, "B/s"), format_si(at.next, "B/s"), (at.next / at.base - 1.0) * 100.0,
                                percent(limit)));
    }
  }
  g.core_disturbed = moved || n.core_disturbed || (base_counts && b.core_disturbed);
  g.core_why = fmt::format("{}", fmt::join(why, ", "));
}

// Marks the rows the environment does not let us trust (files without the libc canaries); a regression among them
// reads "unclear".
void apply_environment(Gate& g, double canary_limit) {
  const bool cpu = cpu_disturbed(g);
  for (FigureRow& r : g.figures) {
    const bool memory = g.memory_disturbed && r.figure.shared_memory;
    const bool core = g.core_disturbed && core_bound(r.figure);
    const bool warned = !r.figure.warning.empty();
    const std::string moment = moment_moved(r, canary_limit);
    r.moment_moved = !moment.empty();
    r.trusted = !cpu && !memory && !core && !warned && !r.moment_moved;
    r.verdict = judge(r.figure.higher_is_better, r.change, r.threshold, Evidence{r.trusted, true});
    if (r.verdict == Verdict::unclear) {
      r.why += cpu      ? "; not trusted: CPU disturbed"
               : memory ? "; not trusted: shared memory (L3, DRAM), memory environment moved"
               : core   ? "; not trusted: core-bound, the cores' throughput moved (core canary)"
               : !moment.empty() ? "; not trusted: " + moment
                        : "; not trusted: its level is warned " + r.figure.warning;
    }
  }
}

std::string reasons_of(const std::vector<const FigureRow*>& rows) {
  std::string reasons;
  for (const FigureRow* r : rows) reasons += fmt::format("{}{}: {}", reasons.empty() ? "" : "; ", r->figure.id, r->why);
  return reasons;
}

// " (and N ... not trusted: why)" of a regression's verdict: the environments that moved, and each figure not trusted
// for a reason of its own (its roofs of the moment moved, its level is warned), so that no reason reads empty.
std::string not_trusted_part(const Gate& g, const std::vector<const FigureRow*>& unclear) {
  if (unclear.empty()) return "";
  std::vector<std::string> why;
  if (!g.memory_why.empty()) why.push_back(g.memory_why);
  if (!g.core_why.empty()) why.push_back(g.core_why);
  bool own = false;
  for (const FigureRow* r : unclear) {
    if (!r->moment_moved && r->figure.warning.empty() && !r->threads_disturbed) continue;
    own = true;
    const std::size_t at = r->why.find("; not trusted: ");
    why.push_back(r->figure.id + (at == std::string::npos ? "" : ": " + r->why.substr(at + 15)));
  }
  const char* kind = own ? "" : g.core_disturbed ? (g.memory_disturbed ? "" : "core-bound ") : "shared-memory ";
  return fmt::format(" (and {} {}figure{} not trusted: {})", unclear.size(), kind, unclear.size() == 1 ? "" : "s",
                     fmt::join(why, "; "));
}

void decide_verdict(Gate& g) {
  std::vector<const FigureRow*> regressions, unclear;
  const FigureRow* closest = nullptr;
  const auto margin = [](const FigureRow& r) { return (r.figure.higher_is_better ? -r.change : r.change) - r.threshold; };
  int shared_memory = 0;
  for (const FigureRow& r : g.figures) {
    if (r.verdict == Verdict::regression) regressions.push_back(&r);
    if (r.verdict == Verdict::unclear) unclear.push_back(&r);
    shared_memory += r.figure.shared_memory ? 1 : 0;
    if (closest == nullptr || margin(r) > margin(*closest)) closest = &r;
  }
  std::string env = environment_part("base", g.base_environment) + "; " + environment_part("new", g.next_environment);
  if (g.weighed) env += "; weighed against " + g.canaries;
  const bool cpu = cpu_disturbed(g);
  g.outcome = decide_outcome(g.figures, cpu, true);
  if (g.outcome == Outcome::regression) {
    g.verdict_line = fmt::format("verdict: REGRESSION: {} of {} key figures worse than their thresholds: {}; {}{}",
                                 regressions.size(), g.figures.size(), reasons_of(regressions), env,
                                 not_trusted_part(g, unclear));
  } else if (g.outcome == Outcome::inconclusive && cpu) {
    g.verdict_line = fmt::format("verdict: INCONCLUSIVE: environment disturbed ({}); {} of {} figures beyond their thresholds, not trusted{}",
                                 env, unclear.size(), g.figures.size(), unclear.empty() ? "" : ": " + reasons_of(unclear));
  } else if (g.outcome == Outcome::inconclusive) {
    std::vector<std::string> parts;
    if (g.memory_disturbed) parts.push_back(fmt::format("for the shared-memory figures ({})", g.memory_why));
    if (g.core_disturbed) parts.push_back(fmt::format("for the core-bound figures ({})", g.core_why));
    const auto moments = std::count_if(g.figures.begin(), g.figures.end(),
                                       [](const FigureRow& r) { return r.verdict == Verdict::unclear && r.moment_moved; });
    if (moments > 0) parts.push_back(fmt::format("under {} figure{} (their roofs of the moment moved)", moments, moments == 1 ? "" : "s"));
    g.verdict_line = fmt::format("verdict: INCONCLUSIVE: environment disturbed {} ({}); {} of {} figures beyond their thresholds, not trusted: {}",
                                 fmt::join(parts, " and "), env, unclear.size(), g.figures.size(), reasons_of(unclear));
  } else {
    g.verdict_line = fmt::format("verdict: clean: none of {} key figures worse than its threshold (closest: {}: {}){}{}; {}",
                                 g.figures.size(), closest->figure.id, closest->why,
                                 g.memory_disturbed ? fmt::format("; the memory environment moved ({}) and the {} shared-memory figures stayed within their thresholds", g.memory_why, shared_memory) : "",
                                 g.core_disturbed ? fmt::format("; the cores' throughput moved ({}) and the core-bound figures stayed within their thresholds", g.core_why) : "",
                                 env);
  }
}

// Files without the libc canaries (before issue 59): a class whose canary (our own kernel's) moved is not trusted.
void judge_distrusting(Gate& g, const FigurePairs& pairs, const NoiseModel* noise, double k, const GateOptions& options) {
  const double canary_limit = options.max_canary_drift;
  std::optional<NoiseModel> same_state;
  if (g.history_used) {
    same_state = check_memory_against_history(g, *noise, canary_limit);
  } else {
    check_memory_environment(g, canary_limit);
  }
  for (const auto& [b, n] : pairs) {
    // Shared-memory figures against the history runs of this memory state, when there are enough.
    const bool by_state = same_state && same_state->runs >= kMinHistoryRuns && (b->shared_memory || n->shared_memory);
    FigureRow row = judge_figure(*b, *n, by_state ? &*same_state : noise, g.history_used, k, pairs.size(), options);
    if (by_state) row.why += " (the history runs of this memory state)";
    if (!g.history_used) row.base_roof_now = b->roof_now;
    row.adjusted_change = row.change;
    g.figures.push_back(std::move(row));
  }
  check_core_environment(g, options);
  apply_environment(g, canary_limit);
}

}  // namespace

Gate gate_runs(const ResultsDocument& base, const ResultsDocument& next, const NoiseModel* noise, const GateOptions& options) {
  const std::vector<KeyFigure> base_figures = key_figures(base);
  std::vector<KeyFigure> next_figures = key_figures(next);
  Gate g;
  g.level_changes = level_boundary_changes(base, next);
  g.level_starts = level_start_changes(base, next);
  g.aligned_figures = align_memory_figures(base, base_figures, next, next_figures);
  const auto pairs = pair_figures(base_figures, next_figures, options, g);
  g.history_used = noise != nullptr && noise->runs >= kMinHistoryRuns;
  g.history_runs = noise != nullptr ? noise->runs : 0;
  g.history_source = noise != nullptr ? noise->source : "";
  const double k = gate_k(options.alpha, pairs.size());
  const double canary_limit = options.max_canary_drift;
  // Issue 59: the libc canaries on both sides (the base file, or the history's median of them), else our kernels'.
  const auto history_median = [&](const char* id) {
    const auto it = noise->figures.find(id);
    return it != noise->figures.end() && static_cast<int>(it->second.values.size()) >= kMinHistoryRuns ? it->second.median : 0.0;
  };
  const bool next_libc = has_libc_canaries(next);
  const double core_reference = g.history_used ? history_median(kLibcCoreCanaryFigureId) : canary_level(base, "libc_core_canary");
  const double dram_reference = g.history_used ? history_median(kLibcCanaryFigureId) : canary_level(base, "libc_canary");
  g.weighed = next_libc && core_reference > 0.0 && dram_reference > 0.0;
  const CanarySource source = g.weighed ? CanarySource::libc : CanarySource::ours;
  g.base_environment = check_environment(base, canary_limit, options, has_libc_canaries(base) ? source : CanarySource::ours);
  g.next_environment = check_environment(next, canary_limit, options, source);
  if (g.weighed) {
    judge_weighed(g, pairs, noise, k, options, core_reference, dram_reference);
  } else {
    g.canaries = next_libc ? (g.history_used ? "the history kept no libc canaries" : "the base run has no libc canaries")
                 : has_libc_canaries(base) ? "the new run has no libc canaries"
                                           : "the runs have no libc canaries";
    judge_distrusting(g, pairs, noise, k, options);
  }
  distrust_thread_disturbances(g, base, base_figures, next, next_figures, options);
  std::string memory_statistic;
  for (const auto& [b, n] : pairs) {
    if (n->group == "memory" && memory_statistic.empty()) memory_statistic = fmt::format("memory figures: {}s; ", n->statistic);
  }
  g.method_line = fmt::format(
      "gate: {} key figures; {}; family-wise alpha {:g} (k = {:.2f} robust sigmas); {}{}; per-benchmark rows are "
      "shown, never gate",
      pairs.size(),
      g.history_used ? fmt::format("history of {} runs of this machine and configuration ({}), floor {}", g.history_runs,
                                   g.history_source, percent(options.floor))
                     : fmt::format("no history{}: floor {}, low confidence",
                                   noise != nullptr ? fmt::format(" ({} matching runs, {} needed)", g.history_runs, kMinHistoryRuns) : "",
                                   percent(options.floor_no_history)),
      options.alpha, k, memory_statistic,
      g.weighed ? "each core-bound figure weighed against the libc core canary, each shared-memory one against the libc "
                  "DRAM canary (glibc's memcpy, which our code cannot move): judged on its change with the canary's "
                  "move divided out"
                : fmt::format("shared-memory figures are judged only while the DRAM canary holds (canaries of our "
                              "own kernels: {}, as in files before issue 59)", g.canaries));
  decide_verdict(g);
  return g;
}

}  // namespace roofline
