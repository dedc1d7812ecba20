// End-to-end: the gemm suite through `roofline run`: bad --gemm-shape / --batches / --backends are one-line
// errors with exit code 2 and nothing written; a tiny real run writes validated, placed GEMV/GEMM points.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace roofline::testing {
namespace fs = std::filesystem;
using nlohmann::json;

// Runs `roofline run --suites gemm` with `flags` (plus a tiny shape unless the flags give one, so that a
// wrongly accepted flag costs a second, not a whole sweep) and checks the one-line refusal.
void expect_refused(const std::vector<std::string>& flags) {
  TempDir dir;
  const std::string out = (dir / "r.json").string();
  std::vector<std::string> args{"run", "--suites", "gemm", "--threads", "1", "--out", out};
  if (flags[0] != "--gemm-shape") args.insert(args.end(), {"--gemm-shape", "64,64"});
  args.insert(args.end(), flags.begin(), flags.end());
  const CliResult r = run_cli(args);
  EXPECT_EQ(r.exit_code, 2) << flags[0] << " '" << flags[1] << "': " << r.err;
  EXPECT_TRUE(one_line(r.err)) << r.err;
  EXPECT_NE(r.err.find(flags[0]), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out)) << flags[0] << " " << flags[1];
  EXPECT_FALSE(fs::exists(dir / "r.html"));
}

TEST(CliGemm, BadShapesBatchesAndBackendsAreRefused) {
  for (const std::vector<std::string>& flags : std::vector<std::vector<std::string>>{
           {"--gemm-shape", "0,5"},
           {"--gemm-shape", "a,b"},
           {"--gemm-shape", "-3,4"},
           {"--gemm-shape", "64"},
           {"--gemm-shape", "64,64,64"},
           {"--gemm-shape", "1000000,1000000"},  // 4 TB of weights: does not fit in memory
           {"--batches", "0"},
           {"--batches", "-1"},
           {"--batches", "1,x"},
           {"--backends", "no-such-backend"}}) {
    expect_refused(flags);
  }
}

TEST(CliGemm, EmptyBatchesIsRefused) { expect_refused({"--batches", ""}); }

TEST(CliGemm, TinyRunWritesPlacements) {
  TempDir dir;
  const fs::path out = dir / "gemm.json";
  const CliResult r = run_cli({"run", "--suites", "gemm", "--gemm-shape", "256,256", "--batches", "1,64", "--threads",
                               "1", "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(read_file(out));

  // Every entry carries the gemm labels and counters; the arithmetic intensity follows the formula.
  int eigen_fp32 = 0;
  for (const json& e : doc["benchmarks"]) {
    if (e.value("run_type", "") != "iteration") continue;
    ASSERT_TRUE(e.contains("labels")) << e.dump();
    const json& l = e["labels"];
    EXPECT_EQ(l["suite"], "gemm");
    EXPECT_FALSE(e.value("error_occurred", false)) << e.value("error_message", "");
    EXPECT_EQ(l["m"], 256);
    EXPECT_EQ(l["k"], 256);
    EXPECT_EQ(l["threads"], 1);
    EXPECT_EQ(l["kernel"], l["batch"] == 1 ? "gemv" : "gemm");
    EXPECT_FALSE(l["implementation"].get<std::string>().empty());
    EXPECT_GT(e.value(l["precision"] == "int8" ? "op_per_second" : "flop_per_second", 0.0), 0.0);
    EXPECT_GT(e.value("bytes_per_second", 0.0), 0.0);
    EXPECT_GT(e.value("latency_seconds", 0.0), 0.0);
    if (l["backend"] == "eigen" && l["precision"] == "fp32") {
      ++eigen_fp32;
      const double n = l["batch"].get<double>();
      const double ai = 2 * 256.0 * n * 256 / ((256.0 * 256 + 256 * n + 256 * n) * 4);
      EXPECT_NEAR(e["arithmetic_intensity"].get<double>(), ai, 1e-9);
    }
  }
  EXPECT_GE(eigen_fp32, 2);

  const json& placements = doc["roofline"]["placements"];
  ASSERT_FALSE(placements.empty());
  bool batch1 = false, batch64 = false;
  for (const json& p : placements) {
    EXPECT_GT(p["value"].get<double>(), 0.0);
    EXPECT_GT(p["ai"].get<double>(), 0.0);
    if (p["backend"] == "eigen" && p["precision"] == "fp32") {
      batch1 |= p["batch"] == 1;
      batch64 |= p["batch"] == 64;
    }
  }
  EXPECT_TRUE(batch1 && batch64) << placements.dump();
  EXPECT_FALSE(doc["roofline"]["crossovers"].empty());
  EXPECT_FALSE(doc["roofline"]["best_backends"].empty());
  const json& suite = doc["context"]["suites"]["gemm"];
  EXPECT_EQ(suite["m"], 256);
  EXPECT_TRUE(suite["backends"].contains("eigen"));
  EXPECT_FALSE(suite["groups"].empty());
}

}  // namespace roofline::testing
