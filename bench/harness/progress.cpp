// Progress on stderr: see progress.hpp.
#include "roofline/harness/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace roofline {
namespace {
std::string left_text(double left) { return left >= 0.0 ? fmt::format("about {:.0f} s left", left) : "time left unknown"; }
}  // namespace

Progress::Progress(bool enabled) : Progress(enabled, ::isatty(STDERR_FILENO) == 1) {}

Progress::Progress(bool enabled, bool terminal)
    : enabled_(enabled), terminal_(terminal), start_(std::chrono::steady_clock::now()), suite_start_(start_) {}

Progress::~Progress() { finish(); }

void Progress::plan(std::vector<std::pair<std::string, double>> suites) {
  plan_ = std::move(suites);
  next_ = 0;
}

void Progress::phase(const std::string& name) { phase_ = name; }

double Progress::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::begin_suite(const std::string& name) {
  phase_ = name;
  suite_start_ = std::chrono::steady_clock::now();
  suite_budget_ = 0.0;
  for (std::size_t i = next_; i < plan_.size(); ++i) {
    if (plan_[i].first != name) continue;
    suite_budget_ = plan_[i].second;
    next_ = i + 1;
    break;
  }
  update("starting");
}

double Progress::estimated_left() const {
  double left = 0.0;
  for (std::size_t i = next_; i < plan_.size(); ++i) {
    if (plan_[i].second <= 0.0) return -1.0;
    left += plan_[i].second;
  }
  if (next_ > 0 && next_ <= plan_.size()) {
    if (suite_budget_ <= 0.0) return -1.0;
    const double in_suite = std::chrono::duration<double>(std::chrono::steady_clock::now() - suite_start_).count();
    left += std::max(0.0, suite_budget_ - in_suite);
  }
  return left;
}

std::string Progress::suite_line(const std::string& name, double seconds) const {
  double left = 0.0;
  std::vector<std::string> rest;
  for (std::size_t i = next_; i < plan_.size(); ++i) {
    rest.push_back(plan_[i].first);
    left = left >= 0.0 && plan_[i].second > 0.0 ? left + plan_[i].second : -1.0;
  }
  const std::string budget = suite_budget_ > 0.0 ? fmt::format(" (budget {:.0f} s)", suite_budget_) : "";
  const std::string after = rest.empty() ? "the last suite" : fmt::format("next {}, {}", fmt::join(rest, ", "),
                                                                           left_text(left));
  return fmt::format("roofline: [{:6.1f} s] {} done in {:.1f} s{}; {}", elapsed(), name, seconds, budget, after);
}

void Progress::end_suite(const std::string& name, double seconds) {
  if (!enabled_) return;
  if (terminal_) return update(fmt::format("done in {:.1f} s", seconds));
  std::fprintf(stderr, "%s\n", suite_line(name, seconds).c_str());
  std::fflush(stderr);
}

void Progress::update(const std::string& what) {
  if (!enabled_ || !terminal_) return;
  std::string line = fmt::format("[{:5.1f} s, {}] {}: {}", elapsed(), left_text(estimated_left()), phase_, what);
  if (line.size() > 110) line = line.substr(0, 107) + "...";
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
}

void Progress::finish() {
  if (!enabled_ || !terminal_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

}  // namespace roofline
