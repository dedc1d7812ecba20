// `roofline compare BASE.json NEW.json [--history DB]`: the CI gate on two runs' key figures, and
// `roofline compare --base-bin A --new-bin B [--budget S] -- [run flags]`: paired A/B of two builds on
// this machine. Exit 0: clean (or inconclusive, with a loud line); 1: regression; 3: inconclusive with
// --fail-on-inconclusive, or paired rounds still undecided at their budget (0 with --allow-undecided); 2: bad
// input, or runs from different machines without --allow-machine-mismatch.
// Output: a terminal table on stdout; --markdown FILE (CI step summary, PR comment) and --json FILE, `-` for
// stdout in place of the table (the deprecated --out FILE took the one output on stdout). --print-rerun prints, per regressed figure, the `run` flags that re-measure it
// (scripts/ci-regression's confirmation).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "conventions.hpp"
#include "roofline/common/atomic_file.hpp"
#include "roofline/regress/compare.hpp"
#include "roofline/history/history.hpp"
#include "roofline/report/html_escape.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/results_document.hpp"
#include "roofline/drivers/paired_runs.hpp"
#include "roofline/harness/run_config.hpp"

namespace roofline::cli {
namespace fs = std::filesystem;
using nlohmann::json;

// "5", "5%", "2.5" -> 0.05, 0.05, 0.025 (also fleet's --threshold).
double parse_percent(const std::string& flag, std::string text) {
  if (!text.empty() && text.back() == '%') text.pop_back();
  std::size_t used = 0;
  double value = -1.0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !(value >= 0.0 && value < 1000.0)) {
    throw InputError(fmt::format("{}: '{}' is not a percentage between 0 and 1000 (e.g. 5 or 2.5%)", flag, text));
  }
  return value / 100.0;
}

