// The history database: key figures of a results file, and adding/reading runs in SQLite safely under
// concurrent writers. Rendering lives in history_render.cpp. See history.hpp.
#include "roofline/history/history.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <cstdint>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "roofline/model/key_figures.hpp"
#include "roofline/common/errors.hpp"

namespace roofline {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// "RFLN" in the SQLite header's application_id: tells our databases from any other SQLite file.
constexpr int kApplicationId = 0x52464C4E;
// A word of the context as the history records it: the word, else the JSON text of what the file holds there
// (null, or a value of another type, which the typed reader keeps in extra); "" when absent.
std::string text_of(const ResultsContext& ctx, const std::optional<std::string>& word, const char* key) {
  if (word) return *word;
  const auto it = ctx.extra.find(key);
  return it == ctx.extra.end() ? std::string() : it->dump();
}

// A word of context.machine ("" when absent).
std::string machine_text(const ResultsContext& ctx, std::optional<std::string> MachineRecord::*field) {
  return ctx.machine && (*ctx.machine).*field ? *((*ctx.machine).*field) : std::string();
}

// --- SQLite plumbing: one connection, statements that finalize themselves, errors as InputError.
struct DbCloser {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
struct StmtFinalizer {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Db = std::unique_ptr<sqlite3, DbCloser>;
using Stmt = std::unique_ptr<sqlite3_stmt, StmtFinalizer>;

[[noreturn]] void fail(sqlite3* db, const fs::path& path, int rc) {
  const int code = rc & 0xff;
  const std::string detail = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  if (code == SQLITE_BUSY || code == SQLITE_LOCKED) {
    throw InputError(fmt::format("{}: history database is locked by another process ({}); try again later",
                                 path.string(), detail));
  }
  if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT) {
    throw InputError(fmt::format("{}: not a valid history database or corrupt ({}); left untouched", path.string(), detail));
  }
  throw InputError(fmt::format("{}: history database error: {}", path.string(), detail));
}

Stmt prepare(sqlite3* db, const fs::path& path, const std::string& sql) {
  sqlite3_stmt* s = nullptr;
  const int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr);
  if (rc != SQLITE_OK) fail(db, path, rc);
  return Stmt(s);
}

void exec(sqlite3* db, const fs::path& path, const std::string& sql) {
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) fail(db, path, rc);
}

// Runs a single-value query (e.g. a PRAGMA) and returns its first column as text.
std::string query_text(sqlite3* db, const fs::path& path, const std::string& sql) {
  Stmt s = prepare(db, path, sql);
  const int rc = sqlite3_step(s.get());
  if (rc == SQLITE_ROW) {
    const auto* t = sqlite3_column_text(s.get(), 0);
    return t != nullptr ? reinterpret_cast<const char*>(t) : "";
  }
  if (rc != SQLITE_DONE) fail(db, path, rc);
  return "";
}

std::string column(sqlite3_stmt* s, int i) {
  const auto* t = sqlite3_column_text(s, i);
  return t != nullptr ? reinterpret_cast<const char*>(t) : "";
}

