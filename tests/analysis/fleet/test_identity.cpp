// Machine vs configuration (roofline/regress/identity.hpp), decided once: the history keys stay as the
// databases store them, the ISA cap and SMT are configuration (compare, paired runs and fleet agree), and
// a fact one side did not record is no evidence of another machine.
#include <gtest/gtest.h>

#include <algorithm>

#include <fmt/format.h>

#include "roofline/regress/compare.hpp"
#include "roofline/fleet/fleet.hpp"
#include "roofline/fleet/fleet_file.hpp"
#include "roofline/regress/identity.hpp"
#include "roofline/model/results.hpp"
#include "support/fleet_fixtures.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
using nlohmann::json;
using testing::typed;

const std::string kDir = std::string(ROOFLINE_TEST_DATA_DIR) + "/compare/";

TEST(Identity, HistoryKeysKeepTheirFormat) {
  // What history databases hold in runs.machine_id / configuration_id: a changed format would orphan them.
  json doc = load_json_file(kDir + "base.json");
  doc["context"]["machine"]["memory_total_bytes"] = 24.4 * double(1ull << 30);
  doc["context"]["binding"] = {{"policy", "compact"}};
  EXPECT_EQ(machine_identity(typed(doc)), "cpu_model=Intel(R) Xeon(R) Processor;cores=2;isa=avx2,avx512f,fma,sse2;memory_gib=24");
  EXPECT_EQ(configuration_identity(typed(doc)), "max_isa=avx512;threads=[1,2];profile=quick;binding=compact");
}

TEST(Identity, IsaCapAndSmtAreConfiguration) {
  const json base = load_json_file(kDir + "base.json");
  json capped = load_json_file(kDir + "avx2.json");  // --max-isa avx2 on the same machine
  capped["context"]["machine"]["pus"] = 4;          // and SMT on: 2 hardware threads per core
  EXPECT_EQ(machine_identity(typed(base)), machine_identity(typed(capped)));
  EXPECT_TRUE(fact_differences(machine_facts(typed(base)), machine_facts(typed(capped))).empty());
  EXPECT_EQ(fact_differences(configuration_facts(typed(base)), configuration_facts(typed(capped))),
            (std::vector<std::string>{"max_isa: avx512 -> avx2", "smt: 1 -> 2"}));
  EXPECT_NE(configuration_identity(typed(base)), configuration_identity(typed(capped)));  // its own history
  const Comparison c = compare_runs(typed(base), "base.json", typed(capped), "avx2.json", {});
  EXPECT_TRUE(c.same_machine);
}

TEST(Identity, HardwareDiffersAndUnrecordedIsNoEvidence) {
  const json base = load_json_file(kDir + "base.json");
  const json other = load_json_file(kDir + "other_machine.json");
  EXPECT_EQ(fact_differences(machine_facts(typed(base)), machine_facts(typed(other))),
            (std::vector<std::string>{"cpu_model: Intel(R) Xeon(R) Processor -> AMD EPYC 9654 96-Core Processor",
                                      "cores: 2 -> 96", "isa: -avx512f"}));
  json unknown = base;
  unknown["context"]["machine"].erase("cores");
  EXPECT_TRUE(fact_differences(machine_facts(typed(base)), machine_facts(typed(unknown))).empty());
}

TEST(Identity, FleetGroupsByHardwareAndNotesTheIsaCap) {
  // Six nodes of one machine, one of them run with --max-isa avx2: one group (fleet used to put it in a
  // group of its own, where nothing was compared), and a note says what differs.
  std::vector<json> docs;
  for (int i = 0; i < 6; ++i) {
    docs.push_back(testing::fleet_node(fmt::format("n{}", i)));
    docs.back()["context"]["max_isa"] = i == 5 ? "avx2" : "avx512";
  }
  std::vector<FleetNode> nodes;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    const std::string name = fmt::format("n{}.json", i);
    nodes.push_back(results_file_node(read_results(docs[i], name), name));
  }
  const FleetAnalysis f = analyze_fleet(nodes, FleetOptions{});
  ASSERT_EQ(f.groups.size(), 1u);
  EXPECT_EQ(f.groups[0].nodes.size(), 6u);
  const bool noted = std::any_of(f.notes.begin(), f.notes.end(), [](const std::string& n) {
    return n.find("n5 runs another configuration than n0 (max_isa: avx512 -> avx2)") != std::string::npos;
  });
  EXPECT_TRUE(noted) << ::testing::PrintToString(f.notes);
}

}  // namespace
}  // namespace roofline
