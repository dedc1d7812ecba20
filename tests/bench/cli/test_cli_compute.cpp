// End-to-end: the compute suite through `roofline run`: --max-isa caps which kernels run (and the rest
// are "not supported" rows), a bogus cap is exit 2, and no measured ceiling exceeds its theoretical peak
// by more than 10% (the counting-bug detector) on this machine; the quick profile's dequant rows are all there.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace roofline::testing {
namespace {
using nlohmann::json;

json run_compute(const TempDir& dir, const std::vector<std::string>& extra, const std::vector<std::string>& env = {}) {
  std::vector<std::string> args = {"run", "--suites", "compute", "--threads", "1", "--out",
                                   (dir / "r.json").string(), "--no-report", "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  const CliResult r = run_cli(args, env);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(read_file(dir / "r.json"));
}

std::set<std::string> measured_isas(const json& doc) {
  std::set<std::string> out;
  for (const json& e : doc["benchmarks"]) {
    if (e.contains("labels") && e["labels"].value("suite", "") == "compute") out.insert(e["labels"].value("isa", ""));
  }
  return out;
}

TEST(CliCompute, MaxIsaAvx2RunsNoAvx512AndSaysNotSupported) {
  TempDir dir;
  const json doc = run_compute(dir, {"--max-isa", "avx2"});
  const auto isas = measured_isas(doc);
  EXPECT_FALSE(isas.empty());
  EXPECT_EQ(isas.count("avx512"), 0u);
  EXPECT_EQ(doc["context"]["max_isa"], "avx2");
  bool clock = false;
  for (const json& e : doc["benchmarks"]) clock = clock || (e.contains("clock_hz") && e["clock_hz"].get<double>() > 0);
  EXPECT_TRUE(clock);
  int unsupported_512 = 0;
  for (const json& row : doc["roofline"]["compute_table"]) {
    if (row["isa"] == "avx512") {
      EXPECT_EQ(row["status"], "not supported") << row.dump();
      EXPECT_TRUE(row["value"].is_null());
      ++unsupported_512;
    }
  }
  EXPECT_GE(unsupported_512, 2);  // at least fp64 and fp32 at 512 bits
  EXPECT_FALSE(doc["roofline"]["compute_ceilings"].empty());
}

TEST(CliCompute, EnvironmentCapAtSseUsesMulAdd) {
  TempDir dir;
  const json doc = run_compute(dir, {}, {"ROOFLINE_MAX_ISA=sse"});
  EXPECT_EQ(measured_isas(doc), (std::set<std::string>{"scalar", "sse"}));
  for (const json& e : doc["benchmarks"]) {
    if (e.contains("labels") && e["labels"].value("suite", "") == "compute") {
      EXPECT_EQ(e["labels"]["kernel"], "muladd");
    }
  }
}

TEST(CliCompute, BogusMaxIsaIsExit2) {
  TempDir dir;
  const CliResult r = run_cli({"run", "--suites", "compute", "--max-isa", "bogus", "--out", (dir / "r.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--max-isa"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "r.json"));
}

TEST(CliCompute, NoCeilingAboveItsTheoreticalPeakAndEveryRowPresent) {
  TempDir dir;
  const json doc = run_compute(dir, {});
  const json& isa = doc["context"]["machine"]["isa"];
  std::set<std::string> rows;
  for (const json& row : doc["roofline"]["compute_table"]) {
    rows.insert(row["precision"].get<std::string>() + "/" + row["isa"].get<std::string>() + "/" +
                std::to_string(row["vector_bits"].get<int>()));
    // Only fully pipelined instructions (>= 1 per cycle) have a whole pipe count to check against; slow
    // multi-uop ones (vdpbf16ps on Sapphire/Emerald Rapids: ~0.2-0.5 per cycle, erratic in a VM) do not.
    if (row["status"] != "measured" || !row["pipes"].is_number() || row["pipes"].get<double>() < 1.0) continue;
    EXPECT_FALSE(row["exceeds_theoretical"].get<bool>()) << row.dump();
    if (row["percent"].is_number()) {
      EXPECT_LE(row["percent"].get<double>(), 110.0) << row.dump();
    }
  }
  // Every precision x width appears, measured or "not supported".
  for (const char* r : {"fp64/scalar/64", "fp64/avx512/512", "fp32/sse/128", "bf16/avx512/256", "fp16/avx512/512",
                        "int8/avx512/128", "int8/avx_vnni/256"}) {
    EXPECT_TRUE(rows.count(r)) << r;
  }
  // The quick profile's dequant rows (issue 48): every format's best kernel in L1 and in L2, and its GEMV over
  // weights in DRAM at batch 1 at the largest thread count, each validated.
  std::set<std::string> dequant;
  for (const json& e : doc["benchmarks"]) {
    if (!e.contains("labels") || e.value("run_type", "") != "iteration") continue;
    const json& l = e["labels"];
    const std::string suite = l.value("suite", "");
    if (suite != "dequant_dot" && suite != "dequant_gemv") continue;
    EXPECT_FALSE(e.value("error_occurred", false)) << e.dump();
    dequant.insert(suite + "/" + l.value("format", "") + "/" + l.value("level", "DRAM") + "/" + std::to_string(l.value("threads", 0)));
  }
  for (const char* f : {"q8_0", "q4_0", "q4_k", "q5_k", "q6_k", "int4"}) {
    for (const std::string& where : {"dequant_dot/" + std::string(f) + "/L1/1", "dequant_dot/" + std::string(f) + "/L2/1",
                                    "dequant_gemv/" + std::string(f) + "/DRAM/1"}) {
      EXPECT_TRUE(dequant.count(where)) << where;
    }
  }
  if (isa.value("avx512_bf16", false)) {
    for (const json& row : doc["roofline"]["compute_table"]) {
      if (row["precision"] == "bf16" && row["isa"] == "avx512") {
        EXPECT_EQ(row["status"], "measured") << row.dump();
      }
    }
  }
}

}  // namespace
}  // namespace roofline::testing