namespace {

struct Args {
  std::vector<std::string> files;  // BASE NEW, or the run flags in paired mode
  std::string json, markdown, text_out;  // destinations; text_out only through the deprecated --out
  bool text_on_stdout = true;
  std::string row_threshold = "5", floor = "5", floor_no_history = "10", floor_cache = "10", floor_shared = "20", max_steal = "5", max_busy = "10", max_canary_drift = "10", max_core_canary_drift = "10", max_thread_spread = "5", max_scaling_drop = "20", max_placement_shift = "50", out, history, figures;
  std::string base_bin, next_bin, runs_dir;
  double alpha = 0.05;
  int rounds = 6, max_rounds = 40;
  double budget = 420.0;
  unsigned seed = 0;
  bool force = false, allow_mismatch = false, fail_on_inconclusive = false;
  bool print_rerun = false, allow_undecided = false, full_rounds = false;
};

// The `run` flags that re-measure one key figure: its suite at its thread count.
std::string rerun_flags(const KeyFigure& f) {
  const std::string_view suite = suite_of(f);
  if (suite.empty()) return fmt::format("{} (measured by `roofline llm measure`, not `run`)", f.id);
  return fmt::format("{} --suites {} --threads {}", f.id, suite, f.threads);
}

NoiseModel load_noise(const std::string& db, const ResultsDocument& next) {
  NoiseModel none;
  none.source = db;
  if (!fs::exists(db)) return none;  // the first run of a machine: recorded later, no history yet
  return noise_model(history_points(history_runs(db)), next, results_hash(next), db);
}

// Where each output goes: --json and --markdown where given, the text on stdout unless one of them takes it;
// the deprecated --out FILE takes the output that would go to stdout, and stdout stays empty.
void resolve_destinations(Args& a) {
  a.text_on_stdout = !stdout_taken({{"--json", a.json}, {"--markdown", a.markdown}});
  if (!a.out.empty()) {
    if (a.json == kStdout) a.json = a.out;
    else if (a.markdown == kStdout) a.markdown = a.out;
    else a.text_out = a.out;
    a.text_on_stdout = false;
  }
  const Overwrite overwrite = a.force ? Overwrite::yes : Overwrite::no;
  if (!a.json.empty()) check_output(a.json, overwrite, "--json");
  if (!a.markdown.empty()) check_output(a.markdown, overwrite, "--markdown");
  if (!a.text_out.empty()) check_output(a.text_out, overwrite, "--out");
}

void emit(const Args& a, const std::string& text, const std::string& markdown, const std::string& json_text) {
  const Overwrite overwrite = a.force ? Overwrite::yes : Overwrite::no;
  if (!a.json.empty()) write_output(a.json, json_text, overwrite);
  if (!a.markdown.empty()) write_output(a.markdown, markdown, overwrite);
  if (!a.text_out.empty()) write_output(a.text_out, text, overwrite);
  if (a.text_on_stdout) write_output(kStdout, text, overwrite);
}

void compare_files(const Args& a, const CompareOptions& options, CliState& state) {
  if (a.files.size() != 2) throw InputError("compare: give BASE.json NEW.json, or --base-bin A --new-bin B");
  const json base_json = load_json_file(a.files[0]);
  const json next_json = load_json_file(a.files[1]);
  // Each file read once, typed; in the order the errors have always come: with a history, the new run first.
  std::optional<ResultsDocument> next;
  if (!a.history.empty()) next = read_results(next_json, a.files[1]);
  NoiseModel noise;
  const bool with_history = next && next->roofline;
  if (with_history) noise = load_noise(a.history, *next);
  const ResultsDocument base = read_results(base_json, a.files[0]);
  if (!next) next = read_results(next_json, a.files[1]);
  const Comparison c = compare_runs(base, a.files[0], *next, a.files[1], options, with_history ? &noise : nullptr);
  emit(a, render_compare_text(c), render_compare_markdown(c), compare_to_json(c).dump(2) + "\n");
  // The report (with the mismatch at its top) is out; now refuse to gate.
  if (!c.same_machine && !options.allow_machine_mismatch) throw InputError(machine_mismatch_error(c));
  if (a.print_rerun && c.gate) {
    for (const FigureRow& r : c.gate->figures) {
      if (r.verdict == Verdict::regression) std::printf("rerun %s\n", rerun_flags(r.figure).c_str());
    }
  }
  if (c.gate && c.gate->outcome == Outcome::inconclusive) std::fprintf(stderr, "roofline: %s\n", c.gate->verdict_line.c_str());
  state.exit_code = c.exit_code();
}

void compare_paired(const Args& a, const CompareOptions& options, CliState& state) {
  if (a.base_bin.empty() || a.next_bin.empty()) throw InputError("--base-bin and --new-bin go together");
  PairedOptions p;
  p.base_bin = a.base_bin;
  p.next_bin = a.next_bin;
  p.run_flags = a.files;
  p.rounds = a.rounds;
  p.max_rounds = a.max_rounds;
  p.budget_seconds = a.budget;
  p.seed = a.seed;
  p.allow_machine_mismatch = a.allow_mismatch;
  p.focus = !a.full_rounds;
  std::string tmp;
  if (a.runs_dir.empty()) {
    std::string tmpl = (fs::temp_directory_path() / "roofline-paired-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw InputError("cannot create a temporary folder for the rounds");
    tmp = tmpl;
    p.work_dir = tmp;
  } else {
    if (!fs::is_directory(a.runs_dir)) throw InputError(fmt::format("--runs-dir {}: not a folder", a.runs_dir));
    p.work_dir = a.runs_dir;
  }
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      std::error_code ec;
      if (!dir.empty()) fs::remove_all(dir, ec);
    }
  } cleanup{tmp};
  const PairedResult r = run_paired(p, options.gate, [](const std::string& line) { std::fprintf(stderr, "compare: %s\n", line.c_str()); });
  std::string head = fmt::format("base: {}\nnew:  {}\nrounds: {} in {:.0f} s, stopped: {} (order per round: {}; seed {}; "
                                 "looks planned after rounds {})\n",
                                 a.base_bin, a.next_bin, r.rounds.rounds, r.seconds, r.stopped, fmt::join(r.order, " "),
                                 r.seed, fmt::join(r.looks, ", "));
  // Focused rounds (paired_runs.hpp): which suites each stretch of rounds measured.
  std::vector<std::string> stretches;
  for (std::size_t i = 0; i < r.round_suites.size();) {
    std::size_t j = i;
    while (j + 1 < r.round_suites.size() && r.round_suites[j + 1] == r.round_suites[i]) ++j;
    stretches.push_back(fmt::format("{} {}: {}", i == j ? "round" : "rounds",
                                    i == j ? fmt::format("{}", i + 1) : fmt::format("{}-{}", i + 1, j + 1),
                                    r.round_suites[i] == "all" ? "every suite" : "suites " + r.round_suites[i]));
    i = j + 1;
  }
  if (stretches.size() > 1) head += fmt::format("focused on the undecided figures' suites: {}\n", fmt::join(stretches, "; "));
  if (!r.configuration_differences.empty()) {
    head += fmt::format("configuration differs (compared; the figures both have are gated): {}\n",
                        fmt::join(r.configuration_differences, "; "));
  }
  {
    json doc = gate_to_json(r.gate);
    doc["base_bin"] = a.base_bin;
    doc["new_bin"] = a.next_bin;
    doc["rounds"] = r.rounds.rounds;
    doc["order"] = r.order;
    doc["round_suites"] = r.round_suites;
    doc["seed"] = r.seed;
    doc["configuration_differences"] = r.configuration_differences;
    doc["looks"] = r.looks;
    doc["gamma"] = r.gamma;
    doc["gamma_own"] = r.gamma_own;
    doc["seconds"] = r.seconds;
    doc["stopped"] = r.stopped;
    doc["exit_code"] = exit_code(r.gate.outcome, options.fail_on_inconclusive, a.allow_undecided);
    emit(a, head + "\n" + render_gate_text(r.gate),
         "## roofline compare (paired A/B)\n\n" + markdown_escape(head) + "\n" + render_gate_markdown(r.gate),
         doc.dump(2) + "\n");
  }
  if (r.gate.outcome == Outcome::inconclusive || r.gate.outcome == Outcome::undecided) {
    std::fprintf(stderr, "roofline: %s\n", r.gate.verdict_line.c_str());
  }
  state.exit_code = exit_code(r.gate.outcome, options.fail_on_inconclusive, a.allow_undecided);
}

}  // namespace

