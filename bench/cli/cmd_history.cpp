// `roofline history add RESULTS.json --db FILE` records a run's key figures in an SQLite history;
// `roofline history show --db FILE` prints them per run and charts their trend (--svg, --html);
// `roofline history calibrate --db FILE` prints each key figure's run-to-run spread and the A/A
// false-alarm rates the compare gate would have had (scripts/calibrate-noise fills the database);
// `roofline history changes --db FILE` lists the change points of each key figure's series (E-divisive means).
// Output files (--svg, --html, --json) may be `-`: stdout, instead of the table.
// Concurrent adds from parallel CI jobs are safe (see roofline/history/history.hpp); a corrupt, foreign or locked
// database is refused with exit 2 and left as it was.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "conventions.hpp"
#include "roofline/common/atomic_file.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/history/history.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/results_document.hpp"

namespace roofline::cli {
namespace {

std::chrono::milliseconds wait_of(double seconds) {
  if (!(seconds >= 0.0 && seconds <= 3600.0)) throw InputError("--wait: seconds must be between 0 and 3600");
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0));
}

struct Args {
  std::string results, db, svg, html, json, floor = "5", floor_no_history = "10", min_change = "5";
  std::vector<std::string> figures;
  double alpha = 0.05;
  double wait = 30.0;
  std::size_t last = 10;
  bool force = false;
};
constexpr const char* db_help = "History database (SQLite; env ROOFLINE_HISTORY_DB)";
constexpr const char* wait_help = "Seconds to wait for another process holding the database";

void add_changes_command(CLI::App* cmd, const std::shared_ptr<Args>& args);
void add_show_command(CLI::App* cmd, const std::shared_ptr<Args>& args);

}  // namespace

void add_history_command(CLI::App& app, CliState&) {
  auto* cmd = app.add_subcommand("history", "Record runs in a history database and chart their key figures");
  cmd->require_subcommand(1);
  auto args = std::make_shared<Args>();

  auto* add = cmd->add_subcommand("add", "Add a results file's key figures to the history");
  add->add_option("RESULTS", args->results, "A roofline results file")->required();
  add->add_option("--db", args->db, db_help)->envname("ROOFLINE_HISTORY_DB")->required();
  add->add_option("--wait", args->wait, wait_help)->capture_default_str();
  add->callback([args] {
    const auto wait = wait_of(args->wait);
    const ResultsDocument results = load_results_document(args->results);  // read before the database is opened
    const HistoryAddResult r = history_add(args->db, results, args->results, wait);
    if (r.added) {
      std::printf("added run #%lld (%zu key figures) to %s\n", r.run_id, r.figures, args->db.c_str());
    } else {
      std::printf("%s is already recorded as run #%lld in %s; nothing added\n", args->results.c_str(), r.run_id,
                  args->db.c_str());
    }
  });

  auto* calibrate = cmd->add_subcommand("calibrate", "Run-to-run spread of each key figure and the gate's A/A false-alarm rate");
  calibrate->add_option("--db", args->db, db_help)->envname("ROOFLINE_HISTORY_DB")->required();
  calibrate->add_option("--floor", args->floor, "The gate's floor with history, in percent")
      ->type_name("PCT")->capture_default_str();
  calibrate->add_option("--floor-no-history", args->floor_no_history, "The gate's floor without history, in percent")
      ->type_name("PCT")
      ->capture_default_str();
  calibrate->add_option("--alpha", args->alpha, "Family-wise alpha over the key figures, a fraction (0.05, not 5%)")
      ->capture_default_str();
  calibrate->add_option("--wait", args->wait, wait_help)->capture_default_str();
  calibrate->callback([args] {
    GateOptions options;
    options.floor = parse_percent("--floor", args->floor);
    options.floor_no_history = parse_percent("--floor-no-history", args->floor_no_history);
    if (!(args->alpha > 0.0 && args->alpha < 1.0)) throw InputError("--alpha must be between 0 and 1");
    options.alpha = args->alpha;
    const std::string text = render_calibration_text(calibrate_noise(history_runs(args->db, wait_of(args->wait)), options));
    std::fwrite(text.data(), 1, text.size(), stdout);
  });

  add_changes_command(cmd, args);
  add_show_command(cmd, args);
}

