// The history of runs (`roofline history add|show|calibrate|changes`): key figures of each results file in an SQLite
// database, so CI can chart the trend of DRAM triad, L1 read, peak per precision, GEMV and GEMM across
// commits. SQLite because concurrent CI jobs may add at the same time: every add is one transaction
// (BEGIN IMMEDIATE, WAL journal, a busy timeout), so none is lost and a reader never sees half a run.
// A database that is corrupt, not ours, of a newer schema, or locked for longer than the wait is an
// InputError and is never written to.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/history/change_points.hpp"
#include "roofline/regress/compare_gate.hpp"
#include "roofline/model/results_document.hpp"

namespace roofline {

// Version 2: the key figures of key_figures.hpp (every thread count) and, per run, the machine and
// configuration identities the noise model matches on. A version-1 database is read (its runs match no
// machine, so they give no noise model) and upgraded in place by the next add.
inline constexpr int kHistorySchemaVersion = 2;

struct HistoryFigure {
  std::string key;    // the KeyFigure id: "memory/DRAM/triad/threads:2", "compute/fp32/vector/threads:2", ...
  std::string label;  // for people
  double value = 0.0;
  std::string unit;   // "B/s", "FLOP/s", "OP/s", "Hz"
  int threads = 0;
  std::string detail;  // the KeyFigure group: memory, compute, clock, gemm
};

struct HistoryRun {
  long long id = 0;
  std::string added_at, date, git_revision, host, cpu_model, profile, source;
  std::string machine_id, configuration_id, content_hash;  // compare_gate.hpp's identities
  std::vector<HistoryFigure> figures;
};

// The runs as the noise model reads them (compare_gate.hpp).
std::vector<HistoryPoint> history_points(const std::vector<HistoryRun>& runs);
// FNV-1a of a results file's canonical JSON (the typed document written back, which is the file's own text):
// how the history recognises a file it already holds.
std::string results_hash(const ResultsDocument& results);

struct HistoryAddResult {
  long long run_id = 0;
  bool added = false;  // false: this very file was already recorded (same content), nothing written
  std::size_t figures = 0;
};

// Adds one run. `results` must be a roofline results file (read by read_results or load_results_document);
// `source` is recorded (e.g. the file's path). Creates the database when it does not exist.
HistoryAddResult history_add(const std::filesystem::path& db, const ResultsDocument& results, const std::string& source,
                             std::chrono::milliseconds wait = std::chrono::seconds(30));

// All runs, oldest first, with their figures. The database must exist.
std::vector<HistoryRun> history_runs(const std::filesystem::path& db,
                                     std::chrono::milliseconds wait = std::chrono::seconds(30));

// Calibration (`roofline history calibrate`, scripts/calibrate-noise): for the machine and configuration
// of the latest run, each key figure's run-to-run spread (median, MAD, robust spread) and the threshold
// the gate would use, and the A/A false-alarm rates the gate would have had on these runs: consecutive
// pairs judged without history (the no-history floor), and each run judged against the others
// (leave-one-out, when at least kMinHistoryRuns others).
struct CalibrationFigure {
  std::string id, label, unit;
  int runs = 0;
  double median = 0.0, mad = 0.0, relative_spread = 0.0, threshold = 0.0, min = 0.0, max = 0.0;
  std::string threshold_source;
  int pairs_flagged = 0;  // consecutive pairs where this figure alone would fail the no-history gate
  int runs_flagged = 0;   // leave-one-out runs where it would fail the history gate
};
struct Calibration {
  std::string machine_id, configuration_id;
  int runs = 0, pairs = 0, pairs_flagged = 0, loo_runs = 0, loo_flagged = 0;
  double k = 0.0;
  GateOptions options;
  std::vector<CalibrationFigure> figures;
};
// Throws InputError when the history has no run with a machine identity (schema-1 runs only).
Calibration calibrate_noise(const std::vector<HistoryRun>& runs, const GateOptions& options);
std::string render_calibration_text(const Calibration& calibration);

// Change points (`roofline history changes`, change_points.hpp): for the machine and configuration of the latest run
// (as calibrate), each key figure's series over its runs, oldest first, and where its level moved. `figures` empty:
// every key figure but the canary (the environment, not a figure); an id the runs do not have is an InputError, as is
// a history with no run with a machine identity (schema-1 runs only).
struct HistoryChange {
  std::string figure, label, unit;
  std::size_t index = 0;   // the first run after the change, in the figure's series (0-based)
  std::size_t series = 0;  // how many runs the series has
  double size = 0.0, p_value = 1.0, median_before = 0.0, median_after = 0.0;  // ChangePoint's
  const HistoryRun* before = nullptr;  // the last run before the change and the first after it (in `runs`)
  const HistoryRun* after = nullptr;
};
struct HistoryChanges {
  std::string machine_id, configuration_id;
  int runs = 0;                 // of this machine and configuration
  std::size_t figures = 0;      // key figures searched
  ChangePointOptions options;
  std::vector<HistoryChange> changes;  // per figure in first-seen order, then by index
};
// The result points into `runs`, which must outlive it.
HistoryChanges history_changes(const std::vector<HistoryRun>& runs, const std::vector<std::string>& figures,
                               const ChangePointOptions& options);
std::string render_changes_text(const HistoryChanges& changes);
nlohmann::json changes_to_json(const HistoryChanges& changes);

// Renderers: a table of key figures per run (rows: figures, columns: the last `last` runs), and a trend
// chart as standalone SVG or an HTML page with the chart and the table. Strings from input are escaped. The chart
// marks each of `changes` (of history_changes over the same runs) in its figure's panel: a dashed line at the first
// run after it, its size and runs in the line's tooltip; the page lists them under the chart.
std::string render_history_text(const std::vector<HistoryRun>& runs, std::size_t last = 10);
std::string render_history_svg(const std::vector<HistoryRun>& runs, const std::vector<HistoryChange>& changes = {});
std::string render_history_html(const std::vector<HistoryRun>& runs, const std::vector<HistoryChange>& changes = {});

}  // namespace roofline