// Serializes writers across processes with flock() on a sidecar "<db>.lock" file, held for a whole add.
// SQLite's own locking already keeps the file consistent, but some of its busy states (switching a new
// file to WAL, a read transaction upgrading to write) fail at once instead of waiting, which loses a run
// when two CI jobs add at the same moment. The lock is never taken on the database file itself: closing
// any other descriptor of it would drop SQLite's POSIX locks.
class WriterLock {
 public:
  WriterLock(const fs::path& db, std::chrono::milliseconds wait) : path_(db.string() + ".lock") {
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw InputError(fmt::format("{}: cannot open the lock file ({})", path_, std::strerror(errno)));
    const auto deadline = std::chrono::steady_clock::now() + wait;
    while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK && errno != EINTR) {
        const int err = errno;
        ::close(fd_);
        throw InputError(fmt::format("{}: cannot lock ({})", path_, std::strerror(err)));
      }
      if (std::chrono::steady_clock::now() >= deadline) {
        ::close(fd_);
        throw InputError(fmt::format("{}: history database is locked by another process; try again later",
                                     db.string()));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  ~WriterLock() {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;

 private:
  std::string path_;
  int fd_ = -1;
};

// Opens the database, checks that it is intact and ours (or empty), and prepares it for concurrent use.
// Nothing is written before these checks pass.
Db open_history(const fs::path& path, bool create, std::chrono::milliseconds wait, int* version_out = nullptr) {
  std::error_code ec;
  const bool exists = fs::exists(path, ec);
  if (!exists && !create) throw InputError(fmt::format("{}: no such history database", path.string()));
  if (exists && !fs::is_regular_file(path, ec)) throw InputError(fmt::format("{}: not a regular file", path.string()));
  if (!exists) {
    const fs::path parent = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    if (!fs::is_directory(parent, ec)) throw InputError(fmt::format("{}: folder {} does not exist", path.string(), parent.string()));
  }
  sqlite3* raw = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_FULLMUTEX;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  Db db(raw);
  if (rc != SQLITE_OK) fail(raw, path, rc);
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, static_cast<int>(std::max<std::chrono::milliseconds::rep>(0, wait.count())));

  // Read-only checks first: a corrupt or foreign file must come out of this untouched. One read
  // transaction, so that the header and the schema are seen at one instant (another process may be
  // creating them right now: read one by one, a new database could look half-made, i.e. foreign).
  exec(raw, path, "BEGIN");
  const std::string check = query_text(raw, path, "PRAGMA quick_check");
  if (check != "ok") {
    throw InputError(fmt::format("{}: history database is corrupt (quick_check: {}); left untouched", path.string(), check));
  }
  const int app_id = std::stoi(query_text(raw, path, "PRAGMA application_id"));
  const int version = std::stoi(query_text(raw, path, "PRAGMA user_version"));
  const int tables = std::stoi(query_text(raw, path, "SELECT count(*) FROM sqlite_schema"));
  exec(raw, path, "COMMIT");
  if (app_id != kApplicationId && !(app_id == 0 && tables == 0)) {
    throw InputError(fmt::format("{}: an SQLite database, but not a roofline history database; left untouched", path.string()));
  }
  if (version > kHistorySchemaVersion) {
    throw InputError(fmt::format("{}: history schema version {} is newer than this roofline reads ({})", path.string(),
                                 version, kHistorySchemaVersion));
  }
  if (version_out != nullptr) *version_out = version;
  if (app_id == kApplicationId && version == kHistorySchemaVersion) {
    return db;  // ours and current; WAL mode is persistent in the file
  }
  if (app_id == kApplicationId && version == 1) {
    if (!create) return db;  // read as it is; the next add upgrades it
    // Version 1 -> 2: the identities the noise model matches on (old runs keep them empty).
    exec(raw, path, "BEGIN IMMEDIATE");
    exec(raw, path, fmt::format("ALTER TABLE runs ADD COLUMN machine_id TEXT; ALTER TABLE runs ADD COLUMN configuration_id TEXT;"
                                "PRAGMA user_version={}; COMMIT;", kHistorySchemaVersion));
    return db;
  }
  if (!create) throw InputError(fmt::format("{}: empty database, no runs recorded yet", path.string()));

  // New (empty) database: WAL so that readers never block the writer, then the schema in one transaction.
  // Two processes creating it at once both get here; BEGIN IMMEDIATE serializes them and IF NOT EXISTS
  // makes the second a no-op.
  // Best effort: WAL lets readers run beside a writer; if another connection keeps the switch from
  // happening now, the rollback journal is just as safe, only less concurrent.
  sqlite3_exec(raw, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
  exec(raw, path, "BEGIN IMMEDIATE");
  exec(raw, path,
       fmt::format("PRAGMA application_id={};"
                   "PRAGMA user_version={};"
                   "CREATE TABLE IF NOT EXISTS runs("
                   " id INTEGER PRIMARY KEY AUTOINCREMENT,"
                   " added_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),"
                   " date TEXT, git_revision TEXT, host TEXT, cpu_model TEXT, profile TEXT, source TEXT,"
                   " content_hash TEXT NOT NULL UNIQUE, machine_id TEXT, configuration_id TEXT);"
                   "CREATE TABLE IF NOT EXISTS figures("
                   " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                   " key TEXT NOT NULL, label TEXT NOT NULL, value REAL NOT NULL, unit TEXT NOT NULL,"
                   " threads INTEGER NOT NULL, detail TEXT NOT NULL,"
                   " PRIMARY KEY(run_id, key));"
                   "COMMIT;",
                   kApplicationId, kHistorySchemaVersion));
  return db;
}

// FNV-1a over the file's canonical JSON: recognises the same results file added twice (not a security
// hash; collisions between different runs are astronomically unlikely at history sizes).
std::string content_hash(const json& doc) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char ch : doc.dump()) {
    h ^= ch;
    h *= 1099511628211ULL;
  }
  return fmt::format("{:016x}", h);
}

