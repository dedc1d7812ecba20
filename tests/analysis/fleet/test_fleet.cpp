// The fleet analysis on hand-made fleets (support/fleet_fixtures.hpp): identical nodes pass, one node with DRAM at
// 75 % and one throttled node are flagged with the right diagnosis, noise within the robust spread is not,
// mixed hardware forms groups, small groups use the percent alone, failed ranks are reported, and bad
// inputs (a fleet of one, the same node twice, another schema, missing ceilings) are InputErrors.
#include <gtest/gtest.h>

#include <algorithm>

#include "roofline/fleet/fleet.hpp"
#include "roofline/fleet/fleet_file.hpp"
#include "roofline/common/errors.hpp"
#include "support/fleet_fixtures.hpp"

namespace roofline {
namespace {
using nlohmann::json;
using testing::fleet_node;
using testing::noisy_node;

std::vector<FleetNode> nodes_of(const std::vector<json>& docs) {
  std::vector<FleetNode> nodes;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    const std::string name = "node" + std::to_string(i) + ".json";
    nodes.push_back(results_file_node(read_results(docs[i], name), name));
  }
  check_fleet_nodes(nodes);
  return nodes;
}

std::vector<json> noisy_fleet(int count) {
  std::vector<json> docs;
  for (int i = 0; i < count; ++i) docs.push_back(noisy_node("node-" + std::to_string(i + 1), i));
  return docs;
}

std::size_t index_of(const FleetAnalysis& f, const std::string& name) {
  for (std::size_t i = 0; i < f.nodes.size(); ++i) {
    if (f.nodes[i].name == name) return i;
  }
  ADD_FAILURE() << "no node " << name;
  return 0;
}

TEST(Fleet, IdenticalNodesPass) {
  std::vector<json> docs;
  for (int i = 0; i < 6; ++i) docs.push_back(fleet_node("same-" + std::to_string(i)));
  const FleetAnalysis f = analyze_fleet(nodes_of(docs), FleetOptions{});
  ASSERT_EQ(f.groups.size(), 1u);
  EXPECT_TRUE(f.groups[0].statistics);
  EXPECT_EQ(f.flagged_count(), 0);
  EXPECT_EQ(f.exit_code(), 0);
  for (const FleetFigure& fig : f.groups[0].figures) {
    EXPECT_EQ(fig.mad, 0.0) << fig.figure.id;
    EXPECT_EQ(fig.nodes, 6);
  }
  const FleetCell& c = f.results[0].cells.begin()->second;
  EXPECT_DOUBLE_EQ(c.percent_of_median, 100.0);
  EXPECT_FALSE(c.robust_z.has_value());  // MAD 0: no z-score
}

TEST(Fleet, DramAtSeventyFivePercentIsFlaggedAsDramOnly) {
  std::vector<json> docs = noisy_fleet(6);
  testing::scale_memory(docs[0], "DRAM", 0.75);  // its noise factor is 1.0; the median's is 0.997
  const FleetAnalysis f = analyze_fleet(nodes_of(docs), FleetOptions{});
  EXPECT_EQ(f.flagged_count(), 1);
  EXPECT_EQ(f.exit_code(), 1);
  const FleetNodeResult& r = f.results[index_of(f, "node-1")];
  ASSERT_FALSE(r.flagged.empty());
  for (const std::string& id : r.flagged) EXPECT_EQ(id.rfind("memory/DRAM/", 0), 0u) << id;
  // DRAM read and triad at both thread counts.
  EXPECT_EQ(r.flagged.size(), 4u);
  const FleetCell& c = r.cells.at("memory/DRAM/read/threads:2");
  EXPECT_NEAR(c.percent_of_median, 75.2, 0.05);
  EXPECT_NEAR(c.shortfall, 0.248, 0.0005);
  ASSERT_TRUE(c.robust_z.has_value());
  EXPECT_LT(*c.robust_z, -3.5);
  EXPECT_NE(r.diagnosis.find("DRAM only"), std::string::npos) << r.diagnosis;
  EXPECT_NE(r.diagnosis.find("DIMM"), std::string::npos) << r.diagnosis;
  EXPECT_NE(r.diagnosis.find("DRAM read, 2 threads at 75.2%"), std::string::npos) << r.diagnosis;
}

TEST(Fleet, ThrottledNodeIsDiagnosedFromTheClock) {
  std::vector<json> docs = noisy_fleet(6);
  testing::scale_compute_and_clock(docs[4], 0.8);
  testing::scale_memory(docs[4], "L1", 0.8);
  const FleetAnalysis f = analyze_fleet(nodes_of(docs), FleetOptions{});
  EXPECT_EQ(f.flagged_count(), 1);
  const FleetNodeResult& r = f.results[index_of(f, "node-5")];
  EXPECT_TRUE(std::find(r.flagged.begin(), r.flagged.end(), "compute/fp32/vector/threads:2") != r.flagged.end());
  EXPECT_TRUE(std::find(r.flagged.begin(), r.flagged.end(), "clock/threads:2") != r.flagged.end());
  EXPECT_NE(r.diagnosis.find("clock is down"), std::string::npos) << r.diagnosis;
  EXPECT_NE(r.diagnosis.find("throttling"), std::string::npos) << r.diagnosis;
  EXPECT_EQ(r.diagnosis.find("DIMM"), std::string::npos) << r.diagnosis;
}

TEST(Fleet, NoiseWithinTheRobustSpreadIsNotFlagged) {
  // DRAM read spread over +-10 %: the slowest is 6.7 % below the median but only -0.8 robust sigmas away.
  std::vector<json> docs = noisy_fleet(6);
  const double spread[] = {1.0, 0.90, 1.10, 0.92, 1.08, 0.93};
  for (int i = 0; i < 6; ++i) testing::scale_memory(docs[i], "DRAM", spread[i]);
  const FleetAnalysis f = analyze_fleet(nodes_of(docs), FleetOptions{});
  EXPECT_EQ(f.flagged_count(), 0);
  const FleetCell& c = f.results[1].cells.at("memory/DRAM/read/threads:2");
  EXPECT_GT(c.shortfall, 0.05);
  EXPECT_GT(*c.robust_z, -3.5);
}

TEST(Fleet, TightFleetDoesNotFlagBelowTheThreshold) {
  std::vector<json> docs;
  for (int i = 0; i < 6; ++i) docs.push_back(fleet_node("tight-" + std::to_string(i)));
  testing::scale_memory(docs[0], "DRAM", 0.97);  // MAD 0, so z is unbounded; 3 % is under the 5 % threshold
  EXPECT_EQ(analyze_fleet(nodes_of(docs), FleetOptions{}).flagged_count(), 0);
  FleetOptions two_percent;
  two_percent.threshold = 0.02;
  EXPECT_EQ(analyze_fleet(nodes_of(docs), two_percent).flagged_count(), 1);
}

TEST(Fleet, MixedHardwareIsComparedWithinGroups) {
  std::vector<json> docs = noisy_fleet(6);
  for (int i = 3; i < 6; ++i) {
    docs[i]["context"]["machine"]["cpu_model"] = "Other CPU @ 3.00GHz";
    testing::scale_all(docs[i], 2.0);  // twice as fast, but its own group
  }
  const FleetAnalysis f = analyze_fleet(nodes_of(docs), FleetOptions{});
  ASSERT_EQ(f.groups.size(), 2u);
  EXPECT_EQ(f.groups[0].nodes.size(), 3u);
  EXPECT_FALSE(f.groups[0].statistics);
  EXPECT_EQ(f.flagged_count(), 0);
  const auto& facts = f.groups[1].facts;
  EXPECT_TRUE(std::find(facts.begin(), facts.end(), std::pair<std::string, std::string>{"clock class", "3.00 GHz"}) != facts.end());
  const bool noted = std::any_of(f.notes.begin(), f.notes.end(), [](const std::string& n) { return n.find("percent") != std::string::npos; });
  EXPECT_TRUE(noted);
}

TEST(Fleet, SmallGroupFlagsByPercentAlone) {
  std::vector<json> docs = noisy_fleet(3);
  testing::scale_memory(docs[1], "DRAM", 0.75);
  const FleetAnalysis f = analyze_fleet(nodes_of(docs), FleetOptions{});
  EXPECT_FALSE(f.groups[0].statistics);
  EXPECT_EQ(f.flagged_count(), 1);
  EXPECT_FALSE(f.results[1].flagged.empty());
  EXPECT_FALSE(f.results[1].cells.at("memory/DRAM/read/threads:2").robust_z.has_value());
}

json fleet_file_with_failure() {
  std::vector<FleetEntry> entries = {fleet_entry_failed(2, "n2", "std::bad_alloc while measuring"),
                                     fleet_entry_measured(0, "n0", read_results(fleet_node("n0"), "n0.json")),
                                     fleet_entry_measured(1, "n1", read_results(fleet_node("n1"), "n1.json"))};
  FleetLauncher launcher;
  launcher.world_size = 3;
  return to_json(fleet_document(std::move(entries), launcher));
}

TEST(Fleet, FailedRankIsReportedAndTheOthersKept) {
  const json doc = fleet_file_with_failure();
  const FleetDocument fleet = read_fleet(doc, "fleet.json");
  EXPECT_EQ(to_json(fleet).dump(2), doc.dump(2));  // the one reader and the one writer: the same text back
  std::vector<FleetNode> nodes = fleet_nodes(fleet, "fleet.json");
  ASSERT_EQ(nodes.size(), 3u);
  EXPECT_EQ(nodes[0].source, "fleet.json rank 0");  // sorted by rank
  EXPECT_EQ(nodes[2].source, "fleet.json rank 2");
  const FleetAnalysis f = analyze_fleet(nodes, FleetOptions{});
  EXPECT_EQ(f.failed_count(), 1);
  EXPECT_EQ(f.flagged_count(), 0);
  EXPECT_EQ(f.exit_code(), 1);
  EXPECT_EQ(f.groups[0].nodes.size(), 2u);
  EXPECT_NE(render_fleet_text(f).find("FAILED  n2"), std::string::npos);
  EXPECT_EQ(fleet_to_json(f)["nodes"][2]["error"], "std::bad_alloc while measuring");
}

TEST(FleetFile, WritesTheFleetFileOfResultsReadmeAndReadsItBack) {
  FleetLauncher launcher;
  launcher.mpi_library = "Open MPI v4.1.4";
  launcher.world_size = 2;
  launcher.hosts = 1;
  launcher.launched_by = "srun";
  launcher.slurm_job_id = "1234";
  const ResultsDocument results = read_results(fleet_node("cn002"), "cn002.json");
  const json doc = to_json(fleet_document({fleet_entry_measured(1, "cn002", results),
                                           fleet_entry_failed(0, "cn001", "what stopped this rank")}, launcher));
  // The keys and values results/README.md documents, as `run --mpi` wrote them before the fleet file was typed.
  EXPECT_EQ(doc["kind"], "roofline-fleet");
  EXPECT_EQ(doc["fleet_schema_version"], 1);
  EXPECT_TRUE(doc["created"].is_string());
  EXPECT_EQ(doc["launcher"], json({{"mpi_library", "Open MPI v4.1.4"}, {"world_size", 2}, {"hosts", 1},
                                   {"launched_by", "srun"}, {"slurm_job_id", "1234"}}));
  EXPECT_EQ(doc["nodes"][0], json({{"rank", 0}, {"node", "cn001"}, {"ok", false}, {"error", "what stopped this rank"}}));
  EXPECT_EQ(doc["nodes"][1], json({{"rank", 1}, {"node", "cn002"}, {"ok", true}, {"results", fleet_node("cn002")}}));
  EXPECT_EQ(doc.size(), 5u);
  const FleetDocument back = read_fleet(doc, "fleet.json");
  EXPECT_EQ(to_json(back).dump(2), doc.dump(2));
  EXPECT_EQ(back.launcher.slurm_job_id, "1234");
  EXPECT_EQ(read_fleet_entry(doc["nodes"][1], "fleet.json", 1).node, "cn002");
  try {
    read_fleet(fleet_node("cn003"), "cn003.json");
    ADD_FAILURE() << "read a results file as a fleet file";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "cn003.json: not a fleet file (no 'fleet_schema_version')");
  }
}

