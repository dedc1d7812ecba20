// Terminal progress line: see progress.hpp.
#include "roofline/bench/progress.hpp"

#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

namespace roofline {

Progress::Progress(bool enabled)
    : enabled_(enabled && ::isatty(STDERR_FILENO) == 1), start_(std::chrono::steady_clock::now()) {}

Progress::~Progress() { finish(); }

void Progress::phase(const std::string& name) { phase_ = name; }

void Progress::update(const std::string& what) {
  if (!enabled_) return;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string line = fmt::format("[{:5.1f} s] {}: {}", elapsed, phase_, what);
  if (line.size() > 100) line = line.substr(0, 97) + "...";
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
}

void Progress::finish() {
  if (!enabled_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

}  // namespace roofline
