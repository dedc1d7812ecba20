// Reading the gzipped recorded runs (tests/data/golden/, results/reference/) in tests: gzip is part of
// every Debian system. A null json when the file cannot be read or parsed (the test then says so).
#pragma once

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

namespace roofline::testing {

inline nlohmann::json load_gz(const std::string& path) {
  std::string text;
  FILE* p = popen(("gzip -dc '" + path + "'").c_str(), "r");
  if (p == nullptr) return nlohmann::json();
  char buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, p)) > 0;) text.append(buffer, n);
  pclose(p);
  return nlohmann::json::parse(text, nullptr, false);
}

}  // namespace roofline::testing
