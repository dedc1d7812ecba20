// The stored-baseline gate's canaries our code cannot move (issue 59, compare_gate.hpp): files with the libc
// canaries (glibc's memcpy in L2 and over DRAM) have each figure weighed against its class's canary instead of the
// class distrusted. The real case: `run --suites compute` against the same with `--max-isa sse` gave fp32 peak -74%
// while our own read kernel's core canary fell with it (334 -> 226 GB/s): every figure read unclear, exit 0.
#include <gtest/gtest.h>

#include <algorithm>

#include "roofline/regress/compare_gate.hpp"
#include "roofline/model/results.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
using nlohmann::json;
using testing::typed;

const std::string kDir = std::string(ROOFLINE_TEST_DATA_DIR) + "/compare/";
const std::string kFp32 = "compute/fp32/vector/threads:2";
const std::string kL1 = "memory/L1/read/threads:2";
const std::string kTriad = "memory/DRAM/triad/threads:2";

const FigureRow& figure(const Gate& g, const std::string& id) {
  const auto it = std::find_if(g.figures.begin(), g.figures.end(), [&](const FigureRow& r) { return r.figure.id == id; });
  if (it == g.figures.end()) throw std::runtime_error("no figure " + id);
  return *it;
}

json canary(double start, double end, const char* count) {
  return {{"kernel", "memcpy"}, {"threads", 2}, {count, 8}, {"start", start}, {"end", end}};
}

// quiet_env.json (steady CPU and canaries) with libc canaries at these levels (start, end), our read kernel's core
// canary at `ours`, and its fp32 peak, L1 read and DRAM triad scaled.
json run(double core_start, double core_end, double dram_start, double dram_end, double fp32 = 1.0, double l1 = 1.0,
         double triad = 1.0, double ours = 334e9) {
  json doc = load_json_file(kDir + "quiet_env.json");
  json& env = doc["context"]["environment"];
  env["libc_core_canary"] = canary(core_start, core_end, "samples");
  env["libc_canary"] = canary(dram_start, dram_end, "passes");
  env["core_canary"] = {{"kernel", "read"}, {"start", ours}, {"end", ours}};
  for (json& e : doc["roofline"]["compute_ceilings"]) e["value"] = e["value"].get<double>() * fp32;
  for (json& e : doc["roofline"]["memory_ceilings"]) e["value"] = e["value"].get<double>() * (e["level"] == "L1" ? l1 : triad);
  return doc;
}

const json kBase = run(120e9, 122e9, 20e9, 20.2e9);

TEST(GateWeighed, ARealSlowdownWithItsCanaryStillIsARegression) {
  // fp32 -74% (--max-isa sse), our read kernel's canary -32% with it, the libc canaries unchanged: judged.
  const Gate g = gate_runs(typed(kBase), typed(run(120.5e9, 120e9, 20e9, 20.2e9, 0.26, 1.0, 1.0, 226e9)), nullptr, GateOptions{});
  EXPECT_TRUE(g.weighed);
  EXPECT_TRUE(g.next_environment.libc);
  EXPECT_FALSE(g.core_disturbed);
  EXPECT_EQ(g.outcome, Outcome::regression) << g.verdict_line;
  const FigureRow& fp32 = figure(g, kFp32);
  EXPECT_EQ(fp32.verdict, Verdict::regression);
  EXPECT_TRUE(fp32.trusted);
  EXPECT_EQ(fp32.canary, "libc core canary (memcpy, L2)");
  EXPECT_NEAR(fp32.change, -0.74, 1e-9);
  EXPECT_NEAR(fp32.adjusted_change, 0.26 / (120.25 / 121.0) - 1.0, 1e-9);
  EXPECT_NE(fp32.why.find("-74.0% vs base, -73.8% after the libc core canary (memcpy, L2)'s -0.6%"), std::string::npos) << fp32.why;
  // The verdict line names the canaries and their moves; the method line says how figures were judged.
  EXPECT_NE(g.verdict_line.find("weighed against libc core canary (memcpy, L2) 121 GB/s -> 120 GB/s (-0.6%); "
                                "libc DRAM canary (memcpy) 20.1 GB/s -> 20.1 GB/s (+0.0%)"),
            std::string::npos)
      << g.verdict_line;
  EXPECT_NE(g.method_line.find("each core-bound figure weighed against the libc core canary"), std::string::npos);
  const std::string text = render_gate_text(g);
  EXPECT_NE(text.find("Adjusted"), std::string::npos) << text;
  EXPECT_NE(text.find("-73.8%"), std::string::npos) << text;
  EXPECT_NE(render_gate_markdown(g).find("| Adjusted |"), std::string::npos);
  const json j = gate_to_json(g);
  EXPECT_EQ(j["weighed"], true);
  EXPECT_NEAR(j["figures"][2]["adjusted_change"].get<double>(), fp32.adjusted_change, 1e-12);
}

