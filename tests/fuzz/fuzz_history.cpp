// Fuzz target: the history database's open and add (`roofline history show` then `history add`). The input
// is the database file itself, written to a scratch folder (a copy: the corpus file is never opened), read,
// then added to with a fixed valid results file.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>

#include "fuzz_support.hpp"
#include "roofline/history/history.hpp"
#include "roofline/model/results_document.hpp"

namespace {

const roofline::ResultsDocument& results_to_add() {
  static const roofline::ResultsDocument results = roofline::load_results_document(ROOFLINE_FUZZ_ADD_RESULTS);
  return results;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fs = std::filesystem;
  const roofline::ResultsDocument& results = results_to_add();
  const fs::path db = roofline::fuzz::write_scratch("history.db", data, size);
  // SQLite's journal files of the previous input must not be replayed into this one.
  for (const char* suffix : {"-wal", "-shm", "-journal", ".lock"}) fs::remove(db.string() + suffix);
  // No process holds a lock here: a wait would only slow the fuzzer down.
  constexpr std::chrono::milliseconds no_wait{0};
  roofline::fuzz::expect_only_input_errors([&] { (void)roofline::history_runs(db, no_wait); });
  roofline::fuzz::expect_only_input_errors([&] {
    (void)roofline::history_add(db, results, "fuzz.json", no_wait);
    (void)roofline::history_runs(db, no_wait);
  });
  return 0;
}
