// End-to-end: the target seam (issue 21) with the test-only target of tests/targets/ (prepared timings): a
// second target goes through `roofline run` into the results file beside the CPU, with its facts, its labels and
// its prepared figures; an unknown target, a failed validation and a device lost mid-run behave as the
// standards say (exit 2 listing the targets; exit 1 named, the other targets kept).
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace roofline::testing {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

json read_json(const fs::path& p) { return json::parse(read_file(p)); }

std::vector<json> entries_of(const json& doc, const std::string& target, const std::string& suite) {
  std::vector<json> out;
  for (const json& e : doc["benchmarks"]) {
    const json& l = e.value("labels", json::object());
    if (l.value("target", "") == target && l.value("suite", "") == suite && e.value("run_type", "") == "iteration") {
      out.push_back(e);
    }
  }
  return out;
}

// Only the test target: quick, no CPU measurement.
CliResult run_test_target(const fs::path& out, std::vector<std::string> extra = {}, std::vector<std::string> env = {}) {
  std::vector<std::string> args{"run", "--no-cpu", "--target", "test:0", "--out", out.string(), "--no-report", "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_test_target_cli(args, env);
}

TEST(CliTargets, TheTestTargetGoesThroughRunIntoTheResultsFile) {
  TempDir dir;
  const fs::path out = dir / "test_target.json";
  const CliResult r = run_test_target(out);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json doc = read_json(out);
  ASSERT_EQ(doc["context"]["targets"].size(), 1u);
  const json& facts = doc["context"]["targets"][0];
  EXPECT_EQ(facts["target"], "test:0");
  EXPECT_EQ(facts["peak_model"], "units_clock");
  EXPECT_EQ(facts["memory_levels"].size(), 2u);
  for (const char* suite : {"bandwidth", "compute", "gemm", "transfer", "latency"}) {
    EXPECT_FALSE(entries_of(doc, "test:0", suite).empty()) << suite;
  }
  EXPECT_TRUE(entries_of(doc, "cpu", "bandwidth").empty());
  // The prepared figures come back through Google Benchmark's manual time exactly (to rounding).
  for (const json& e : entries_of(doc, "test:0", "bandwidth")) {
    EXPECT_EQ(e["name"].get<std::string>().rfind("test:0/bandwidth/", 0), 0u) << e["name"];
    EXPECT_EQ(e["labels"]["timing"], "device");
    const double ws = e["working_set_bytes"].get<double>();
    const double expected = ws <= 4.0 * 1024 * 1024 ? 400e9 : 100e9;
    EXPECT_NEAR(e["bytes_per_second"].get<double>() / expected, 1.0, 1e-6) << e["name"];
  }
  const std::vector<json> latency = entries_of(doc, "test:0", "latency");
  ASSERT_FALSE(latency.empty());
  EXPECT_NEAR(latency.front()["seconds"].get<double>(), 5e-6, 1e-12);
}

// The test target's prepared answers come back from analysis (issue 35): its two levels found on its curve,
// every GEMM at 80% of min(peak, the bandwidth of the level its operands live in x AI), and the 8192^2 GEMV, whose
// 256 MiB of operands the labels give as a shape and element sizes, placed on HBM (the device path once summed the
// element sizes as operands and put every device GEMM on its innermost level).
TEST(CliTargets, TheTestTargetsPreparedAnswersComeBackFromAnalysis) {
  TempDir dir;
  const fs::path out = dir / "test_target.json";
  ASSERT_EQ(run_test_target(out).exit_code, 0);
  const json doc = read_json(out);
  std::vector<std::string> levels;
  for (const json& l : doc["roofline"]["memory_levels"]) {
    if (l["target"] == "test:0") levels.push_back(l["level"].get<std::string>());
  }
  EXPECT_EQ(levels, (std::vector<std::string>{"L2", "HBM"}));
  int placed = 0;
  for (const json& p : doc["roofline"]["placements"]) {
    if (p["target"] != "test:0") continue;
    ++placed;
    const double operands = p["operand_bytes"].get<double>();
    const double m = p["m"].get<double>(), k = p["k"].get<double>(), n = p["batch"].get<double>();
    EXPECT_DOUBLE_EQ(operands, 4.0 * (m * k + k * n + m * n)) << p.dump();
    EXPECT_EQ(p["resident_level"], operands <= 4.0 * 1024 * 1024 ? "L2" : "HBM") << p.dump();
    EXPECT_NEAR(p["efficiency"].get<double>(), 0.8, 0.01) << p.dump();
    if (m == 8192) {
      EXPECT_EQ(p["resident_level"], "HBM");  // 256 MiB of operands
    }
  }
  EXPECT_EQ(placed, 5);
}

TEST(CliTargets, TheCpuAndASecondTargetShareOneFile) {
  TempDir dir;
  const fs::path out = dir / "both.json";
  const CliResult r = run_test_target_cli({"run", "--target", "test:0", "--suites", "bandwidth", "--sizes", "32KiB",
                                           "--threads", "1", "--out", out.string(), "--no-report", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json doc = read_json(out);
  ASSERT_EQ(doc["context"]["targets"].size(), 2u);
  EXPECT_EQ(doc["context"]["targets"][0]["target"], "cpu");
  EXPECT_EQ(doc["context"]["targets"][1]["target"], "test:0");
  EXPECT_FALSE(entries_of(doc, "cpu", "bandwidth").empty());
  EXPECT_FALSE(entries_of(doc, "test:0", "bandwidth").empty());
  EXPECT_TRUE(entries_of(doc, "test:0", "compute").empty());  // --suites holds for every target
  // The CPU's benchmark names are those of every earlier file.
  EXPECT_EQ(entries_of(doc, "cpu", "bandwidth").front()["name"].get<std::string>().rfind("bandwidth/", 0), 0u);
}

// Bad input: exit 2, one line naming each of `words`, nothing written.
void expect_refused(const CliResult& r, const std::vector<std::string>& words, const fs::path& out) {
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(one_line(r.err)) << r.err;
  for (const std::string& w : words) EXPECT_NE(r.err.find(w), std::string::npos) << w << ": " << r.err;
  EXPECT_FALSE(fs::exists(out));
}

TEST(CliTargets, AnUnknownTargetIsOneLineListingTheTargets) {
  TempDir dir;
  expect_refused(run_test_target_cli({"run", "--target", "nosuch:7", "--out", (dir / "x.json").string()}),
                 {"nosuch:7", "test:0", "cpu"}, dir / "x.json");
}

TEST(CliTargets, ATargetFoundByPartOfItsName) {
  TempDir dir;
  const fs::path out = dir / "by_name.json";
  const CliResult r = run_test_target_cli({"run", "--no-cpu", "--target", "PREPARED", "--suites", "latency", "--out",
                                           out.string(), "--no-report", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_FALSE(entries_of(read_json(out), "test:0", "latency").empty());
}

TEST(CliTargets, ASuiteNoTargetOffersIsBadInput) {
  TempDir dir;
  expect_refused(run_cli({"run", "--suites", "transfer", "--out", (dir / "x.json").string()}), {"transfer"},
                 dir / "x.json");
}

TEST(CliTargets, AFailedValidationOnATargetExitsOneNamed) {
  TempDir dir;
  const fs::path out = dir / "failed.json";
  const CliResult r = run_test_target(out, {"--suites", "compute"}, {"ROOFLINE_TEST_TARGET_FAIL=compute"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("test:0/compute/fp32"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("prepared wrong result"), std::string::npos) << r.err;
  ASSERT_TRUE(fs::exists(out));
}

TEST(CliTargets, ATargetLostMidRunKeepsTheOthersAndExitsOne) {
  TempDir dir;
  const fs::path out = dir / "lost.json";
  const CliResult r = run_test_target_cli({"run", "--target", "test:0", "--suites", "bandwidth,gemm", "--sizes", "32KiB",
                                           "--threads", "1", "--backends", "eigen", "--batches", "1", "--gemm-shape",
                                           "256,256", "--out", out.string(), "--no-report", "--quiet"},
                                          {"ROOFLINE_TEST_TARGET_LOSE=gemm"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("target test:0 lost mid-run"), std::string::npos) << r.err;
  const json doc = read_json(out);
  EXPECT_FALSE(entries_of(doc, "cpu", "gemm").empty());
  EXPECT_FALSE(entries_of(doc, "test:0", "bandwidth").empty());
  EXPECT_TRUE(entries_of(doc, "test:0", "gemm").empty());
}

// The rest of the seam: after the run, every subcommand reads the second target from the file, target-blind.
class CliTargetsAfterTheRun : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    ASSERT_EQ(run_test_target(base(), {"--suites", "bandwidth,compute,gemm,transfer,latency"}).exit_code, 0);
    // The same target with its main memory 30% slower: its HBM figures and the batch-1 GEMV on them regress.
    ASSERT_EQ(run_test_target(slow(), {}, {"ROOFLINE_TEST_TARGET_HBM_GBPS=70"}).exit_code, 0);
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static fs::path base() { return *dir_ / "base.json"; }
  static fs::path slow() { return *dir_ / "slow.json"; }
  static TempDir* dir_;
};
TempDir* CliTargetsAfterTheRun::dir_ = nullptr;

TEST_F(CliTargetsAfterTheRun, RendersInTheReport) {
  const CliResult r = run_test_target_cli({"report", base().string(), "--text", "--html", (*dir_ / "r.html").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* text : {"Target test:0", "Memory ceilings, test:0", "HBM", "400 GB/s", "100 GB/s", "1.00 TFLOP/s",
                           "GEMV/GEMM placements, test:0", "Host-device transfers, test:0", "Kernel launch latency, test:0"}) {
    EXPECT_NE(r.out.find(text), std::string::npos) << text << "\n" << r.out;
  }
  EXPECT_NE(read_file(*dir_ / "r.html").find("test:0"), std::string::npos);
}

TEST_F(CliTargetsAfterTheRun, GatesInCompare) {
  // The host is shared with other work in CI: the gate's environment limits are opened, the figures are prepared.
  // (--max-steal too: a KVM guest under ctest -j2 can see over 5% steal, and a disturbed run is not judged)
  const std::vector<std::string> open_env{"--max-busy", "100", "--max-canary-drift", "999", "--max-core-canary-drift", "999", "--max-steal", "100"};
  std::vector<std::string> args{"compare", base().string(), slow().string()};
  args.insert(args.end(), open_env.begin(), open_env.end());
  const CliResult slowed = run_test_target_cli(args);
  EXPECT_EQ(slowed.exit_code, 1) << slowed.out << slowed.err;
  EXPECT_NE((slowed.out + slowed.err).find("test:0/memory/HBM/read"), std::string::npos) << slowed.out << slowed.err;
  std::vector<std::string> same{"compare", base().string(), base().string()};
  same.insert(same.end(), open_env.begin(), open_env.end());
  const CliResult unchanged = run_test_target_cli(same);
  EXPECT_EQ(unchanged.exit_code, 0) << unchanged.out << unchanged.err;
}

TEST_F(CliTargetsAfterTheRun, AppearsInFleet) {
  // Two nodes: the slowed file as another host.
  json node2 = read_json(slow());
  node2["context"]["machine"]["hostname"] = "node2";
  node2["context"]["host_name"] = "node2";
  const fs::path second = *dir_ / "node2.json";
  write_file(second, node2.dump());
  const fs::path json_out = *dir_ / "fleet.json";
  const CliResult r = run_test_target_cli({"fleet", base().string(), second.string(), "--json", json_out.string()});
  ASSERT_NE(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;  // node2 is flagged
  EXPECT_NE(r.out.find("FLAGGED node2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("test:0 HBM read"), std::string::npos) << r.out;
  EXPECT_NE(read_file(json_out).find("test:0/memory/HBM/read"), std::string::npos);
}

TEST_F(CliTargetsAfterTheRun, LlmTakesTheTargetsCeilingsAndMemory) {
  const CliResult r = run_test_target_cli({"llm", "--config", "llama-3.2-1b", "--results", base().string(), "--target",
                                           "test:0", "--batches", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("context.targets[test:0]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("HBM"), std::string::npos) << r.out;
  const CliResult unknown = run_test_target_cli({"llm", "--config", "llama-3.2-1b", "--results", base().string(),
                                                 "--target", "gpu7", "--batches", "1"});
  EXPECT_EQ(unknown.exit_code, 2) << unknown.out << unknown.err;
  EXPECT_TRUE(one_line(unknown.err)) << unknown.err;
}

}  // namespace
}  // namespace roofline::testing
