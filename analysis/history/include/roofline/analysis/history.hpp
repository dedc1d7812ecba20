// The history of runs (`roofline history add|show`): key figures of each results file in an SQLite
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

namespace roofline {

inline constexpr int kHistorySchemaVersion = 1;

struct HistoryFigure {
  std::string key;    // stable across runs: "memory/DRAM/triad", "compute/fp32", "gemm/fp32/batch:16", ...
  std::string label;  // for people: "DRAM triad", "peak fp32", "GEMM fp32 batch 16"
  double value = 0.0;
  std::string unit;   // "B/s", "FLOP/s", "OP/s"
  int threads = 0;
  std::string detail;  // e.g. the ISA or backend that reached it
};

struct HistoryRun {
  long long id = 0;
  std::string added_at, date, git_revision, host, cpu_model, profile, source;
  std::vector<HistoryFigure> figures;
};

// The key figures of a roofline results file, from its `roofline` section, each at the largest thread
// count measured: DRAM triad and L1 read ceilings, the compute ceiling of each precision, and per
// precision the best backend's placement at batch 1 (GEMV) and at batches 16, 256 and 1024 (GEMM).
std::vector<HistoryFigure> history_figures(const nlohmann::json& results);

struct HistoryAddResult {
  long long run_id = 0;
  bool added = false;  // false: this very file was already recorded (same content), nothing written
  std::size_t figures = 0;
};

// Adds one run. `results` must be a roofline results file (validated by the caller); `source` is
// recorded (e.g. the file's path). Creates the database when it does not exist.
HistoryAddResult history_add(const std::filesystem::path& db, const nlohmann::json& results, const std::string& source,
                             std::chrono::milliseconds wait = std::chrono::seconds(30));

// All runs, oldest first, with their figures. The database must exist.
std::vector<HistoryRun> history_runs(const std::filesystem::path& db,
                                     std::chrono::milliseconds wait = std::chrono::seconds(30));

// Renderers: a table of key figures per run (rows: figures, columns: the last `last` runs), and a trend
// chart as standalone SVG or an HTML page with the chart and the table. Strings from input are escaped.
std::string render_history_text(const std::vector<HistoryRun>& runs, std::size_t last = 10);
std::string render_history_svg(const std::vector<HistoryRun>& runs);
std::string render_history_html(const std::vector<HistoryRun>& runs);

}  // namespace roofline
