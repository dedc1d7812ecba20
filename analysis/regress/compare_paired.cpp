// Paired A/B rounds (`roofline compare --base-bin A --new-bin B`, scripts/ci-regression's default): the round is
// the unit. Each round ran both builds back to back in random order on the same machine, so the ratio new/base of
// one round cancels what that moment shares (neighbours, clock, the host's memory state). Per figure: the
// Hodges-Lehmann estimate of the rounds' log ratios and its signed-rank interval, decided against +-floor
// (paired_interval.hpp). See compare_gate.hpp.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/common/statistics.hpp"
#include "roofline/model/key_figures.hpp"
#include "roofline/regress/compare_gate.hpp"
#include "roofline/regress/paired_interval.hpp"

namespace roofline {
namespace {

Verdict verdict_of(PairedDecision d) {
  switch (d) {
    case PairedDecision::ok: return Verdict::ok;
    case PairedDecision::regression: return Verdict::regression;
    case PairedDecision::improvement: return Verdict::improvement;
    case PairedDecision::not_worse: return Verdict::not_worse;
    case PairedDecision::undecided: break;
  }
  return Verdict::undecided;
}

std::string percent_of_ratio(double ratio) { return fmt::format("{:+.1f}%", (ratio - 1.0) * 100.0); }

// "-12.3% [-14.1%, -10.2%]" of a row with an interval.
std::string interval_text(const FigureRow& r) {
  if (!r.has_interval) return fmt::format("{} [no interval yet]", percent_of_ratio(r.ratio));
  return fmt::format("{} [{}, {}]", percent_of_ratio(r.ratio), percent_of_ratio(r.ratio_lower), percent_of_ratio(r.ratio_upper));
}

// One figure's row from its rounds (base and new values, round by round): the estimate, both intervals, the decision.
std::optional<FigureRow> paired_row(const KeyFigure& f, const std::vector<double>& base, const std::vector<double>& next,
                                    const GateOptions& options, double gamma, double gamma_own) {
    // Oriented so that negative is worse; the row keeps the ratio as measured (a time that grew is a ratio > 1).
    const double sign = f.higher_is_better ? 1.0 : -1.0;
    std::vector<double> oriented, ratios;
    for (std::size_t r = 0; r < base.size(); ++r) {
      if (!(base[r] > 0.0 && next[r] > 0.0)) continue;
      ratios.push_back(next[r] / base[r]);
      oriented.push_back(sign * std::log(ratios.back()));
    }
    if (oriented.empty()) return std::nullopt;
    const PairedInterval family = hodges_lehmann_interval(oriented, gamma);
    const PairedInterval own = hodges_lehmann_interval(oriented, gamma_own);
    const double floor = paired_floor(f, options);
    FigureRow row;
    row.figure = f;
    row.base = median(base);
    row.next = median(next);
    row.reference = row.base;
    row.rounds = own.n;
    row.threshold = floor;
    row.gamma = gamma;
    row.gamma_own = gamma_own;
    row.ratio = std::exp(sign * own.estimate);
    row.change = row.ratio - 1.0;
    row.adjusted_change = row.change;  // paired rounds are not weighed against a canary: the round is the control
    row.round_ratios = std::move(ratios);
    // Bounds back to ratios as measured (a time's interval flips).
    const auto as_ratios = [&](const PairedInterval& i, double& lo, double& hi) {
      const double a = std::exp(sign * i.lower), z = std::exp(sign * i.upper);
      lo = std::min(a, z);
      hi = std::max(a, z);
    };
    row.has_interval = own.bounded;
    if (own.bounded) as_ratios(own, row.ratio_lower, row.ratio_upper);
    row.has_family_interval = family.bounded;
    if (family.bounded) as_ratios(family, row.family_lower, row.family_upper);
    row.detectable = minimum_detectable_change(family, floor);
    row.verdict = verdict_of(decide(family, own, floor));
    row.threshold_source = fmt::format("floor {:.1f}% ({}), Hodges-Lehmann intervals over {} rounds, bound errors {:.2g} "
                                       "(ok) and {:.2g} (regression)",
                                       floor * 100.0,
                                       floor == options.floor ? "compute" : floor == options.floor_cache ? "private caches, dequant at several threads" : "shared memory",
                                       row.rounds,
                                       gamma_own, gamma);
    row.why = fmt::format("ratio {} over {} rounds (regression interval {}); smallest regression these rounds could "
                          "call: {}",
                          interval_text(row), row.rounds,
                          row.has_family_interval ? fmt::format("[{}, {}]", percent_of_ratio(row.family_lower),
                                                                percent_of_ratio(row.family_upper))
                                                  : "none yet",
                          std::isfinite(row.detectable) ? fmt::format("{:.1f}%", row.detectable * 100.0) : "none yet");
    return row;
}

// The rounds a figure is judged on (issue 59): all of them, less those where the round's ratio cannot tell the host
// from the code under the figure:
// - a core-bound figure (L1, L2, dequant, compute) at T > 1 threads, where either run's threads' own rates were more
//   than `options.max_thread_spread` apart (PairedRounds' spreads: the host slowed one vCPU), or its rate at T threads
//   fell more than `options.max_scaling_drop` below what the rounds' median scaling predicts from its own 1-thread
//   partner (PairedRounds' scalings: both vCPUs slowed alike, which the spread cannot see);
// - a shared-memory or GEMM figure at T > 1 threads, where the two runs' threads were placed differently by the host
//   (PairedRounds' round trips more than `options.max_placement_shift` apart): like with like.
// Unless the runs of one build are so (or the rounds' placements differ) in more than half the rounds: then it is the
// build's (a split, a kernel that treats its threads unequally or scales worse, a binding) or the machine's (unequal
// cores), and every round is judged as measured. The scaling's reference is the median over both builds' runs, so a
// build that scales worse in every run is left out nowhere, or everywhere (and then kept).
struct KeptRounds {
  std::vector<double> base, next;
  std::string note;  // "" when every round is kept for want of a disturbance
};

std::vector<double> per_round(const std::map<std::string, std::vector<double>>& values, const std::string& id,
                              std::size_t rounds) {
  const auto it = values.find(id);
  return it != values.end() && it->second.size() == rounds ? it->second : std::vector<double>(rounds, -1.0);
}

KeptRounds rounds_kept(const PairedRounds& rounds, const KeyFigure& f, const GateOptions& options) {
  const std::string& id = f.id;
  const std::vector<double>& b = rounds.base.at(id);
  const std::vector<double>& n = rounds.next.at(id);
  const std::size_t count = b.size();
  // Core-bound figures (the private caches, dequant, compute) by their threads: where the threads share a level (L3,
  // DRAM) their own rates differ without a host's help (in 128 runs here DRAM's median spread was 5%, L1's and L2's
  // 1-2%), and a vCPU slowed by its sibling does not set the shared level's rate. Shared-memory and GEMM figures by
  // their placement: the private caches do not follow it.
  const bool by_threads = core_bound(f);
  const bool by_placement = !core_bound(f) || f.group == "gemm";
  const std::vector<double> none(count, -1.0);
  const std::vector<double> bs = by_threads ? per_round(rounds.base_spread, id, count) : none;
  const std::vector<double> ns = by_threads ? per_round(rounds.next_spread, id, count) : none;
  const std::vector<double> bk = by_threads ? per_round(rounds.base_scaling, id, count) : none;
  const std::vector<double> nk = by_threads ? per_round(rounds.next_scaling, id, count) : none;
  const std::vector<double> bp = by_placement ? per_round(rounds.base_round_trip, id, count) : none;
  const std::vector<double> np = by_placement ? per_round(rounds.next_round_trip, id, count) : none;
  std::vector<double> scalings;
  for (const std::vector<double>* v : {&bk, &nk}) {
    for (double x : *v) {
      if (x > 0.0) scalings.push_back(x);
    }
  }
  const double median_scaling = scalings.empty() ? 0.0 : median(scalings);
  const double least = (1.0 - options.max_scaling_drop) * median_scaling;
  const auto spread = [&](double x) { return x > options.max_thread_spread; };
  const auto together = [&](double x) { return x > 0.0 && x < least; };
  const auto moved = [&](std::size_t r) {
    return bp[r] > 0.0 && np[r] > 0.0 && std::max(bp[r], np[r]) > (1.0 + options.max_placement_shift) * std::min(bp[r], np[r]);
  };
  std::size_t base_disturbed = 0, next_disturbed = 0, placed_apart = 0;
  for (std::size_t r = 0; r < count; ++r) {
    base_disturbed += spread(bs[r]) || together(bk[r]);
    next_disturbed += spread(ns[r]) || together(nk[r]);
    placed_apart += moved(r);
  }
  const bool systematic = 2 * std::max({base_disturbed, next_disturbed, placed_apart}) > count;
  KeptRounds k;
  std::size_t by_spread = 0, by_scaling = 0, by_round_trip = 0;
  for (std::size_t r = 0; r < count; ++r) {
    const bool apart = spread(bs[r]) || spread(ns[r]);
    const bool alike = !apart && (together(bk[r]) || together(nk[r]));
    const bool placed = !apart && !alike && moved(r);
    if (systematic || !(apart || alike || placed)) {
      k.base.push_back(b[r]);
      k.next.push_back(n[r]);
    }
    by_spread += apart;
    by_scaling += alike;
    by_round_trip += placed;
  }
  const std::size_t left_out = count - k.base.size();
  if (systematic) {
    k.note = fmt::format("disturbed in {} of {} base and {} of {} new runs (threads more than {:.0f}% apart, or more than "
                         "{:.0f}% below the rounds' median scaling), the two runs' threads placed apart in {} of {} rounds: "
                         "every round kept (the build's or the cores', not one moment's)",
                         base_disturbed, count, next_disturbed, count, options.max_thread_spread * 100.0,
                         options.max_scaling_drop * 100.0, placed_apart, count);
  } else if (left_out > 0) {
    std::vector<std::string> why;
    if (by_spread > 0) {
      why.push_back(fmt::format("{} a run's threads' own rates more than {:.0f}% apart (the host slowed one vCPU)", by_spread,
                                options.max_thread_spread * 100.0));
    }
    if (by_scaling > 0) {
      why.push_back(fmt::format("{} a run's {} threads more than {:.0f}% below T x its 1-thread rate x the rounds' median "
                                "scaling {:.2f} (the host slowed both vCPUs alike)",
                                by_scaling, f.threads, options.max_scaling_drop * 100.0, median_scaling));
    }
    if (by_round_trip > 0) {
      why.push_back(fmt::format("{} the two runs' threads placed apart by the host (thread round trips more than {:.0f}% "
                                "apart)",
                                by_round_trip, options.max_placement_shift * 100.0));
    }
    k.note = fmt::format("{} of {} rounds left out: {}", left_out, count, fmt::join(why, "; "));
  }
  return k;
}

}  // namespace

double paired_floor(const KeyFigure& f, const GateOptions& options) {
  // A dequant dot at more than one thread loads the caches of every core it runs on, and on a shared VM a host
  // thread beside one of them (its SMT sibling) takes half its rate for seconds at a time, the 1-thread rows untouched
  // (the fourth A/A of results/reference/vm-amd-zen4-2vcpu_ci-gate-aa.txt: 4-6 of 44 runs 17-49% below the median,
  // the 1-thread rows 1 of 44): it scatters as the private caches do, and is judged against their floor.
  if (f.group == "dequant" && f.threads > 1) return options.floor_cache;
  if (f.group == "compute" || f.group == "dequant" || f.group == "clock") return options.floor;
  return f.group == "memory" && core_bound(f) ? options.floor_cache : options.floor_shared;
}

Gate gate_paired(const PairedRounds& rounds, const GateOptions& options, double gamma, double gamma_own, bool complete) {
  Gate g;
  for (const KeyFigure& f : rounds.figures) {
    if (!options.only_figures.empty() &&
        std::find(options.only_figures.begin(), options.only_figures.end(), f.id) == options.only_figures.end()) {
      continue;
    }
    const auto b = rounds.base.find(f.id), n = rounds.next.find(f.id);
    if (b == rounds.base.end() || n == rounds.next.end() || b->second.size() != n->second.size() || b->second.empty()) {
      g.only_in_next.push_back(f.id);
      continue;
    }
    // A figure most runs do not have (a level the sweep finds only now and then) cannot be paired round by round: it is
    // listed, not gated, and never holds the rounds open.
    // The rounds that planned it: focused rounds (paired_runs.hpp) measure only the suites of the figures undecided.
    const auto planned = rounds.planned_rounds.find(f.id);
    const int planned_rounds = planned == rounds.planned_rounds.end() ? rounds.rounds : planned->second;
    if (2 * b->second.size() < static_cast<std::size_t>(planned_rounds)) {
      g.not_comparable.push_back(fmt::format("{} (measured in {} of {} rounds: its level is not found in every run)", f.id,
                                             b->second.size(), planned_rounds));
      continue;
    }
    const KeptRounds kept = rounds_kept(rounds, f, options);
    std::optional<FigureRow> row = paired_row(f, kept.base, kept.next, options, gamma, gamma_own);
    if (!row) continue;
    if (!kept.note.empty()) row->why += "; " + kept.note;
    g.figures.push_back(std::move(*row));
  }
  for (const auto& [id, why] : rounds.mismatched) g.not_comparable.push_back(fmt::format("{} {}", id, why));
  if (g.figures.empty()) throw InputError("the paired runs have no key figure measured in every round");

  const auto count = [&](Verdict v) {
    return std::count_if(g.figures.begin(), g.figures.end(), [&](const FigureRow& r) { return r.verdict == v; });
  };
  const auto list = [&](Verdict v) {
    std::vector<std::string> out;
    for (const FigureRow& r : g.figures) {
      if (r.verdict == v) out.push_back(fmt::format("{} {}", r.figure.id, interval_text(r)));
    }
    return fmt::format("{}", fmt::join(out, "; "));
  };
  const auto disturbed = std::count_if(rounds.environments.begin(), rounds.environments.end(),
                                       [](const EnvironmentCheck& e) { return e.disturbed; });
  const std::string env = fmt::format("{} of {} runs disturbed (shown, not decisive: the rounds' interval carries it)",
                                      disturbed, rounds.environments.size());
  const std::size_t m = g.figures.size();
  g.method_line = fmt::format("paired A/B: {} rounds in random order; {} key figures; per figure the Hodges-Lehmann "
                              "estimate of the rounds' ratios and its signed-rank intervals: ok when its own interval "
                              "(each bound's error {:.2g}: alpha {:g} over the looks) lies inside +-floor, regression when "
                              "the family-wise one (error {:.2g}: alpha over the figures and the looks) lies beyond "
                              "-floor; floor {:.1f}% for compute, dequant and clock, {:.1f}% for L1/L2, {:.1f}% for L3, "
                              "DRAM, GEMV and GEMM",
                              rounds.rounds, m, gamma_own, options.alpha, gamma, options.floor * 100.0,
                              options.floor_cache * 100.0, options.floor_shared * 100.0);
  const auto regressions = count(Verdict::regression), undecided = count(Verdict::undecided);
  const std::string tally =
      fmt::format("{} ok, {} not worse, {} improvement, {} regression, {} undecided of {} key figures", count(Verdict::ok),
                  count(Verdict::not_worse), count(Verdict::improvement), regressions, undecided, m);
  if (regressions > 0) {
    g.outcome = Outcome::regression;
    g.verdict_line = fmt::format("verdict: REGRESSION: {}; {} after {} rounds; {}", list(Verdict::regression), tally,
                                 rounds.rounds, env);
  } else if (undecided > 0) {
    g.outcome = Outcome::undecided;
    g.verdict_line = fmt::format("verdict: {}: {} after {} rounds: {}; {}", complete ? "UNDECIDED" : "undecided so far", tally,
                                 rounds.rounds, list(Verdict::undecided), env);
  } else {
    g.outcome = Outcome::clean;
    g.verdict_line = fmt::format("verdict: clean: {} after {} rounds; {}", tally, rounds.rounds, env);
  }
  return g;
}

std::map<std::string, double> thread_scalings(const std::vector<KeyFigure>& figures) {
  std::map<std::string, double> one;  // the 1-thread figures' values by id
  for (const KeyFigure& f : figures) {
    if (f.threads == 1 && f.value > 0.0) one[f.id] = f.value;
  }
  std::map<std::string, double> out;
  for (const KeyFigure& f : figures) {
    if (f.threads < 2 || !core_bound(f) || !f.higher_is_better || !(f.value > 0.0)) continue;
    const std::string suffix = fmt::format("threads:{}", f.threads);
    const std::size_t at = f.id.rfind(suffix);
    if (at == std::string::npos || at + suffix.size() != f.id.size()) continue;  // "threads:T" is the id's end
    const auto partner = one.find(f.id.substr(0, at) + "threads:1");
    if (partner != one.end()) out[f.id] = f.value / (static_cast<double>(f.threads) * partner->second);
  }
  return out;
}

bool paired_undecided(const Gate& gate) {
  return std::any_of(gate.figures.begin(), gate.figures.end(), [](const FigureRow& r) { return r.verdict == Verdict::undecided; });
}

}  // namespace roofline
