// End-to-end (issue 62): a hybrid CPU's core kinds. Under a recorded topology whose two PUs are two kinds
// (tests/data/topology/hybrid-2pu.xml: PU 0 IntelAtom, PU 1 IntelCore; HWLOC_THISSYSTEM=1 keeps binding real), `roofline
// run` measures the compute suite's 1-thread rows and a `read` sweep once on a PU of each kind, as its plan lists them,
// the file names each kind's figures, and `report` and `compare` read them back saying which kind each is. Under the
// same machine as one kind (zen5-oxide-2vcpu.xml), the plan's names are the hybrid plan's without the kinds' rows: a
// machine of one kind runs what it ran before.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace roofline::testing {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

std::vector<std::string> topology(const std::string& file) {
  return {"HWLOC_XMLFILE=" + (fs::path(ROOFLINE_TEST_DATA_DIR) / "topology" / file).string(), "HWLOC_THISSYSTEM=1"};
}

// Small: one thread, two sizes, AVX2 at most (every x86-64 CI machine's rows, few of them).
const std::vector<std::string> kRun = {"--suites", "compute,bandwidth", "--threads", "1", "--sizes", "16K,1M",
                                       "--max-isa", "avx2"};

// The benchmark names `run --plan` prints (one indented line per entry: "  <name>  x<reps>  <estimate> s").
std::set<std::string> plan_names(const std::vector<std::string>& env) {
  std::vector<std::string> args = {"run", "--plan"};
  args.insert(args.end(), kRun.begin(), kRun.end());
  const CliResult r = run_cli(args, env);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::set<std::string> out;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("  ", 0) != 0) continue;
    std::istringstream words(line);
    std::string name;
    words >> name;
    if (name != "note:") out.insert(name);
  }
  return out;
}

const char* const kKinds[] = {"IntelAtom", "IntelCore"};

