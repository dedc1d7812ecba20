// Every results file the tests hold whole (issue 47): the recorded runs (tests/data/golden/*.json.gz,
// results/reference/*.json.gz) and the two hand-made files (tests/data/targets/two_targets.json, a CPU and a
// test-only target; tests/data/report_full.json, a file from before targets), each with its path, sorted by path
// within each folder, so that a test that must hold on every file reads the same list in the same order.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/model/results.hpp"  // load_json_file
#include "support/gzip_json.hpp"

namespace roofline::testing {

inline std::vector<std::pair<std::string, nlohmann::json>> every_results_file() {
  namespace fs = std::filesystem;
  std::vector<std::pair<std::string, nlohmann::json>> docs;
  for (const std::string& path : {std::string(ROOFLINE_TEST_DATA_DIR) + "/targets/two_targets.json",
                                  std::string(ROOFLINE_TEST_DATA_DIR) + "/report_full.json"}) {
    docs.emplace_back(path, load_json_file(path));
  }
  for (const fs::path& dir : {fs::path(ROOFLINE_TEST_DATA_DIR) / "golden", fs::path(ROOFLINE_SOURCE_DIR) / "results" / "reference"}) {
    std::vector<std::string> paths;
    for (const auto& f : fs::directory_iterator(dir)) {
      if (f.path().string().ends_with(".json.gz")) paths.push_back(f.path().string());
    }
    std::sort(paths.begin(), paths.end());
    for (const std::string& path : paths) docs.emplace_back(path, load_gz(path));
  }
  return docs;
}

// The paths of the recorded runs (*.json.gz) in tests/data/golden, results/reference and, where this checkout has it,
// ../shared/recorded, sorted: the tests that must hold on every real machine seen so far.
inline std::vector<std::filesystem::path> recorded_run_paths() {
  namespace fs = std::filesystem;
  const fs::path root(ROOFLINE_SOURCE_DIR);
  std::vector<fs::path> files;
  for (const fs::path& folder : {root / "tests" / "data" / "golden", root / "results" / "reference",
                                 root / ".." / "shared" / "recorded"}) {
    if (!fs::is_directory(folder)) continue;
    for (const auto& e : fs::directory_iterator(folder)) {
      if (e.path().string().ends_with(".json.gz")) files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace roofline::testing