TEST(GateWeighed, AFigureThatMovedWithItsCanaryIsOk) {
  // Everything core-bound 20% lower, the libc core canary too: the machine, not the code.
  const Gate g = gate_runs(typed(kBase), typed(run(96e9, 97.6e9, 20e9, 20.2e9, 0.8, 0.8)), nullptr, GateOptions{});
  EXPECT_EQ(g.outcome, Outcome::clean) << g.verdict_line;
  EXPECT_NEAR(figure(g, kFp32).change, -0.2, 1e-9);
  EXPECT_NEAR(figure(g, kFp32).adjusted_change, 0.0, 1e-9);
  EXPECT_EQ(figure(g, kFp32).verdict, Verdict::ok);
  EXPECT_EQ(figure(g, kL1).verdict, Verdict::ok);
  // The DRAM figure is weighed against the DRAM canary: 20% lower with it, ok; 20% lower alone, a regression.
  EXPECT_EQ(gate_runs(typed(kBase), typed(run(120e9, 121e9, 16e9, 16.16e9, 1.0, 1.0, 0.8)), nullptr, GateOptions{}).outcome,
            Outcome::clean);
  const Gate dram = gate_runs(typed(kBase), typed(run(120e9, 121e9, 20e9, 20.2e9, 1.0, 1.0, 0.8)), nullptr, GateOptions{});
  EXPECT_EQ(dram.outcome, Outcome::regression);
  EXPECT_EQ(figure(dram, kTriad).canary, "libc DRAM canary (memcpy)");
}

// The canary explains a move in its own direction, up to the figure's own: a canary that moved alone (the L2 memcpy
// canary moved 11% between two A/A runs whose compute figures moved 0.1%) is no change of the figures.
TEST(GateWeighed, ACanaryThatMovedAloneChangesNothing) {
  const Gate faster = gate_runs(typed(kBase), typed(run(134e9, 134.6e9, 20e9, 20.2e9)), nullptr, GateOptions{});
  EXPECT_EQ(faster.outcome, Outcome::clean) << faster.verdict_line;
  EXPECT_NEAR(figure(faster, kFp32).adjusted_change, 0.0, 1e-9);
  const Gate slower = gate_runs(typed(kBase), typed(run(108e9, 109e9, 20e9, 20.2e9, 0.95)), nullptr, GateOptions{});
  EXPECT_NEAR(figure(slower, kFp32).adjusted_change, 0.0, 1e-9);  // -5%, the canary -10%: all of it explained
  EXPECT_EQ(slower.outcome, Outcome::clean) << slower.verdict_line;
}

TEST(GateWeighed, BeyondWhatTheCanaryExplainsIsARegression) {
  // fp32 -40% while the core canary fell 20%: -25% after it.
  const Gate g = gate_runs(typed(kBase), typed(run(96e9, 97.6e9, 20e9, 20.2e9, 0.6, 0.8)), nullptr, GateOptions{});
  EXPECT_EQ(g.outcome, Outcome::regression) << g.verdict_line;
  EXPECT_NEAR(figure(g, kFp32).adjusted_change, -0.25, 1e-9);
  EXPECT_EQ(figure(g, kFp32).verdict, Verdict::regression);
  EXPECT_EQ(figure(g, kL1).verdict, Verdict::ok);
}