TEST(FleetInput, AFleetOfOneIsRefused) {
  EXPECT_THROW(nodes_of({fleet_node("alone")}), InputError);
}

TEST(FleetInput, TheSameNodeTwiceIsRefusedUnlessRanksDiffer) {
  try {
    nodes_of({fleet_node("twin"), fleet_node("twin")});
    FAIL() << "accepted the same node twice";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("node0.json and node1.json both hold node 'twin'"), std::string::npos) << e.what();
  }
  json a = fleet_node("twin"), b = fleet_node("twin");
  a["context"]["mpi"] = {{"rank", 0}};
  b["context"]["mpi"] = {{"rank", 1}};
  const std::vector<FleetNode> nodes = nodes_of({a, b});
  EXPECT_EQ(fleet_node_label(nodes, 1), "twin#1");
}

TEST(FleetInput, AnotherFleetSchemaIsRefused) {
  json doc = fleet_file_with_failure();
  doc["fleet_schema_version"] = 2;
  EXPECT_THROW(read_fleet(doc, "fleet.json"), InputError);
  json bad_entry = fleet_file_with_failure();
  bad_entry["nodes"][0]["rank"] = -1;
  EXPECT_THROW(read_fleet(bad_entry, "fleet.json"), InputError);
  json other_results = fleet_file_with_failure();
  other_results["nodes"][1]["results"]["context"]["schema_version"] = 2;
  EXPECT_THROW(read_fleet(other_results, "fleet.json"), InputError);
}

