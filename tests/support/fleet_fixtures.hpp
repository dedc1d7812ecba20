// Hand-made fleets for the fleet tests (tests/analysis/fleet/test_fleet.cpp, tests/bench/cli/test_cli_fleet.cpp): node
// results files derived from the small real-shaped tests/data/report_full.json by renaming the host and
// scaling chosen figures (DRAM at 75 %, compute and clock down, another CPU, a little noise).
#pragma once

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace roofline::testing {

inline nlohmann::json fleet_base_node() {
  static const nlohmann::json base = [] {
    std::ifstream in(std::string(ROOFLINE_TEST_DATA_DIR) + "/report_full.json");
    return nlohmann::json::parse(in);
  }();
  return base;
}

inline nlohmann::json fleet_node(const std::string& host) {
  nlohmann::json doc = fleet_base_node();
  doc["context"]["host_name"] = host;
  doc["context"]["machine"]["hostname"] = host;
  return doc;
}

// Memory ceilings of one level ("" = every level) times `factor`.
inline void scale_memory(nlohmann::json& doc, const std::string& level, double factor) {
  for (auto& m : doc["roofline"]["memory_ceilings"]) {
    if (level.empty() || m["level"] == level) m["value"] = m["value"].get<double>() * factor;
  }
}

// Compute ceilings (value, theoretical peak) and the measured clock (ceilings' clock_hz, the clock
// benchmark) times `factor`: what a throttled node shows.
inline void scale_compute_and_clock(nlohmann::json& doc, double factor) {
  for (auto& c : doc["roofline"]["compute_ceilings"]) {
    for (const char* k : {"value", "theoretical", "clock_hz"}) {
      if (c.contains(k) && c[k].is_number()) c[k] = c[k].get<double>() * factor;
    }
  }
  for (auto& b : doc["benchmarks"]) {
    if (b.contains("clock_hz") && b["clock_hz"].is_number()) b["clock_hz"] = b["clock_hz"].get<double>() * factor;
  }
}

// Every ceiling, placement and clock times `factor` (noise between otherwise identical nodes).
inline void scale_all(nlohmann::json& doc, double factor) {
  scale_memory(doc, "", factor);
  scale_compute_and_clock(doc, factor);
  for (auto& p : doc["roofline"]["placements"]) p["value"] = p["value"].get<double>() * factor;
}

// A node of `count` in a fleet of near-identical ones: +-0.8 % noise, the same pattern for every test.
inline nlohmann::json noisy_node(const std::string& host, int index) {
  nlohmann::json doc = fleet_node(host);
  static const double kNoise[] = {1.0, 0.992, 1.008, 0.996, 1.004, 0.998, 1.002, 0.994};
  scale_all(doc, kNoise[index % 8]);
  return doc;
}

}  // namespace roofline::testing
