// Runs the real `roofline` executable for end-to-end tests and captures its exit code and output.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace roofline::testing {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs ROOFLINE_EXE with `args` (no shell), stdin from /dev/null, extra environment `env` ("K=V").
CliResult run_cli(const std::vector<std::string>& args, const std::vector<std::string>& env = {});

// A fresh empty folder under the system temp folder, removed when the object goes away.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

// True when `s` is exactly one line ending in a newline: the shape of every error message.
inline bool one_line(const std::string& s) { return !s.empty() && s.find('\n') == s.size() - 1; }

std::string read_file(const std::filesystem::path& path);
void write_file(const std::filesystem::path& path, const std::string& content);

}  // namespace roofline::testing
