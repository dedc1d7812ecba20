// The wall-time budget of one suite (profile.hpp's table): a clock started when the suite starts, which the
// suite asks before each piece of work whether it still fits. When it does not, the suite leaves that work out
// and says so with cut(): a note naming what was not measured, recorded in its context (budget_cuts), so a
// results file cut short stays valid and says why it holds less. A budget of 0 never ends.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace roofline {

class SuiteBudget {
 public:
  SuiteBudget() : start_(std::chrono::steady_clock::now()) {}
  explicit SuiteBudget(double seconds) : seconds_(seconds), start_(std::chrono::steady_clock::now()) {}

  [[nodiscard]] double seconds() const { return seconds_; }
  [[nodiscard]] bool bounded() const { return seconds_ > 0.0; }
  [[nodiscard]] double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  // Seconds left (negative once overrun); a large number when unbounded.
  [[nodiscard]] double left() const { return bounded() ? seconds_ - elapsed() : 1e30; }
  // Whether work estimated at `estimate_s` seconds still ends inside the budget.
  [[nodiscard]] bool allows(double estimate_s) const { return !bounded() || elapsed() + estimate_s <= seconds_; }

  // Records that `what` was left out for the budget; returns the note to show ("<suite>: the <n> s budget ...").
  std::string cut(const std::string& suite, const std::string& what);
  [[nodiscard]] const std::vector<std::string>& cuts() const { return cuts_; }

 private:
  double seconds_ = 0.0;
  std::chrono::steady_clock::time_point start_;
  std::vector<std::string> cuts_;
};

}  // namespace roofline