void bind_text(sqlite3_stmt* s, int i, const std::string& v) { sqlite3_bind_text(s, i, v.c_str(), -1, SQLITE_TRANSIENT); }

void step_done(sqlite3* db, const fs::path& path, sqlite3_stmt* s) {
  const int rc = sqlite3_step(s);
  if (rc != SQLITE_DONE) fail(db, path, rc);
}

}  // namespace

std::string results_hash(const ResultsDocument& results) { return content_hash(to_json(results)); }

std::vector<HistoryPoint> history_points(const std::vector<HistoryRun>& runs) {
  std::vector<HistoryPoint> out;
  for (const HistoryRun& r : runs) {
    HistoryPoint p{r.machine_id, r.configuration_id, r.content_hash, {}};
    for (const HistoryFigure& f : r.figures) p.figures[f.key] = f.value;
    out.push_back(std::move(p));
  }
  return out;
}

HistoryAddResult history_add(const fs::path& path, const ResultsDocument& results, const std::string& source,
                             std::chrono::milliseconds wait) {
  // The document written back is the file's own text, so its hash is the file's as before.
  const json doc = to_json(results);
  std::vector<HistoryFigure> figures;
  for (const KeyFigure& f : key_figures(results)) figures.push_back({f.id, f.label, f.value, f.unit, f.threads, f.group});
  // The run's memory state, for the gate's memory-environment check against the history (not gated).
  if (const double canary = canary_level(results); canary > 0.0) {
    figures.push_back({kCanaryFigureId, "DRAM triad canary (environment)", canary, "B/s", 0, "environment"});
  }
  // The canaries our code cannot move (issue 59), against which the gate weighs a new run's figures.
  if (const double canary = canary_level(results, "libc_canary"); canary > 0.0) {
    figures.push_back({kLibcCanaryFigureId, "DRAM libc memcpy canary (environment)", canary, "B/s", 0, "environment"});
  }
  if (const double canary = canary_level(results, "libc_core_canary"); canary > 0.0) {
    figures.push_back({kLibcCoreCanaryFigureId, "L2 libc memcpy canary (environment)", canary, "B/s", 0, "environment"});
  }
  const std::string hash = content_hash(doc);
  const ResultsContext& ctx = results.context;
  const bool has_host_name = ctx.host_name || ctx.extra.contains("host_name");

  if (!path.parent_path().empty() && !fs::is_directory(path.parent_path())) {
    throw InputError(fmt::format("{}: folder {} does not exist", path.string(), path.parent_path().string()));
  }
  const WriterLock writer(path, wait);
  Db db = open_history(path, true, wait);
  sqlite3* raw = db.get();
  HistoryAddResult result;
  // One write transaction: concurrent adders queue on the lock (busy timeout) instead of failing, and a
  // crash mid-way leaves the database as it was.
  exec(raw, path, "BEGIN IMMEDIATE");
  try {
    Stmt find = prepare(raw, path, "SELECT id FROM runs WHERE content_hash = ?");
    bind_text(find.get(), 1, hash);
    if (sqlite3_step(find.get()) == SQLITE_ROW) {
      result.run_id = sqlite3_column_int64(find.get(), 0);
      exec(raw, path, "ROLLBACK");
      return result;
    }
    Stmt run = prepare(raw, path,
                       "INSERT INTO runs(date, git_revision, host, cpu_model, profile, source, content_hash,"
                       " machine_id, configuration_id) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_text(run.get(), 1, text_of(ctx, ctx.date, "date"));
    bind_text(run.get(), 2, text_of(ctx, ctx.git_revision, "git_revision"));
    bind_text(run.get(), 3, has_host_name ? text_of(ctx, ctx.host_name, "host_name") : machine_text(ctx, &MachineRecord::hostname));
    bind_text(run.get(), 4, machine_text(ctx, &MachineRecord::cpu_model));
    bind_text(run.get(), 5, text_of(ctx, ctx.profile, "profile"));
    bind_text(run.get(), 6, source);
    bind_text(run.get(), 7, hash);
    bind_text(run.get(), 8, machine_identity(results));
    bind_text(run.get(), 9, configuration_identity(results));
    step_done(raw, path, run.get());
    result.run_id = sqlite3_last_insert_rowid(raw);
    Stmt fig = prepare(raw, path,
                       "INSERT INTO figures(run_id, key, label, value, unit, threads, detail) VALUES(?, ?, ?, ?, ?, ?, ?)");
    for (const HistoryFigure& f : figures) {
      sqlite3_reset(fig.get());
      sqlite3_bind_int64(fig.get(), 1, result.run_id);
      bind_text(fig.get(), 2, f.key);
      bind_text(fig.get(), 3, f.label);
      sqlite3_bind_double(fig.get(), 4, f.value);
      bind_text(fig.get(), 5, f.unit);
      sqlite3_bind_int(fig.get(), 6, f.threads);
      bind_text(fig.get(), 7, f.detail);
      step_done(raw, path, fig.get());
    }
    exec(raw, path, "COMMIT");
  } catch (...) {
    sqlite3_exec(raw, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  result.added = true;
  result.figures = figures.size();
  return result;
}

std::vector<HistoryRun> history_runs(const fs::path& path, std::chrono::milliseconds wait) {
  int version = 0;
  Db db = open_history(path, false, wait, &version);
  sqlite3* raw = db.get();
  std::vector<HistoryRun> runs;
  std::map<long long, std::size_t> index;
  // One read transaction: a consistent snapshot even while another process adds.
  exec(raw, path, "BEGIN");
  Stmt s = prepare(raw, path,
                   version >= 2 ? "SELECT id, added_at, date, git_revision, host, cpu_model, profile, source, content_hash,"
                                  " machine_id, configuration_id FROM runs ORDER BY id"
                                : "SELECT id, added_at, date, git_revision, host, cpu_model, profile, source, content_hash,"
                                  " '', '' FROM runs ORDER BY id");
  int rc = 0;
  while ((rc = sqlite3_step(s.get())) == SQLITE_ROW) {
    HistoryRun r;
    r.id = sqlite3_column_int64(s.get(), 0);
    r.added_at = column(s.get(), 1);
    r.date = column(s.get(), 2);
    r.git_revision = column(s.get(), 3);
    r.host = column(s.get(), 4);
    r.cpu_model = column(s.get(), 5);
    r.profile = column(s.get(), 6);
    r.source = column(s.get(), 7);
    r.content_hash = column(s.get(), 8);
    r.machine_id = column(s.get(), 9);
    r.configuration_id = column(s.get(), 10);
    index[r.id] = runs.size();
    runs.push_back(std::move(r));
  }
  if (rc != SQLITE_DONE) fail(raw, path, rc);
  Stmt f = prepare(raw, path, "SELECT run_id, key, label, value, unit, threads, detail FROM figures ORDER BY run_id, rowid");
  while ((rc = sqlite3_step(f.get())) == SQLITE_ROW) {
    const auto it = index.find(sqlite3_column_int64(f.get(), 0));
    if (it == index.end()) continue;
    runs[it->second].figures.push_back(HistoryFigure{column(f.get(), 1), column(f.get(), 2), sqlite3_column_double(f.get(), 3),
                                                     column(f.get(), 4), sqlite3_column_int(f.get(), 5), column(f.get(), 6)});
  }
  if (rc != SQLITE_DONE) fail(raw, path, rc);
  exec(raw, path, "COMMIT");
  return runs;
}

}  // namespace roofline
