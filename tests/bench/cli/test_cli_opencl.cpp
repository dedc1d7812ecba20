// End-to-end: `roofline run --target opencl:0` on the first OpenCL device (PoCL's CPU device in CI; skipped,
// saying why, where `roofline devices` lists none) at small sizes: one results file with the device's facts,
// every suite's entries validated, its roofline (levels, compute ceilings at the measured clock on a CPU device,
// transfers, launch latency, CLBlast placements with their offload roof), the PoCL settings of the run, and a
// report that charts the device (beside the CPU's chart: tests/analysis/fleet/test_targets.cpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace roofline::testing {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

// Whether the device's facts (`roofline devices --json`) give a cache level of a plausible size: PoCL passes on the
// host's last-level cache, which some hosts report implausibly (a Zen 5 VM: 508 MiB of L3 per core; the facts then
// give the level no size: tests/data/topology/zen5-oxide-2vcpu.xml reproduces it through HWLOC_XMLFILE).
bool device_reports_a_cache(const std::string& target) {
  const CliResult r = run_cli({"devices", "--json", "-"});
  if (r.exit_code != 0) return false;
  const json devices = json::parse(r.out);
  for (const json& t : devices["targets"]) {
    if (t.value("target", "") != target) continue;
    for (const json& level : t.value("memory_levels", json::array())) {
      if (level.value("name", "") != "global" && level.value("capacity_bytes", 0.0) > 0.0) return true;
    }
  }
  return false;
}

// The first OpenCL target `roofline devices --json` lists, or "" (and why) when none.
std::string first_opencl_target(std::string& why) {
  const CliResult r = run_cli({"devices", "--json", "-"});
  if (r.exit_code != 0) {
    why = "roofline devices failed: " + r.err;
    return "";
  }
  const json j = json::parse(r.out);
  for (const json& t : j["targets"]) {
    if (t.value("api", "") == "opencl") return t["target"].get<std::string>();
  }
  why = "no OpenCL device (install pocl-opencl-icd: scripts/install-deps --test)";
  return "";
}

std::vector<json> rows(const json& doc, const char* array, const std::string& target) {
  std::vector<json> out;
  for (const json& e : doc["roofline"][array]) {
    if (e.value("target", "") == target) out.push_back(e);
  }
  return out;
}

void every_suite_is_in_the_file_validated(const json& doc, const std::string& target) {
  bool facts = false;
  for (const json& t : doc["context"]["targets"]) facts = facts || (t["target"] == target && t["api"] == "opencl");
  EXPECT_TRUE(facts);
  std::set<std::string> suites;
  std::set<std::pair<std::string, int>> kernel_widths;
  for (const json& e : doc["benchmarks"]) {
    const json& l = e.value("labels", json::object());
    if (l.value("target", "") != target || e.value("run_type", "") != "iteration") continue;
    EXPECT_FALSE(e.value("error_occurred", false)) << e.dump();
    EXPECT_EQ(e["name"].get<std::string>().rfind(target + "/", 0), 0u) << e["name"];
    suites.insert(l["suite"].get<std::string>());
    if (l["suite"] == "bandwidth") kernel_widths.insert({l["kernel"].get<std::string>(), l["width"].get<int>()});
  }
  EXPECT_EQ(suites, (std::set<std::string>{"bandwidth", "compute", "gemm", "transfer", "latency"}));
  for (const char* k : {"read", "copy", "triad", "write"}) {
    for (int w : {1, 2, 4, 8, 16}) EXPECT_TRUE(kernel_widths.count({k, w})) << k << " width " << w;
  }
}

// The device's memory levels at the test's two sizes (too few for the curve's plateaus) come from its plausible reported
// cache; a device whose facts give none has no level at these sizes, and the run must say why (issue 60: this test
// failed on every host that reports an implausible L3). Either way the expectation follows the facts in the file's
// host, never which host CI lands on.
void its_levels_follow_the_devices_facts(const json& doc, const std::string& target, bool reports_a_cache) {
  const std::vector<json> levels = rows(doc, "memory_levels", target);
  if (reports_a_cache) {
    EXPECT_FALSE(levels.empty());
    return;
  }
  EXPECT_TRUE(levels.empty());
  bool said = false;
  for (const json& n : doc["roofline"]["notes"]) {
    said = said || n.get<std::string>().find(target + ": too few sizes for plateaus and no reported cache sizes: no memory "
                                                      "levels") != std::string::npos;
  }
  EXPECT_TRUE(said) << doc["roofline"]["notes"].dump();
  std::printf("[   NOTE   ] %s reports no plausible cache on this host: its levels are not checked at two sizes; the "
              "run says why (checked)\n", target.c_str());
}