// The paired A/B flags (--base-bin, --new-bin, the rounds' schedule and budget, and the rounds each figure leaves out).
void add_paired_options(CLI::App* cmd, Args& args) {
  Args* a = &args;
  cmd->add_option("--max-thread-spread", a->max_thread_spread,
                  "Paired rounds: a round whose run had its threads' own rates more than PCT apart under a core-bound "
                  "figure (L1, L2, dequant) at several threads is left out of that figure (the host slowed one vCPU)")
      ->type_name("PCT")
      ->capture_default_str();
  cmd->add_option("--max-scaling-drop", a->max_scaling_drop,
                  "Paired rounds: a round whose run measured a core-bound figure at T threads more than PCT below T x its "
                  "own 1-thread rate x the rounds' median scaling is left out of that figure (the host slowed both vCPUs "
                  "alike)")
      ->type_name("PCT")
      ->capture_default_str();
  cmd->add_option("--max-placement-shift", a->max_placement_shift,
                  "Paired rounds: a round whose two runs measured a shared-memory or GEMM figure at several threads with "
                  "their threads' round trip more than PCT apart is left out of that figure (the host placed the vCPUs "
                  "differently)")
      ->type_name("PCT")
      ->capture_default_str();
  cmd->add_option("--base-bin", a->base_bin, "Paired A/B: the baseline roofline executable");
  cmd->add_option("--new-bin", a->next_bin, "Paired A/B: the new roofline executable");
  cmd->add_option("--rounds", a->rounds, "Paired A/B: rounds before the first look (at least)")->capture_default_str();
  cmd->add_option("--max-rounds", a->max_rounds, "Paired A/B: rounds at most while a figure is undecided")->capture_default_str();
  cmd->add_option("--budget", a->budget, "Paired A/B: seconds the rounds may take at most (0: no limit)")->capture_default_str();
  cmd->add_flag("--full-rounds", a->full_rounds,
                "Paired A/B: every round runs every suite (default: after a look, only the suites of the figures still "
                "undecided)");
  cmd->add_flag("--allow-undecided", a->allow_undecided,
                "Paired A/B: exit 0 (not 3) when figures are still undecided at the budget");
  cmd->add_option("--runs-dir", a->runs_dir, "Paired A/B: keep the rounds' results files in this folder");
  cmd->add_option("--seed", a->seed, "Paired A/B: seed of the per-round order (default: random)");
}

