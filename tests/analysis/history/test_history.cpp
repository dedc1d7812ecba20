// The history database: key figures, adding and reading runs, duplicates, two processes adding at once,
// and the databases it must refuse (corrupt, foreign, locked) without touching them.
#include <gtest/gtest.h>

#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/history/history.hpp"
#include "roofline/model/key_figures.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/results_document.hpp"
#include "support/temp_files.hpp"
#include "support/two_processes.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;

const std::string kDir = std::string(ROOFLINE_TEST_DATA_DIR) + "/compare/";

// What history_add takes: the typed document (issue 47).
ResultsDocument typed(const nlohmann::json& doc) { return read_results(doc, "history-test.json"); }

class History : public ::testing::Test {
 protected:
  testing::TempDir tmp_;
  const fs::path dir_ = tmp_.path();
  const fs::path db_ = dir_ / "history.db";
};

TEST_F(History, StoresTheKeyFiguresOfEveryThreadCount) {
  // base.json measured at 2 threads; each ceiling and placement copied at 1 thread, at half the value.
  nlohmann::json doc = load_json_file(kDir + "base.json");
  for (const char* array : {"memory_ceilings", "compute_ceilings", "placements"}) {
    nlohmann::json& rows = doc["roofline"][array];
    const std::size_t n = rows.size();
    for (std::size_t i = 0; i < n; ++i) {
      nlohmann::json one = rows[i];
      one["threads"] = 1;
      one["value"] = one["value"].get<double>() / 2.0;
      rows.push_back(one);
    }
  }
  std::map<std::string, double> expected;
  for (const KeyFigure& f : key_figures(testing::lenient(doc))) expected[f.id] = f.value;
  ASSERT_EQ(expected.size(), 8u);
  ASSERT_TRUE(expected.contains("memory/DRAM/triad/threads:1") && expected.contains("memory/DRAM/triad/threads:2"));

  ASSERT_TRUE(history_add(db_, typed(doc), "two_thread_counts.json").added);
  const auto runs = history_runs(db_);  // read back from the database
  ASSERT_EQ(runs.size(), 1u);
  std::map<std::string, double> stored;
  std::set<int> threads;
  for (const HistoryFigure& f : runs[0].figures) {
    if (f.key == kCanaryFigureId) continue;
    stored[f.key] = f.value;
    threads.insert(f.threads);
  }
  EXPECT_EQ(stored, expected);
  EXPECT_EQ(threads, (std::set<int>{1, 2}));
}

TEST_F(History, KeepsTheCanaryBesideTheFiguresAndCalibrationLeavesItOut) {
  history_add(db_, typed(load_json_file(kDir + "quiet_env.json")), "quiet_env.json");
  history_add(db_, typed(load_json_file(kDir + "base.json")), "base.json");  // no environment: no canary
  const auto runs = history_runs(db_);
  ASSERT_EQ(runs.size(), 2u);
  const auto canary = [](const HistoryRun& r) {
    for (const auto& f : r.figures) {
      if (f.key == kCanaryFigureId) return f.value;
    }
    return 0.0;
  };
  EXPECT_DOUBLE_EQ(canary(runs[0]) + canary(runs[1]), 0.5 * (20e9 + 20.2e9));
  EXPECT_DOUBLE_EQ(history_points(runs)[canary(runs[0]) > 0.0 ? 0 : 1].figures.at(kCanaryFigureId), 20.1e9);
  const Calibration c = calibrate_noise(runs, GateOptions{});
  for (const auto& f : c.figures) EXPECT_NE(f.id, kCanaryFigureId);
}

TEST_F(History, AddsRunsOnceAndReadsThemBack) {
  const auto base = load_json_file(kDir + "base.json");
  const auto first = history_add(db_, typed(base), "base.json");
  EXPECT_TRUE(first.added);
  EXPECT_EQ(first.figures, 4u);
  const auto again = history_add(db_, typed(base), "base.json");
  EXPECT_FALSE(again.added);
  EXPECT_EQ(again.run_id, first.run_id);
  EXPECT_TRUE(history_add(db_, typed(load_json_file(kDir + "slow20.json")), "slow20.json").added);

  const auto runs = history_runs(db_);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].git_revision, "aaaa111");
  EXPECT_EQ(runs[1].git_revision, "cccc333");
  EXPECT_EQ(runs[0].date, "2024-05-01T10:00:00+00:00");
  EXPECT_EQ(runs[0].cpu_model, "Intel(R) Xeon(R) Processor");
  EXPECT_EQ(runs[0].profile, "quick");
  ASSERT_EQ(runs[1].figures.size(), 4u);
  const auto triad = std::find_if(runs[1].figures.begin(), runs[1].figures.end(),
                                  [](const HistoryFigure& f) { return f.key == "memory/DRAM/triad/threads:2"; });
  ASSERT_NE(triad, runs[1].figures.end());
  EXPECT_NEAR(triad->value, 0.8 * 20e9 * 1.003, 1.0);
  EXPECT_EQ(triad->detail, "memory");
  // The identities the noise model matches on.
  EXPECT_EQ(runs[0].machine_id, runs[1].machine_id);
  EXPECT_NE(runs[0].machine_id.find("cpu_model=Intel(R) Xeon(R) Processor;cores=2"), std::string::npos) << runs[0].machine_id;
  EXPECT_EQ(runs[0].configuration_id, "max_isa=avx512;threads=[1,2];profile=quick;binding=");
  EXPECT_EQ(runs[0].content_hash, results_hash(typed(base)));
  // The hash is over the file's own text, as before the typed model: a database's runs stay recognised.
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char ch : base.dump()) {
    h ^= ch;
    h *= 1099511628211ULL;
  }
  EXPECT_EQ(runs[0].content_hash, fmt::format("{:016x}", h));

  const std::string text = render_history_text(runs);
  EXPECT_NE(text.find("aaaa111"), std::string::npos);
  EXPECT_NE(text.find("DRAM triad"), std::string::npos);
  const std::string svg = render_history_svg(runs);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
  EXPECT_NE(render_history_html(runs).find("<table>"), std::string::npos);
}