void its_roofline_has_ceilings_transfers_latency_and_placements(const json& doc, const std::string& target) {
  for (const json& m : rows(doc, "memory_ceilings", target)) EXPECT_TRUE(m["width"].is_number()) << m.dump();
  const std::vector<json> compute = rows(doc, "compute_ceilings", target);
  bool fp32 = false;
  for (const json& c : compute) {
    if (c["precision"] != "fp32") continue;
    fp32 = true;
    EXPECT_GT(c["value"].get<double>(), 0.0);
    if (c["theoretical"].is_number()) {
      EXPECT_GT(c["clock_hz"].get<double>(), 0.0);
      // A CPU device's peak is taken at the host cores' clock, measured beside the kernel.
      for (const json& t : doc["context"]["targets"]) {
        if (t["target"] == target && t["kind"] == "cpu") {
          EXPECT_EQ(c["clock_source"], "measured");
        }
      }
    }
  }
  EXPECT_TRUE(fp32);
  EXPECT_EQ(rows(doc, "transfer_ceilings", target).size(), 4u);  // both directions, pinned and pageable
  EXPECT_EQ(rows(doc, "launch_latency", target).size(), 1u);
  const std::vector<json> placements = rows(doc, "placements", target);
  if (doc["context"]["suites"].contains(target + "/gemm") && !placements.empty()) {
    for (const json& p : placements) {
      EXPECT_EQ(p["backend"], "clblast");
      EXPECT_TRUE(p["offload"].is_object()) << p.dump();
    }
  }
}

void pocl_settings_of_the_run_are_recorded(const json& doc, const std::string& target) {
  ASSERT_TRUE(doc["context"]["suites"].contains(target + "/bandwidth"));
  const json& suite = doc["context"]["suites"][target + "/bandwidth"];
  ASSERT_TRUE(suite.is_object());
  EXPECT_GT(suite["build_seconds"].get<double>(), 0.0);
  if (suite.contains("pocl_environment")) {
    EXPECT_EQ(suite["pocl_environment"]["POCL_WORK_GROUP_METHOD"], "loopvec");
  }
}

// One run (~20 s on 2 cores: two sizes, a small GEMM, no CPU suites), every check on its file: one test, since
// ctest runs each test in a process of its own.
TEST(CliOpenCl, RunWritesTheDevicesRooflineValidatedAndTheReportChartsIt) {
  std::string why;
  const std::string target = first_opencl_target(why);
  if (target.empty()) GTEST_SKIP() << why;
  TempDir dir;
  const fs::path out = dir / "opencl.json";
  const std::vector<std::string> flags{"run", "--no-cpu", "--target", target, "--suites",
                                       "bandwidth,compute,gemm,transfer,latency", "--sizes", "64KiB,1MiB",
                                       "--gemm-shape", "256,256", "--batches", "1,16"};
  std::vector<std::string> run = flags;
  run.insert(run.end(), {"--out", out.string(), "--quiet"});
  const CliResult r = run_cli(run, {"POCL_WORK_GROUP_METHOD=loopvec"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json doc = json::parse(read_file(out));
  // The device's plan (issue 46): the run measured what `--plan` prints, under the same hash.
  std::vector<std::string> plan = flags;
  plan.emplace_back("--plan");
  const CliResult p = run_cli(plan);
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_NE(p.out.find("plan " + doc["context"]["plan"]["hash"].get<std::string>() + ":"), std::string::npos) << p.out;
  EXPECT_NE(p.out.find("gemm/clblast/fp32/m:256/k:256/batch:16"), std::string::npos) << p.out;
  every_suite_is_in_the_file_validated(doc, target);
  its_levels_follow_the_devices_facts(doc, target, device_reports_a_cache(target));
  its_roofline_has_ceilings_transfers_latency_and_placements(doc, target);
  pocl_settings_of_the_run_are_recorded(doc, target);
  const fs::path html = dir / "opencl.html";
  ASSERT_TRUE(fs::exists(html));
  EXPECT_NE(read_file(html).find("id=\"roofline-chart-" + target + "\""), std::string::npos);
}

// `roofline run --plan` with a device lists the device's plan beside the CPU's, measures nothing, and prints the same
// text twice: the device's sweep, widths, GEMM shape and batches come from its facts, never from a run.
TEST(CliOpenCl, PlanListsTheDeviceBesideTheCpuTheSameTwice) {
  std::string why;
  const std::string target = first_opencl_target(why);
  if (target.empty()) GTEST_SKIP() << why;
  const CliResult a = run_cli({"run", "--plan", "--target", target});
  const CliResult b = run_cli({"run", "--plan", "--target", target});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out.find("\ncpu bandwidth: "), std::string::npos) << a.out;
  for (const char* suite : {"bandwidth", "compute", "transfer", "latency"}) {
    EXPECT_NE(a.out.find("\n" + target + " " + suite + ": "), std::string::npos) << suite << "\n" << a.out;
  }
  EXPECT_NE(a.out.find("bandwidth/read/width:"), std::string::npos);
  EXPECT_EQ(a.out.find("planned as they run"), std::string::npos) << a.out;
}

}  // namespace
}  // namespace roofline::testing
