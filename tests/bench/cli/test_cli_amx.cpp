// End-to-end: the matrix engine through the CLI. --max-isa amx is the top level (and on a machine without
// usable AMX the tile rows are "not supported" with the gate that said no); --max-isa avx512 runs no tile
// kernel and caps oneDNN below AMX, recorded; the recorded Emerald Rapids run re-derived warns on the
// terminal about its AMX points above their (vector) roof; an unknown engine in a results file is exit 2.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace roofline::testing {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kData = ROOFLINE_TEST_DATA_DIR;

TEST(CliAmx, MaxIsaAmxIsTheTopLevelAndTileRowsSayWhyTheyDidNotRun) {
  TempDir dir;
  const CliResult r = run_cli({"run", "--suites", "compute", "--threads", "1", "--max-isa", "amx", "--out",
                               (dir / "r.json").string(), "--no-report", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(read_file(dir / "r.json"));
  EXPECT_EQ(doc["context"]["max_isa"], "amx");
  const json& amx = doc["context"]["machine"]["amx"];
  ASSERT_TRUE(amx.contains("status")) << doc["context"]["machine"].dump();
  int tile_rows = 0;
  for (const json& row : doc["roofline"]["compute_table"]) {
    if (row["isa"] != "amx") continue;
    ++tile_rows;
    EXPECT_EQ(row["engine"], "matrix");
    if (amx["status"] != "usable") {
      EXPECT_EQ(row["status"], "not supported");
      EXPECT_NE(row["reason"].get<std::string>().find("AMX"), std::string::npos) << row.dump();
    }
  }
  EXPECT_EQ(tile_rows, 4);  // bf16, fp16, int8 s8 x s8, int8 u8 x s8
  if (amx["status"] != "usable") {
    const std::string line = doc["roofline"]["matrix_engine"]["lines"][0];
    EXPECT_NE(line.find("no matrix-unit roofs because AMX is " + amx["status"].get<std::string>()), std::string::npos)
        << line;
  }
}

TEST(CliAmx, MaxIsaAvx512CapsOnednnBelowAmx) {
  // (Which peak kernels the cap leaves is PeakDispatch.CapAtAvx512RunsNoTileKernel's.)
  TempDir dir;
  const CliResult r = run_cli({"run", "--suites", "gemm", "--threads", "1", "--max-isa", "avx512",
                               "--backends", "onednn", "--gemm-shape", "256,256", "--batches", "1,4", "--out",
                               (dir / "r.json").string(), "--no-report", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(read_file(dir / "r.json"));
  for (const json& e : doc["benchmarks"]) {
    if (e.contains("labels") && e["labels"].is_object()) {
      EXPECT_NE(e["labels"].value("isa", ""), "amx") << e["name"];
    }
  }
  for (const json& p : doc["roofline"]["placements"]) EXPECT_EQ(p["engine"], "vector") << p.dump();
  const json& onednn = doc["context"]["suites"]["gemm"]["backends"]["onednn"];
  if (onednn.is_null()) GTEST_SKIP() << "oneDNN not built";
  EXPECT_EQ(onednn["isa_cap"], "avx512_core_bf16 (--max-isa avx512)");
}

TEST(CliAmx, RecordedAmxRunRederivedWarnsAboutEachPointAboveItsRoof) {
  TempDir dir;
  const fs::path gz = kData / "golden" / "emr-2vcpu-amx_quick_a.json.gz";
  if (std::system(("gzip -dc '" + gz.string() + "' > '" + (dir / "emr.json").string() + "'").c_str()) != 0) {
    GTEST_SKIP() << "no gzip";
  }
  const CliResult r = run_cli({"report", (dir / "emr.json").string(), "--rederive", "--text"});
  ASSERT_EQ(r.exit_code, 0) << r.err;  // every number is what was measured: a warning, not a failure
  EXPECT_NE(r.err.find("roofline: WARNING: A point beats its roof: onednn bf16 batch 256 at 2 thread(s)"),
            std::string::npos) << r.err;
  EXPECT_NE(r.err.find("roofline: WARNING: A point beats its roof: onednn int8 batch 1024 at 2 thread(s)"),
            std::string::npos) << r.err;
  EXPECT_NE(r.out.find("summary  2 point(s) beat their roof: a ceiling is missing or a count is wrong"),
            std::string::npos);
  EXPECT_NE(r.out.find("no matrix-unit roofs because"), std::string::npos);
  EXPECT_NE(r.out.find("vector/L3 (no matrix roof)"), std::string::npos);
}

TEST(CliAmx, AnUnknownEngineIsExitTwoWithOneLine) {
  TempDir dir;
  fs::copy_file(kData / "report_bad_engine.json", dir / "r.json");
  const CliResult r = run_cli({"report", (dir / "r.json").string(), "--text"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(one_line(r.err)) << r.err;
  EXPECT_NE(r.err.find("engine 'gpu' is not an engine (vector, matrix)"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

}  // namespace
}  // namespace roofline::testing
