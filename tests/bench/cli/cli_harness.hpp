// Runs the real `roofline` executable for end-to-end tests and captures its exit code and output
// (with the temporary folders and file helpers of support/temp_files.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "support/temp_files.hpp"

namespace roofline::testing {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs ROOFLINE_EXE with `args` (no shell), stdin from /dev/null, extra environment `env` ("K=V").
CliResult run_cli(const std::vector<std::string>& args, const std::vector<std::string>& env = {});
// The same with ROOFLINE_TEST_TARGET_EXE: the command line with the test-only target (tests/targets/).
CliResult run_test_target_cli(const std::vector<std::string>& args, const std::vector<std::string>& env = {});
CliResult run_executable(const std::string& exe, const std::vector<std::string>& args, const std::vector<std::string>& env);

// True when `s` is exactly one line ending in a newline: the shape of every error message.
inline bool one_line(const std::string& s) { return !s.empty() && s.find('\n') == s.size() - 1; }

}  // namespace roofline::testing
