// A one-line progress display on stderr while benchmarks run: shown only when stderr is a terminal and
// --quiet is not given, so logs and CI output stay clean.
#pragma once

#include <chrono>
#include <string>

namespace roofline {

class Progress {
 public:
  // enabled = !quiet && isatty(stderr)
  explicit Progress(bool enabled);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  [[nodiscard]] bool enabled() const { return enabled_; }
  // Sets the current phase ("bandwidth", "compute", ...) shown before each benchmark name.
  void phase(const std::string& name);
  // Shows the benchmark about to be or just measured.
  void update(const std::string& what);
  // Clears the line.
  void finish();

 private:
  bool enabled_;
  std::string phase_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace roofline