namespace {

void add_changes_command(CLI::App* cmd, const std::shared_ptr<Args>& args) {
  auto* changes = cmd->add_subcommand("changes", "Change points in each key figure's series (E-divisive means)");
  changes->add_option("--db", args->db, db_help)->envname("ROOFLINE_HISTORY_DB")->required();
  changes->add_option("--figure", args->figures, "Only these key figures (ids, as `history calibrate` lists them)");
  changes->add_option("--min-change", args->min_change, "Smallest change listed, in percent (median after vs before)")
      ->type_name("PCT")
      ->capture_default_str();
  changes->add_option("--alpha", args->alpha,
                      "Significance: the permutation p-value a change must reach, a fraction (0.05, not 5%)")
      ->capture_default_str();
  changes->add_option("--json", args->json, "Write the change points as JSON to FILE (- : stdout, instead of the table)")
      ->type_name("FILE");
  changes->add_flag("--force", args->force, "Overwrite the --json file if it exists");
  changes->add_option("--wait", args->wait, wait_help)->capture_default_str();
  changes->callback([args] {
    ChangePointOptions options;
    options.min_change = parse_percent("--min-change", args->min_change);
    if (!(args->alpha > 0.0 && args->alpha < 1.0)) throw InputError("--alpha must be between 0 and 1");
    options.alpha = args->alpha;
    const Overwrite overwrite = args->force ? Overwrite::yes : Overwrite::no;
    const bool table = !stdout_taken({{"--json", args->json}});
    if (!args->json.empty()) check_output(args->json, overwrite, "--json");
    const std::vector<HistoryRun> runs = history_runs(args->db, wait_of(args->wait));
    const HistoryChanges found = history_changes(runs, args->figures, options);
    if (!args->json.empty()) write_output(args->json, changes_to_json(found).dump(2) + "\n", overwrite);
    if (table) write_output(kStdout, render_changes_text(found), overwrite);
  });

}

void add_show_command(CLI::App* cmd, const std::shared_ptr<Args>& args) {
  auto* show = cmd->add_subcommand("show", "Print the key figures per run and chart their trend");
  show->add_option("--db", args->db, db_help)->envname("ROOFLINE_HISTORY_DB")->required();
  show->add_option("--last", args->last, "How many of the latest runs the table shows")->capture_default_str();
  show->add_option("--svg", args->svg, "Write the trend chart as SVG to FILE (- : stdout, instead of the table)")
      ->type_name("FILE");
  show->add_option("--html", args->html, "Write the trend chart and the table as an HTML page to FILE (- : stdout, "
                                         "instead of the table)")->type_name("FILE");
  show->add_flag("--force", args->force, "Overwrite --svg/--html files that exist");
  show->add_option("--wait", args->wait, wait_help)->capture_default_str();
  show->callback([args] {
    const auto wait = wait_of(args->wait);
    if (args->last == 0) throw InputError("--last must be at least 1");
    const Overwrite overwrite = args->force ? Overwrite::yes : Overwrite::no;
    const bool table = !stdout_taken({{"--svg", args->svg}, {"--html", args->html}});
    if (!args->svg.empty()) check_output(args->svg, overwrite, "--svg");
    if (!args->html.empty()) check_output(args->html, overwrite, "--html");
    const std::vector<HistoryRun> runs = history_runs(args->db, wait);
    if (table) write_output(kStdout, render_history_text(runs, args->last), overwrite);
    // The charts mark the change points of the latest run's machine and configuration (`history changes`' defaults).
    std::vector<HistoryChange> marks;
    const bool charted = !args->svg.empty() || !args->html.empty();
    if (charted && std::any_of(runs.begin(), runs.end(), [](const HistoryRun& r) { return !r.machine_id.empty(); })) {
      marks = history_changes(runs, {}, ChangePointOptions{}).changes;
    }
    if (!args->svg.empty()) {
      write_output(args->svg, render_history_svg(runs, marks), overwrite);
      if (table) std::printf("chart: %s\n", args->svg.c_str());
    }
    if (!args->html.empty()) {
      write_output(args->html, render_history_html(runs, marks), overwrite);
      if (table) std::printf("page: %s\n", args->html.c_str());
    }
  });
}

}  // namespace

}  // namespace roofline::cli
