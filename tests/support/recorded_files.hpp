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

}  // namespace roofline::testing