void add_compare_command(CLI::App& app, CliState& state) {
  auto* cmd = app.add_subcommand(
      "compare", "Gate two runs on their key figures (or two builds, paired A/B); exit 1 on a regression");
  auto a = std::make_shared<Args>();
  cmd->add_option("RESULTS", a->files, "BASE.json NEW.json (results files); in paired mode, after --: flags for `run`");
  cmd->add_option("--history", a->history, "History database (SQLite) of earlier runs: per-figure noise thresholds");
  cmd->add_option("--floor", a->floor, "Smallest relative change, in percent, that can gate (with history, paired)")
      ->type_name("PCT")
      ->capture_default_str();
  cmd->add_option("--floor-no-history", a->floor_no_history, "The floor without a history, in percent")
      ->type_name("PCT")->capture_default_str();
  cmd->add_option("--floor-cache", a->floor_cache,
                  "Paired A/B: the floor, in percent, of L1/L2 and multi-thread dequant figures (--floor: compute, 1-thread dequant, clock)")
      ->type_name("PCT")
      ->capture_default_str();
  cmd->add_option("--floor-shared", a->floor_shared,
                  "Paired A/B: the floor, in percent, of L3, DRAM, GEMV/GEMM and roof-of-the-moment figures")
      ->type_name("PCT")
      ->capture_default_str();
  cmd->add_option("--max-steal", a->max_steal, "CPU steal, in percent of the run, above which a run is disturbed")
      ->type_name("PCT")
      ->capture_default_str();
  cmd->add_option("--max-busy", a->max_busy, "CPU time of other processes, in percent of the run, above which a run is disturbed")
      ->type_name("PCT")
      ->capture_default_str();
  cmd->add_option("--max-core-canary-drift", a->max_core_canary_drift,
                  "core canary (L2 read) change, in percent, above which the cores' throughput moved (compute, L1/L2 and "
                  "compute-bound GEMM figures not trusted)")
      ->type_name("PCT")
      ->capture_default_str();
  cmd->add_option("--max-canary-drift", a->max_canary_drift,
                  "DRAM canary change, in percent, above which the memory environment moved (L3/DRAM figures not trusted)")
      ->type_name("PCT")
      ->capture_default_str();
  cmd->add_option("--figures", a->figures, "Gate only these key figures (comma-separated ids)");
  cmd->add_flag("--fail-on-inconclusive", a->fail_on_inconclusive, "Exit 3 (not 0) on an inconclusive verdict");
  cmd->add_option("--row-threshold", a->row_threshold,
                  "Benchmark rows (and plain Google Benchmark files): relative change in percent a regression must exceed")
      ->type_name("PCT")
      ->capture_default_str();
  add_deprecated_alias(cmd, "--threshold", "--row-threshold", a->row_threshold);
  cmd->add_option("--alpha", a->alpha, "Significance, a fraction (0.05, not 5%): family-wise over the key figures; U "
                                       "test of benchmark rows")
      ->capture_default_str();
  add_paired_options(cmd, *a);
  cmd->add_option("--markdown", a->markdown, "Write the comparison as Markdown (CI step summary, PR comment) to FILE "
                                             "(- : stdout, instead of the table)")->type_name("FILE");
  cmd->add_option("--json", a->json, "Write the comparison as JSON to FILE (- : stdout, instead of the table)")
      ->type_name("FILE");
  add_deprecated_alias(cmd, "--out", "--json FILE or --markdown FILE (the table: redirect stdout)", a->out);
  cmd->add_flag("--force", a->force, "Overwrite the --json and --markdown files if they exist");
  cmd->add_flag("--allow-machine-mismatch", a->allow_mismatch, "Gate even when the runs come from different machines");
  cmd->add_flag("--print-rerun", a->print_rerun, "Print 'rerun ID FLAGS' for each regressed key figure");
  cmd->callback([a, &state] {
    CompareOptions options;
    options.threshold = parse_percent("--row-threshold", a->row_threshold);
    options.alpha = a->alpha;
    options.allow_machine_mismatch = a->allow_mismatch;
    options.fail_on_inconclusive = a->fail_on_inconclusive;
    options.gate.floor = parse_percent("--floor", a->floor);
    options.gate.floor_no_history = parse_percent("--floor-no-history", a->floor_no_history);
    options.gate.floor_cache = parse_percent("--floor-cache", a->floor_cache);
    options.gate.floor_shared = parse_percent("--floor-shared", a->floor_shared);
    options.gate.max_steal = parse_percent("--max-steal", a->max_steal);
    options.gate.max_thread_spread = parse_percent("--max-thread-spread", a->max_thread_spread);
    options.gate.max_scaling_drop = parse_percent("--max-scaling-drop", a->max_scaling_drop);
    if (!(options.gate.max_scaling_drop < 1.0)) throw InputError("--max-scaling-drop must be below 100");
    options.gate.max_placement_shift = parse_percent("--max-placement-shift", a->max_placement_shift);
    options.gate.max_busy = parse_percent("--max-busy", a->max_busy);
    options.gate.max_canary_drift = parse_percent("--max-canary-drift", a->max_canary_drift);
    options.gate.max_core_canary_drift = parse_percent("--max-core-canary-drift", a->max_core_canary_drift);
    options.gate.alpha = a->alpha;
    if (!(a->alpha > 0.0 && a->alpha < 1.0)) throw InputError("--alpha must be between 0 and 1");
    if (!a->figures.empty()) options.gate.only_figures = parse_name_list(a->figures, "--figures");
    resolve_destinations(*a);
    if (!a->base_bin.empty() || !a->next_bin.empty()) {
      compare_paired(*a, options, state);
    } else {
      compare_files(*a, options, state);
    }
  });
}

}  // namespace roofline::cli
