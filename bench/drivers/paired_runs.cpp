// Paired A/B rounds: spawning the two builds' `run` in random order, collecting each round's key
// figures and environment, and extending the rounds while unclear. See paired_runs.hpp.
#include "roofline/drivers/paired_runs.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <random>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/harness/target.hpp"
#include "roofline/regress/compare_levels.hpp"
#include "roofline/regress/identity.hpp"
#include "roofline/regress/paired_interval.hpp"
#include "roofline/model/key_figures.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/results_document.hpp"

extern char** environ;

namespace roofline {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Runs `bin run --out OUT --force --no-report --quiet FLAGS...` with stdout to /dev/null (stderr stays
// visible: a failing run says why) and returns its results.
ResultsDocument run_one(const std::string& bin, const fs::path& out, const std::vector<std::string>& flags) {
  std::vector<std::string> args{bin, "run", "--out", out.string(), "--force", "--no-report", "--quiet"};
  args.insert(args.end(), flags.begin(), flags.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, bin.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw InputError(fmt::format("{}: cannot run ({})", bin, std::strerror(rc)));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw InputError(fmt::format("{} run {}: {} {}", bin, fmt::join(flags, " "),
                                 WIFEXITED(status) ? "exited with" : "was killed by signal",
                                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status)));
  }
  return load_results_document(out);
}

// The round's key figures, like with like: every run's memory figures are taken over the sizes of the first round's
// base run's levels (compare_levels.hpp's align_memory_figures), so that a level boundary that moves by a size
// between runs (the gate profile sweeps one size per octave) changes no figure's statistic, only its own noise.
std::vector<KeyFigure> aligned_figures(const ResultsDocument& reference, const std::vector<KeyFigure>& reference_figures,
                                       const ResultsDocument& run) {
  std::vector<KeyFigure> figures = key_figures(run);
  if (&reference != &run) align_memory_figures(reference, reference_figures, run, figures);
  return figures;
}

void add_round(PairedRounds& rounds, const ResultsDocument& reference, const std::vector<KeyFigure>& reference_figures,
               const ResultsDocument& base, const ResultsDocument& next, const GateOptions& gate) {
  // key_figures.hpp reads the JSON a document writes (the key figures are not on the typed model yet).
  std::map<std::string, KeyFigure> b;
  for (KeyFigure& f : aligned_figures(reference, reference_figures, base)) b[f.id] = std::move(f);
  std::vector<KeyFigure> n = aligned_figures(reference, reference_figures, next);
  // Like with like: a figure the two builds take differently (a GEMM at another shape) is not paired.
  std::erase_if(n, [&](const KeyFigure& f) {
    const auto it = b.find(f.id);
    if (it == b.end() || it->second.statistic == f.statistic) return false;
    rounds.mismatched[f.id] = fmt::format("(base: {}, new: {})", it->second.statistic, f.statistic);
    return true;
  });
  if (rounds.rounds == 0) {
    for (const KeyFigure& f : n) {
      if (b.contains(f.id)) rounds.figures.push_back(f);
    }
  }
  std::map<std::string, const KeyFigure*> reference_by_id;
  for (const KeyFigure& f : reference_figures) reference_by_id[f.id] = &f;
  // The threads' rate spread under the figure in a run, -1 where it has none (gate_paired leaves a disturbed round out).
  const auto spread = [&](const std::string& id, const ResultsDocument& run) {
    const auto it = reference_by_id.find(id);
    return it == reference_by_id.end() ? -1.0 : figure_thread_spread(reference, *it->second, run).value_or(-1.0);
  };
  // Where the host put the run's threads under the figure, -1 where it has none (gate_paired pairs like with like).
  const auto round_trip = [&](const std::string& id, const ResultsDocument& run) {
    const auto it = reference_by_id.find(id);
    return it == reference_by_id.end() ? -1.0 : figure_thread_round_trip(reference, *it->second, run).value_or(-1.0);
  };
  // T threads against T x one thread in the same run (gate_paired leaves a round whose vCPUs were slowed alike out).
  std::vector<KeyFigure> base_figures;
  for (const auto& [id, f] : b) base_figures.push_back(f);
  const std::map<std::string, double> base_scaling = thread_scalings(base_figures), next_scaling = thread_scalings(n);
  const auto scaling = [](const std::map<std::string, double>& s, const std::string& id) {
    const auto it = s.find(id);
    return it == s.end() ? -1.0 : it->second;
  };
  for (const KeyFigure& f : n) {
    if (b.contains(f.id) && !rounds.mismatched.contains(f.id)) {
      rounds.base[f.id].push_back(b[f.id].value);
      rounds.next[f.id].push_back(f.value);
      rounds.base_spread[f.id].push_back(spread(f.id, base));
      rounds.next_spread[f.id].push_back(spread(f.id, next));
      rounds.base_scaling[f.id].push_back(scaling(base_scaling, f.id));
      rounds.next_scaling[f.id].push_back(scaling(next_scaling, f.id));
      rounds.base_round_trip[f.id].push_back(round_trip(f.id, base));
      rounds.next_round_trip[f.id].push_back(round_trip(f.id, next));
    }
  }
  rounds.environments.push_back(check_environment(base, gate.max_canary_drift, gate));
  rounds.environments.push_back(check_environment(next, gate.max_canary_drift, gate));
  ++rounds.rounds;
}

// Round `r`: both builds' `run` in the round's order, on the suites of `focus` (empty: the run flags as given).
std::pair<ResultsDocument, ResultsDocument> run_round(const PairedOptions& o, int r, bool base_first,
                                                      const std::vector<std::string>& focus,
                                                      const std::function<void(const std::string&)>& log) {
  const std::string suites = fmt::format("{}", fmt::join(focus, ","));
  std::vector<std::string> flags = o.run_flags;
  if (!focus.empty()) {
    flags.push_back("--suites");
    flags.push_back(suites);
  }
  ResultsDocument base, next;
  for (int i = 0; i < 2; ++i) {
    const bool is_base = (i == 0) == base_first;
    const fs::path out = o.work_dir / fmt::format("round{:02d}_{}.json", r, is_base ? "base" : "new");
    log(fmt::format("round {}: {} ({}){}", r, is_base ? "base" : "new", is_base ? o.base_bin : o.next_bin,
                    focus.empty() ? "" : fmt::format(", suites {} (the undecided figures')", suites)));
    (is_base ? base : next) = run_one(is_base ? o.base_bin : o.next_bin, out, flags);
  }
  return {std::move(base), std::move(next)};
}

bool names_suites(const std::vector<std::string>& flags) {
  return std::any_of(flags.begin(), flags.end(), [](const std::string& f) { return f == "--suites" || f.starts_with("--suites="); });
}

}  // namespace