TEST(GateWeighed, AnErraticCanaryLeavesItsClassUnclearButNotAFarLargerMove) {
  // The core canary fell 25% within the new run: its adjusted changes are not trusted.
  const Gate g = gate_runs(typed(kBase), typed(run(120e9, 90e9, 20e9, 20.2e9, 0.8)), nullptr, GateOptions{});
  EXPECT_TRUE(g.core_disturbed);
  EXPECT_FALSE(g.memory_disturbed);
  EXPECT_EQ(g.outcome, Outcome::inconclusive) << g.verdict_line;
  EXPECT_EQ(figure(g, kFp32).verdict, Verdict::unclear);
  EXPECT_NE(figure(g, kFp32).why.find("not trusted: its canary is erratic (libc core canary"), std::string::npos)
      << figure(g, kFp32).why;
  EXPECT_NE(g.verdict_line.find("drift 25.0% within a run > 10.0%"), std::string::npos) << g.verdict_line;
  EXPECT_NE(render_gate_text(g).find("core canary erratic:"), std::string::npos);
  // The same erratic canary, and fp32 -74%: far beyond anything it did (25%), judged.
  const Gate far = gate_runs(typed(kBase), typed(run(120e9, 90e9, 20e9, 20.2e9, 0.26)), nullptr, GateOptions{});
  EXPECT_EQ(far.outcome, Outcome::regression) << far.verdict_line;
  EXPECT_EQ(figure(far, kFp32).verdict, Verdict::regression);
  // A canary 40% apart between the runs (another machine state, beyond max_canary_shift): not weighed on.
  const Gate shifted = gate_runs(typed(kBase), typed(run(72e9, 72.5e9, 20e9, 20.2e9, 0.55)), nullptr, GateOptions{});
  EXPECT_TRUE(shifted.core_disturbed);
  EXPECT_EQ(figure(shifted, kFp32).verdict, Verdict::unclear) << figure(shifted, kFp32).why;
}

TEST(GateWeighed, FilesWithoutTheLibcCanariesAreJudgedAsBefore) {
  json old_base = kBase;
  old_base["context"]["environment"].erase("libc_canary");
  old_base["context"]["environment"].erase("libc_core_canary");
  // Our read kernel's canary moved with fp32 (-32%): as before issue 59, the core-bound figures are not trusted.
  const Gate g = gate_runs(typed(old_base), typed(run(120.5e9, 120e9, 20e9, 20.2e9, 0.26, 1.0, 1.0, 226e9)), nullptr, GateOptions{});
  EXPECT_FALSE(g.weighed);
  EXPECT_FALSE(g.next_environment.libc);
  EXPECT_EQ(g.outcome, Outcome::inconclusive);
  EXPECT_EQ(figure(g, kFp32).verdict, Verdict::unclear);
  EXPECT_DOUBLE_EQ(figure(g, kFp32).adjusted_change, figure(g, kFp32).change);
  EXPECT_NE(g.method_line.find("canaries of our own kernels: the base run has no libc canaries, as in files before issue 59"),
            std::string::npos)
      << g.method_line;
  EXPECT_EQ(render_gate_text(g).find("Adjusted"), std::string::npos);
}

TEST(GateWeighed, WithAHistoryTheCanaryIsWeighedAgainstItsMedian) {
  const json base = kBase;
  std::vector<HistoryPoint> runs;
  for (int i = 0; i < 6; ++i) {
    HistoryPoint p{machine_identity(typed(base)), configuration_identity(typed(base)), "hash" + std::to_string(i), {}};
    for (const KeyFigure& f : key_figures(testing::lenient(base))) p.figures[f.id] = f.value * (1.0 + 0.002 * (i - 3));
    p.figures[kLibcCoreCanaryFigureId] = 120.5e9;
    p.figures[kLibcCanaryFigureId] = 20.05e9;
    runs.push_back(p);
  }
  const NoiseModel noise = noise_model(runs, typed(base), "", "generated");
  EXPECT_FALSE(noise.figures.at(kLibcCanaryFigureId).values.empty());
  const Gate slow = gate_runs(typed(base), typed(run(120.5e9, 120e9, 20e9, 20.2e9, 0.26)), &noise, GateOptions{});
  EXPECT_TRUE(slow.history_used);
  EXPECT_TRUE(slow.weighed);
  EXPECT_EQ(figure(slow, kFp32).verdict, Verdict::regression);
  EXPECT_NE(slow.canaries.find("from the history's median"), std::string::npos) << slow.canaries;
  const Gate with = gate_runs(typed(base), typed(run(96e9, 96.5e9, 20e9, 20.2e9, 0.8, 0.8)), &noise, GateOptions{});
  EXPECT_EQ(with.outcome, Outcome::clean) << with.verdict_line;
  // A history that kept no libc canaries: judged as before, and said.
  for (auto& r : runs) {
    r.figures.erase(kLibcCoreCanaryFigureId);
    r.figures.erase(kLibcCanaryFigureId);
  }
  const NoiseModel old_noise = noise_model(runs, typed(base), "", "generated");
  const Gate old = gate_runs(typed(base), typed(run(96e9, 96.5e9, 20e9, 20.2e9, 0.8, 0.8)), &old_noise, GateOptions{});
  EXPECT_FALSE(old.weighed);
  EXPECT_NE(old.method_line.find("the history kept no libc canaries"), std::string::npos) << old.method_line;
}

}  // namespace
}  // namespace roofline
