// What a person sees while a run measures, always on stderr (stdout keeps the results' tables clean), never with
// --quiet: on a terminal, one line rewritten in place (the suite and benchmark now running, the time elapsed and
// an estimate of the time left from the suites' budgets); otherwise (a log, CI), one line per suite when it ends.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace roofline {

class Progress {
 public:
  // enabled = !quiet; whether stderr is a terminal is asked here.
  explicit Progress(bool enabled);
  Progress(bool enabled, bool terminal);  // for tests: the terminal decided by the caller
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  [[nodiscard]] bool enabled() const { return enabled_; }
  [[nodiscard]] bool terminal() const { return terminal_; }
  // The suites of the whole run in order ("cpu bandwidth", ...) and their budgets in seconds (0: unknown), for
  // the estimate of the time left.
  void plan(std::vector<std::pair<std::string, double>> suites);
  // Sets the current phase ("bandwidth", "opencl:0.0/compute", ...) shown before each benchmark name.
  void phase(const std::string& name);
  // A suite of the plan starts / ends (the line a log gets).
  void begin_suite(const std::string& name);
  void end_suite(const std::string& name, double seconds);
  // Shows the benchmark about to be or just measured (terminal only).
  void update(const std::string& what);
  // Clears the line.
  void finish();

  // Seconds left by the plan: the budgets of the suites not yet begun plus what is left of the current one's.
  [[nodiscard]] double estimated_left() const;
  // The line a log gets when `name` ended after `seconds` (pure, for tests).
  [[nodiscard]] std::string suite_line(const std::string& name, double seconds) const;

 private:
  [[nodiscard]] double elapsed() const;
  bool enabled_;
  bool terminal_;
  std::string phase_;
  std::vector<std::pair<std::string, double>> plan_;
  std::size_t next_ = 0;  // the plan's index of the next suite to begin
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point suite_start_;
  double suite_budget_ = 0.0;
};

}  // namespace roofline