std::vector<std::string> undecided_suites(const Gate& gate) {
  std::vector<std::string> out;
  for (const std::string_view suite : kSuiteNames) {
    for (const FigureRow& r : gate.figures) {
      if (r.verdict != Verdict::undecided) continue;
      const std::string_view s = suite_of(r.figure);
      if (s.empty()) return {};
      if (s == suite) {
        out.emplace_back(suite);
        break;
      }
    }
  }
  return out;
}

PairedResult run_paired(const PairedOptions& o, const GateOptions& gate, const std::function<void(const std::string&)>& log) {
  if (o.rounds < 1 || o.max_rounds < o.rounds) throw InputError("--rounds must be at least 1 and --max-rounds at least --rounds");
  if (!(o.budget_seconds >= 0.0)) throw InputError("--budget must be a number of seconds >= 0");
  for (const std::string& bin : {o.base_bin, o.next_bin}) {
    if (bin.find('/') != std::string::npos && ::access(bin.c_str(), X_OK) != 0) {
      throw InputError(fmt::format("{}: not an executable file", bin));
    }
  }
  PairedResult result;
  result.seed = o.seed != 0 ? o.seed : std::random_device{}();
  std::mt19937 rng(result.seed);
  std::vector<std::string> mismatch;
  ResultsDocument reference;  // the first round's base run: its levels' sizes are every round's
  std::vector<KeyFigure> reference_figures;
  std::vector<std::string> focus;  // the suites of the figures undecided at the last look; empty: whole rounds
  std::map<std::string, double> slowest;  // the slowest round so far per suites ("all", "bandwidth,gemm")
  const bool may_focus = o.focus && !names_suites(o.run_flags);
  const auto started = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };
  for (int r = 1;; ++r) {
    const double round_start = elapsed();
    const bool base_first = std::uniform_int_distribution<int>(0, 1)(rng) == 0;
    result.order.push_back(base_first ? "AB" : "BA");
    const std::string suites = focus.empty() ? "all" : fmt::format("{}", fmt::join(focus, ","));
    result.round_suites.push_back(suites);
    auto [base, next] = run_round(o, r, base_first, focus, log);
    if (r == 1) {
      mismatch = fact_differences(machine_facts(base), machine_facts(next));
      if (!mismatch.empty() && !o.allow_machine_mismatch) {
        throw InputError(fmt::format("{} and {} report different machines ({}); pass --allow-machine-mismatch to compare anyway",
                                     o.base_bin, o.next_bin, fmt::join(mismatch, "; ")));
      }
      result.configuration_differences = fact_differences(configuration_facts(base), configuration_facts(next));
    }
    if (r == 1) {
      reference = base;
      reference_figures = key_figures(reference);
    }
    add_round(result.rounds, reference, reference_figures, base, next, gate);
    for (const KeyFigure& f : result.rounds.figures) {
      // A figure of a suite this round left out was not planned in it (gate_paired counts its rounds from these).
      const bool planned = focus.empty() || std::find(focus.begin(), focus.end(), suite_of(f)) != focus.end();
      result.rounds.planned_rounds[f.id] += planned ? 1 : 0;
    }
    result.rounds.round_seconds.push_back(elapsed() - round_start);
    slowest[suites] = std::max(slowest[suites], result.rounds.round_seconds.back());
    if (r == 1) {
      // The schedule is fixed now, before any look: the figures' count sets alpha's share per bound.
      std::size_t figures = 0;
      for (const KeyFigure& f : result.rounds.figures) {
        figures += gate.only_figures.empty() ||
                   std::find(gate.only_figures.begin(), gate.only_figures.end(), f.id) != gate.only_figures.end();
      }
      const PairedPlan plan = paired_plan(gate.alpha, static_cast<int>(std::max<std::size_t>(1, figures)), o.rounds, o.max_rounds);
      result.looks = plan.looks;
      result.gamma = plan.gamma;
      result.gamma_own = plan.gamma_own;
      log(fmt::format("{} key figures; looks after rounds {} (bound errors {:.2g} for ok, {:.2g} for a regression); round 1 "
                      "took {:.1f} s",
                      figures, fmt::join(plan.looks, ", "), plan.gamma_own, plan.gamma, result.rounds.round_seconds.back()));
    }
    // The next round's time: the slowest so far of the same suites (of any, before the first of them); a round that
    // would overrun the budget is not started. A look can focus the rounds: the time is checked again after it.
    const auto next_round = [&](const std::string& key) {
      const auto it = slowest.find(key);
      return it != slowest.end() ? it->second
                                 : *std::max_element(result.rounds.round_seconds.begin(), result.rounds.round_seconds.end());
    };
    const auto fits = [&](const std::string& key) { return o.budget_seconds <= 0.0 || elapsed() + next_round(key) <= o.budget_seconds; };
    const bool look = std::find(result.looks.begin(), result.looks.end(), r) != result.looks.end();
    if (!look && r < o.max_rounds && fits(suites)) continue;
    // A look: planned, or the last round (the rounds' limit, or the next round would not fit, unless focusing on the
    // undecided figures' suites makes it fit: then the gate only chose the suites, and decides nothing yet).
    Gate g = gate_paired(result.rounds, gate, result.gamma, result.gamma_own, false);
    if (!paired_undecided(g)) {
      result.gate = gate_paired(result.rounds, gate, result.gamma, result.gamma_own, true);
      result.stopped = "decided";
      break;
    }
    if (may_focus) focus = undecided_suites(g);
    const std::string next_suites = focus.empty() ? "all" : fmt::format("{}", fmt::join(focus, ","));
    const bool last = r >= o.max_rounds || !fits(next_suites);
    result.gate = last ? gate_paired(result.rounds, gate, result.gamma, result.gamma_own, true) : std::move(g);
    if (last) {
      result.stopped = r >= o.max_rounds ? "max rounds" : fmt::format("budget ({:.0f} s)", o.budget_seconds);
      break;
    }
    log(fmt::format("look after {} rounds: undecided ({}); going on", r, result.gate.verdict_line));
  }
  result.seconds = elapsed();
  return result;
}

}  // namespace roofline
