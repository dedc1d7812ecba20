// End-to-end: `roofline fleet` on hand-made node files (tests/support/fleet_fixtures.hpp) written to a
// temporary folder: identical nodes exit 0, a node with DRAM at 75 % exits 1 naming the figure and the
// cause, the three outputs, failed ranks, and bad input of every kind (exit 2, one line, nothing written).
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "support/fleet_fixtures.hpp"
#include "cli_harness.hpp"

namespace roofline::testing {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

const std::string kData = std::string(ROOFLINE_TEST_DATA_DIR) + "/";

// Writes `docs` as node files in `dir`; returns their paths.
std::vector<std::string> write_nodes(const TempDir& dir, const std::vector<json>& docs) {
  std::vector<std::string> paths;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    paths.push_back((dir / ("node" + std::to_string(i) + ".json")).string());
    write_file(paths.back(), docs[i].dump());
  }
  return paths;
}

std::vector<json> fleet_with_slow_dram(int count) {
  std::vector<json> docs;
  for (int i = 0; i < count; ++i) docs.push_back(noisy_node("node-" + std::to_string(i + 1), i));
  scale_memory(docs[0], "DRAM", 0.75);
  return docs;
}

CliResult fleet(std::vector<std::string> files, const std::vector<std::string>& extra = {}) {
  files.insert(files.begin(), "fleet");
  files.insert(files.end(), extra.begin(), extra.end());
  return run_cli(files);
}

void expect_one_line_error(const CliResult& r, const std::string& needle) {
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(one_line(r.err)) << r.err;
  EXPECT_EQ(r.err.rfind("roofline: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

TEST(CliFleet, IdenticalNodesExitZero) {
  TempDir dir;
  const CliResult r = fleet(write_nodes(dir, {fleet_node("a"), fleet_node("b"), fleet_node("c")}));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Every node is in line"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("percent only"), std::string::npos) << r.out;
}

TEST(CliFleet, DramTwentyFivePercentBelowIsFlaggedWithItsCause) {
  TempDir dir;
  const auto files = write_nodes(dir, fleet_with_slow_dram(6));
  const CliResult r = fleet(files, {"--json", (dir / "fleet.json").string(), "--html", (dir / "fleet.html").string()});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("FLAGGED node-1: DRAM only"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("DRAM read, 2 threads at 75.2%"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("FLAGGED node-2"), std::string::npos) << r.out;
  const json j = json::parse(read_file(dir / "fleet.json"));
  EXPECT_EQ(j["flagged"], 1);
  EXPECT_EQ(j["nodes"][0]["figures"]["memory/DRAM/triad/threads:2"]["flagged"], true);
  EXPECT_NE(read_file(dir / "fleet.html").find("Roofline fleet: 6 node(s)"), std::string::npos);
  // 25 % is within a 30 % threshold.
  EXPECT_EQ(fleet(files, {"--below-median", "30"}).exit_code, 0);
}

TEST(CliFleet, MarkdownForCiSummaries) {
  TempDir dir;
  const CliResult r = fleet(write_nodes(dir, fleet_with_slow_dram(3)), {"--markdown", "-"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out.rfind("## Roofline fleet", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("- **FLAGGED** node-1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("<details>"), std::string::npos);
}

TEST(CliFleet, AFleetFileWithAFailedRankExitsOne) {
  TempDir dir;
  const json doc = {{"kind", "roofline-fleet"}, {"fleet_schema_version", 1}, {"launcher", json::object()},
                    {"nodes", {{{"rank", 0}, {"node", "n0"}, {"ok", true}, {"results", fleet_node("n0")}},
                               {{"rank", 1}, {"node", "n1"}, {"ok", true}, {"results", fleet_node("n1")}},
                               {{"rank", 2}, {"node", "n2"}, {"ok", false}, {"error", "out of memory"}}}}};
  write_file(dir / "fleet.json", doc.dump());
  const CliResult r = fleet({(dir / "fleet.json").string()});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("FAILED  n2 (" + (dir / "fleet.json").string() + " rank 2): out of memory"), std::string::npos) << r.out;
}

TEST(CliFleet, BadInputIsOneLineAndWritesNothing) {
  TempDir dir;
  const auto good = write_nodes(dir, {fleet_node("a"), fleet_node("b")});
  const std::string html = (dir / "out.html").string();
  for (const char* bad : {"report_not_json.json", "report_truncated.json", "report_schema2.json", "report_no_roofline.json"}) {
    const CliResult r = fleet({good[0], kData + bad}, {"--html", html});
    expect_one_line_error(r, bad);
    EXPECT_FALSE(fs::exists(html)) << bad;
  }
  expect_one_line_error(fleet({good[0]}), "at least two nodes");
  expect_one_line_error(fleet({good[0], good[0]}), "both hold node 'a'");
  json bare = fleet_node("bare");
  bare["roofline"]["memory_ceilings"] = json::array({{{"level", "DRAM"}, {"kernel", "read"}, {"threads", 2}, {"value", "fast"}}});
  write_file(dir / "bare.json", bare.dump());
  expect_one_line_error(fleet({good[0], (dir / "bare.json").string()}), "bare.json");
  expect_one_line_error(fleet(good, {"--below-median", "abc"}), "--below-median");
  expect_one_line_error(fleet(good, {"--below-median", "-5"}), "--below-median");
  write_file(html, "keep");
  expect_one_line_error(fleet(good, {"--html", html}), "exists");
  EXPECT_EQ(read_file(html), "keep");
  EXPECT_EQ(fleet(good, {"--html", html, "--force"}).exit_code, 0);
}

}  // namespace
}  // namespace roofline::testing
