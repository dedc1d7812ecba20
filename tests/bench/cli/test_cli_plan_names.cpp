// End-to-end (issue 61, step 4): a run measures exactly its plan. Each target's real run, at a small profile, is held
// to what `roofline run --plan` printed for the same flags: the same benchmark names, each measured as many times as
// its planned repetitions, and nothing else, on the CPU target, the test-only target (tests/targets) and the first
// OpenCL device (PoCL's CPU device here; skipped, saying why, where there is none) and the first CUDA device (skipped
// likewise). A suite that derived its own list at run time, or cut or added a point, fails here by name.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace roofline::testing {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

// Per target, each planned benchmark's name and repetitions.
using Names = std::map<std::string, std::map<std::string, int>>;

// What `roofline run --plan` printed: "<target> <suite>: N benchmarks, ..." heads each suite, then one line per entry
// ("  <name>  x<repetitions>  <estimate> s"); notes are indented "note:" lines.
Names planned_names(const std::string& text) {
  Names out;
  std::istringstream in(text);
  std::string line, target;
  while (std::getline(in, line)) {
    if (line.empty() || line.rfind("plan ", 0) == 0 || line.rfind("roofline run --plan", 0) == 0) continue;
    if (line[0] != ' ') {
      if (line.find(" benchmarks, estimated ") != std::string::npos) target = line.substr(0, line.find(' '));
      continue;
    }
    std::istringstream words(line);
    std::string name, reps;
    words >> name >> reps;
    if (name == "note:" || target.empty()) continue;
    EXPECT_EQ(reps.rfind('x', 0), 0u) << line;
    EXPECT_EQ(out[target].count(name), 0u) << "planned twice: " << target << " " << name;
    out[target][name] = std::stoi(reps.substr(1));
  }
  return out;
}

// The name an entry was planned under: its run name without Google Benchmark's suffixes ("/min_time:..",
// "/repeats:..", "/real_time", "/manual_time", "/iterations:..") and, for a device, without its target's prefix.
std::string plan_name(const json& e, const std::string& target) {
  std::string n = e.value("run_name", e.value("name", std::string()));
  for (const char* suffix : {"/min_time:", "/repeats:", "/real_time", "/manual_time", "/iterations:"}) {
    if (const auto at = n.find(suffix); at != std::string::npos) n.erase(at);
  }
  if (n.rfind(target + "/", 0) == 0) n.erase(0, target.size() + 1);
  return n;
}

// What the run measured: per target, each name and how many repetitions of it the file holds; a failed entry fails.
Names measured_names(const json& doc) {
  Names out;
  for (const json& e : doc["benchmarks"]) {
    if (e.value("run_type", "") != "iteration") continue;
    EXPECT_FALSE(e.value("error_occurred", false)) << e.value("name", "") << ": " << e.value("error_message", "");
    const std::string target = e.value("labels", json::object()).value("target", std::string("cpu"));
    ++out[target][plan_name(e, target)];
  }
  return out;
}

// Runs `flags` with --plan and for real (into a file of `dir`), and holds the run's names to the plan's.
void run_measures_its_plan(const std::vector<std::string>& flags, const TempDir& dir, bool test_target,
                           const std::vector<std::string>& env = {}) {
  const auto cli = [&](const std::vector<std::string>& args) {
    return test_target ? run_test_target_cli(args, env) : run_cli(args, env);
  };
  std::vector<std::string> plan = flags;
  plan.emplace_back("--plan");
  const CliResult p = cli(plan);
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const Names planned = planned_names(p.out);
  ASSERT_FALSE(planned.empty()) << p.out;
  const fs::path out = dir / "run.json";
  std::vector<std::string> run = flags;
  run.insert(run.end(), {"--out", out.string(), "--no-report", "--quiet"});
  const CliResult r = cli(run);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json doc = json::parse(read_file(out));
  const Names measured = measured_names(doc);
  for (const auto& [target, names] : planned) {
    ASSERT_TRUE(measured.count(target)) << target << " measured nothing";
    for (const auto& [name, reps] : names) {
      const auto it = measured.at(target).find(name);
      if (it == measured.at(target).end()) {
        ADD_FAILURE() << target << ": planned, not measured: " << name;
        continue;
      }
      EXPECT_EQ(it->second, reps) << target << ": repetitions of " << name;
    }
  }
  for (const auto& [target, names] : measured) {
    for (const auto& [name, count] : names) {
      EXPECT_TRUE(planned.count(target) && planned.at(target).count(name))
          << target << ": measured, not planned: " << name << " (x" << count << ")";
    }
  }
  // The file says the plan it ran, under the hash --plan printed.
  EXPECT_NE(p.out.find("plan " + doc["context"]["plan"]["hash"].get<std::string>() + ":"), std::string::npos);
}

// Every CPU suite at a small profile: one thread, two sizes, one GEMM backend at batch 1 (memory-bound: a roof probe)
// and 16, the compute suite's clock, peaks, dequant-dot rows and DRAM GEMV.
TEST(CliPlanNames, TheCpuRunMeasuresExactlyItsPlan) {
  TempDir dir;
  run_measures_its_plan({"run", "--threads", "1", "--sizes", "64KiB,1MiB", "--gemm-shape", "256,256", "--batches",
                         "1,16", "--backends", "eigen"},
                        dir, false);
}

// The test-only target's every suite (prepared timings: its own plan, the harness's names).
TEST(CliPlanNames, TheTestTargetsRunMeasuresExactlyItsPlan) {
  TempDir dir;
  run_measures_its_plan({"run", "--no-cpu", "--target", "test:0"}, dir, true);
}

// The first OpenCL device's every suite at two sizes and a small GEMM.
TEST(CliPlanNames, AnOpenClRunMeasuresExactlyItsPlan) {
  const CliResult devices = run_cli({"devices", "--json", "-"});
  std::string target;
  if (devices.exit_code == 0) {
    const json listed = json::parse(devices.out);
    for (const json& t : listed["targets"]) {
      if (t.value("api", "") == "opencl" && target.empty()) target = t["target"].get<std::string>();
    }
  }
  if (target.empty()) GTEST_SKIP() << "no OpenCL device (install pocl-opencl-icd: scripts/install-deps --test)";
  TempDir dir;
  run_measures_its_plan({"run", "--no-cpu", "--target", target, "--suites", "bandwidth,compute,gemm,transfer,latency",
                         "--sizes", "64KiB,1MiB", "--gemm-shape", "256,256", "--batches", "1,16"},
                        dir, false, {"POCL_WORK_GROUP_METHOD=loopvec"});
}

// The first CUDA device's every suite at two sizes (skipped, saying why, without one: the suites' plan is held to its
// works' names on the host by test_cuda_suite_plan). Batches 16 and 64: cuBLASLt has no fp8 algorithm at n = 1, and
// a planned entry it refuses is a note of the run, not an entry.
TEST(CliPlanNames, ACudaRunMeasuresExactlyItsPlan) {
  const CliResult devices = run_cli({"devices", "--json", "-"});
  std::string target;
  if (devices.exit_code == 0) {
    const json listed = json::parse(devices.out);
    for (const json& t : listed["targets"]) {
      if (t.value("api", "") == "cuda" && target.empty()) target = t["target"].get<std::string>();
    }
  }
  if (target.empty()) GTEST_SKIP() << "no CUDA device";
  TempDir dir;
  run_measures_its_plan({"run", "--no-cpu", "--target", target, "--suites", "bandwidth,compute,gemm,transfer,latency",
                         "--sizes", "64KiB,1MiB", "--batches", "16,64"},
                        dir, false);
}

}  // namespace
}  // namespace roofline::testing