TEST_F(History, RenderersEscapeStringsFromInput) {
  auto doc = load_json_file(kDir + "base.json");
  // key_figures() refuses unknown precisions, so the markup comes in through the run's facts.
  doc["context"]["machine"]["cpu_model"] = "<script>alert(1)</script>";
  doc["context"]["git_revision"] = "<img src=x>";
  history_add(db_, typed(doc), "x");
  const auto runs = history_runs(db_);
  for (const std::string& out : {render_history_svg(runs), render_history_html(runs)}) {
    EXPECT_EQ(out.find("<script>"), std::string::npos);
    EXPECT_EQ(out.find("<img"), std::string::npos);
    EXPECT_NE(out.find("&lt;img src=x&gt;"), std::string::npos);
  }
}

TEST_F(History, TwoProcessesAddingAtOnceLoseNothing) {
  constexpr int kPerProcess = 15;
  const auto base = load_json_file(kDir + "base.json");
  ASSERT_NO_FATAL_FAILURE(testing::expect_two_processes_succeed([&](int c) {
    int failures = 0;
    for (int i = 0; i < kPerProcess; ++i) {
      auto doc = base;
      doc["context"]["git_revision"] = fmt::format("p{}-{}", c, i);
      try {
        if (!history_add(db_, typed(doc), "child").added) ++failures;
      } catch (const std::exception& e) {
        ++failures;
      }
    }
    return failures;
  }));
  const auto runs = history_runs(db_);  // also runs the integrity check
  ASSERT_EQ(runs.size(), 2u * kPerProcess);
  std::set<std::string> revisions;
  for (const auto& r : runs) {
    revisions.insert(r.git_revision);
    EXPECT_EQ(r.figures.size(), 4u) << r.git_revision;
  }
  EXPECT_EQ(revisions.size(), 2u * kPerProcess);
}

TEST_F(History, CorruptOrForeignDatabasesAreRefusedAndLeftUntouched) {
  {
    std::ofstream out(db_, std::ios::binary);
    out << "this is not an SQLite database, but a text file that happens to be here\n";
  }
  const std::string before = testing::read_file(db_);
  const auto base = load_json_file(kDir + "base.json");
  EXPECT_THROW(history_add(db_, typed(base), "x"), InputError);
  EXPECT_THROW(history_runs(db_), InputError);
  EXPECT_EQ(testing::read_file(db_), before);
  EXPECT_FALSE(fs::exists(fs::path(db_.string() + "-wal")));

  const fs::path foreign = dir_ / "foreign.db";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(foreign.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES(1);", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  const std::string foreign_before = testing::read_file(foreign);
  EXPECT_THROW(history_add(foreign, typed(base), "x"), InputError);
  EXPECT_EQ(testing::read_file(foreign), foreign_before);

  EXPECT_THROW(history_runs(dir_ / "missing.db"), InputError);
}

TEST_F(History, TruncatedDatabaseIsRefused) {
  const auto base = load_json_file(kDir + "base.json");
  for (int i = 0; i < 40; ++i) {  // enough rows for several pages
    auto doc = base;
    doc["context"]["git_revision"] = fmt::format("r{}", i);
    history_add(db_, typed(doc), std::string(200, 'x'));
  }
  // Fold the WAL into the main file so that the file alone holds the data, then cut it short.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(db_.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE;", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  const auto size = fs::file_size(db_);
  ASSERT_GT(size, 8192u);
  fs::resize_file(db_, size / 2);
  const std::string before = testing::read_file(db_);
  EXPECT_THROW(history_runs(db_), InputError);
  EXPECT_THROW(history_add(db_, typed(base), "x"), InputError);
  EXPECT_EQ(testing::read_file(db_), before);
}

TEST_F(History, LockedDatabaseIsAnInputErrorAndKeepsEarlierRuns) {
  const auto base = load_json_file(kDir + "base.json");
  history_add(db_, typed(base), "base");
  sqlite3* holder = nullptr;
  ASSERT_EQ(sqlite3_open(db_.c_str(), &holder), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(holder, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
  try {
    history_add(db_, typed(load_json_file(kDir + "slow20.json")), "slow", std::chrono::milliseconds(100));
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("locked"), std::string::npos) << e.what();
  }
  sqlite3_exec(holder, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(holder);
  EXPECT_TRUE(history_add(db_, typed(load_json_file(kDir + "slow20.json")), "slow").added);
  EXPECT_EQ(history_runs(db_).size(), 2u);
}

}  // namespace
}  // namespace roofline