TEST(FleetInput, ANodeWithoutCeilingsIsRefusedByName) {
  json empty = fleet_node("bare");
  for (const char* k : {"compute_ceilings", "memory_ceilings", "ridge_points", "placements"}) empty["roofline"][k] = json::array();
  try {
    analyze_fleet(nodes_of({fleet_node("full"), empty}), FleetOptions{});
    FAIL() << "accepted a node without ceilings";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("node1.json: ", 0), 0u) << e.what();
  }
  FleetOptions lenient;
  lenient.strict = false;
  const FleetAnalysis f = analyze_fleet(nodes_of({fleet_node("full"), empty}), lenient);
  EXPECT_EQ(f.results[1].group, -1);
}

TEST(FleetRender, HtmlEscapesNamesAndDrawsAChartPerFigure) {
  std::vector<json> docs = noisy_fleet(5);
  docs.push_back(fleet_node("<script>alert(1)</script>"));
  testing::scale_memory(docs[5], "DRAM", 0.75);
  const FleetAnalysis f = analyze_fleet(nodes_of(docs), FleetOptions{});
  const std::string html = render_fleet_html(f);
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;"), std::string::npos);
  std::size_t charts = 0;
  for (std::size_t at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1)) ++charts;
  EXPECT_EQ(charts, f.groups[0].figures.size());
  EXPECT_NE(html.find("class=\"num flag\""), std::string::npos);
  EXPECT_NE(html.find("<details id=\"node-6\">"), std::string::npos);
  const std::string md = render_fleet_markdown(f);
  EXPECT_NE(md.find("**FLAGGED** &lt;script&gt;"), std::string::npos) << md.substr(0, 600);
  const json j = fleet_to_json(f);
  EXPECT_EQ(j["flagged"], 1);
  EXPECT_EQ(j["nodes"][5]["figures"]["memory/DRAM/triad/threads:1"]["flagged"], true);
}

}  // namespace
}  // namespace roofline