TEST(CliCoreKinds, HybridRunMeasuresEachKindAndTheReportSaysWhichKind) {
  TempDir dir;
  const fs::path file = dir / "hybrid.json";
  std::vector<std::string> args = {"run", "--out", file.string(), "--no-report", "--quiet"};
  args.insert(args.end(), kRun.begin(), kRun.end());
  const CliResult r = run_cli(args, topology("hybrid-2pu.xml"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(read_file(file));

  const json& kinds = doc["context"]["machine"]["core_kinds"];
  ASSERT_EQ(kinds.size(), 2u);
  EXPECT_EQ(kinds[0]["name"], "IntelAtom");
  EXPECT_EQ(kinds[0]["pus"], json::array({0}));
  EXPECT_EQ(kinds[1]["name"], "IntelCore");
  EXPECT_EQ(kinds[1]["pus"], json::array({1}));

  // Each kind's clock, peaks and read sweep: labelled with the kind, named with it last, every one validated.
  std::set<std::string> seen;  // "<kind> <suite>"
  for (const json& e : doc["benchmarks"]) {
    const json& labels = e.value("labels", json::object());
    EXPECT_FALSE(e.value("error_occurred", false)) << e.value("name", "") << ": " << e.value("error_message", "");
    if (!labels.contains("core_kind")) {
      EXPECT_EQ(e.value("name", "").find("kind:"), std::string::npos) << e.value("name", "");
      continue;
    }
    const std::string kind = labels["core_kind"];
    EXPECT_NE(e.value("run_name", "").find("/kind:" + kind), std::string::npos) << e.value("run_name", "");
    EXPECT_EQ(labels.value("threads", 0), 1);
    seen.insert(kind + " " + labels.value("suite", ""));
  }
  for (const char* kind : kKinds) {
    for (const char* suite : {"clock_kind", "compute_kind", "bandwidth_kind"}) {
      EXPECT_EQ(seen.count(std::string(kind) + " " + suite), 1u) << kind << " " << suite;
    }
  }
  // The run's own ceilings are as on a machine of one kind; the kinds' are apart, each naming its kind.
  std::set<std::string> figures;
  for (const json& c : doc["roofline"]["core_kind_ceilings"]) {
    figures.insert(c.value("core_kind", "") + " " + c.value("figure", ""));
    EXPECT_GT(c.value("value", 0.0), 0.0) << c.dump();
    EXPECT_EQ(c.value("target", ""), "cpu");
  }
  for (const char* kind : kKinds) {
    EXPECT_EQ(figures.count(std::string(kind) + " compute"), 1u) << kind;
    EXPECT_EQ(figures.count(std::string(kind) + " memory"), 1u) << kind;
  }
  for (const json& c : doc["roofline"]["compute_ceilings"]) EXPECT_FALSE(c.contains("core_kind")) << c.dump();
  EXPECT_EQ(doc["context"]["suites"]["compute"]["core_kinds"].size(), 2u);
  EXPECT_EQ(doc["context"]["suites"]["bandwidth"]["core_kinds"][1]["pu"], 1);

  // The report says which kind each figure is, in text and HTML; the file re-derives to the same section.
  const CliResult text = run_cli({"report", file.string(), "--text"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Per core kind"), std::string::npos) << text.out;
  for (const char* kind : kKinds) {
    EXPECT_NE(text.out.find(std::string("core kind ") + kind), std::string::npos) << kind;  // the machine's facts
    EXPECT_NE(text.out.find(std::string("  ") + kind + " compute"), std::string::npos) << kind;
    EXPECT_NE(text.out.find(std::string("  ") + kind + " memory"), std::string::npos) << kind;
  }
  const fs::path html = dir / "hybrid.html";
  ASSERT_EQ(run_cli({"report", file.string(), "--html", html.string()}).exit_code, 0);
  EXPECT_NE(read_file(html).find("table-core-kinds"), std::string::npos);
  const fs::path again = dir / "rederived.json";
  const CliResult rederive = run_cli({"report", file.string(), "--rederive", "--json", again.string()});
  ASSERT_EQ(rederive.exit_code, 0) << rederive.err;
  EXPECT_EQ(json::parse(read_file(again))["roofline"]["core_kind_ceilings"].size(),
            doc["roofline"]["core_kind_ceilings"].size());

  // compare matches each kind's entries with the same kind's (the kind is in the name).
  const CliResult cmp = run_cli({"compare", file.string(), file.string()});
  EXPECT_EQ(cmp.exit_code, 0) << cmp.err;
  for (const char* kind : kKinds) {
    EXPECT_NE(cmp.out.find(std::string("compute/fma/fp64/avx2/bits:256/threads:1/kind:") + kind), std::string::npos)
        << kind;
    EXPECT_NE(cmp.out.find(std::string("compute/kind:") + kind + "/fp64/vector/avx2/bits:256/threads:1"), std::string::npos)
        << kind;  // the kind's ceiling against the same kind's
    EXPECT_NE(cmp.out.find(std::string("memory/kind:") + kind + "/L1/read/threads:1"), std::string::npos) << kind;
  }

  // The plan lists every kind's rows, and the run measured exactly them.
  const std::set<std::string> planned = plan_names(topology("hybrid-2pu.xml"));
  for (const json& e : doc["benchmarks"]) {
    if (e.value("run_type", "") != "iteration") continue;
    std::string n = e.value("run_name", "");
    if (const auto at = n.find("/min_time:"); at != std::string::npos) n.erase(at);
    if (n.find("kind:") != std::string::npos) {
      EXPECT_EQ(planned.count(n), 1u) << n;
    }
  }
}

TEST(CliCoreKinds, OneKindRunsTheNamesItRanBefore) {
  const std::set<std::string> hybrid = plan_names(topology("hybrid-2pu.xml"));
  const std::set<std::string> homogeneous = plan_names(topology("zen5-oxide-2vcpu.xml"));
  ASSERT_FALSE(homogeneous.empty());
  std::set<std::string> without_kinds;
  int kind_rows = 0;
  for (const std::string& n : hybrid) {
    if (n.find("/kind:") == std::string::npos) without_kinds.insert(n);
    else ++kind_rows;
  }
  EXPECT_GT(kind_rows, 0);
  EXPECT_EQ(without_kinds, homogeneous);
  for (const std::string& n : homogeneous) EXPECT_EQ(n.find("kind:"), std::string::npos) << n;
}

}  // namespace
}  // namespace roofline::testing
