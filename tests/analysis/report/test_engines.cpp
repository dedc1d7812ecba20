// The engine dimension and the roof invariant: compute ceilings per precision and engine (AMX tile rows with
// their architectural theoretical peak), placement against the engine that ran and the level the operands
// fit, the 110% invariant, bad engines refused; and the recorded Emerald Rapids run (oneDNN ran AMX, the
// file has no AMX ceilings) re-derived: its AMX points beat their vector roof and say why; given matrix
// ceilings they land under them.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "roofline/model/compute_ceilings.hpp"
#include "roofline/model/placement.hpp"
#include "roofline/report/report_tables.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/roofline_section.hpp"
#include "roofline/common/errors.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

json compute_entry(const std::string& precision, const std::string& isa, const std::string& kernel, int threads,
                   int opi, double value, double clock, int opc = 0) {
  json labels = {{"suite", "compute"}, {"kernel", kernel}, {"precision", precision}, {"isa", isa},
                 {"vector_bits", isa == "amx" ? 8192 : 512}, {"threads", threads}, {"ops_per_instruction", opi},
                 {"variant", kernel + "_" + precision + "_" + isa}};
  if (isa == "amx") {
    labels["engine"] = "matrix";
    labels["ops_per_cycle_per_core"] = opc;
  }
  json e = {{"name", "compute/x"}, {"run_type", "iteration"}, {"labels", labels}, {"clock_hz", clock}};
  e[precision == "int8" ? "op_per_second" : "flop_per_second"] = value;
  return e;
}

// bf16 on AVX-512 (2 pipes of vdpbf16ps zmm would be 128 FLOP/cycle: 100 GFLOP/s measured) and on AMX at 2 GHz
// (1024 FLOP/cycle: 2.048 TFLOP/s theoretical, 1.8 measured).
json engines_results() {
  json b = json::array();
  b.push_back(compute_entry("bf16", "avx512", "dot", 1, 64, 100e9, 2e9));
  b.push_back(compute_entry("bf16", "amx", "tile", 1, 16384, 1.8e12, 2e9, 1024));
  return {{"context", {{"schema_version", 1}, {"threads", {1}}, {"machine", {{"amx", {{"status", "usable"}}}}}}},
          {"benchmarks", b}};
}

TEST(Engines, CeilingsPerPrecisionAndEngineWithTheTileTheoretical) {
  const json out = testing::derived_compute(engines_results());
  ASSERT_EQ(out["compute_ceilings"].size(), 2u);
  const RooflineSection section = read_roofline_section(json{{"compute_ceilings", out["compute_ceilings"]}}, "test.json");
  const ComputeCeilingRecord* vec = compute_roof(section, "bf16", 1, "vector");
  const ComputeCeilingRecord* mat = compute_roof(section, "bf16", 1, "matrix");
  ASSERT_NE(vec, nullptr);
  ASSERT_NE(mat, nullptr);
  EXPECT_EQ(mat->isa.value_or(""), "amx");
  EXPECT_DOUBLE_EQ(mat->value.value_or(0.0), 1.8e12);
  EXPECT_DOUBLE_EQ(mat->theoretical.value_or(0.0), 2e9 * 1024);  // threads x clock x 1024 FLOP/cycle
  EXPECT_DOUBLE_EQ(mat->ops_per_cycle_per_core.value_or(0.0), 1024.0);
  EXPECT_EQ(compute_roof(section, "bf16", 1), mat);  // either engine: the best
  bool peak = false;
  for (const json& p : out["theoretical_peaks"]) {
    peak = peak || (p["engine"] == "matrix" && p["source"].get<std::string>().find("AMX") != std::string::npos);
  }
  EXPECT_TRUE(peak);
  const json& m = out["matrix_engine"];
  EXPECT_TRUE(m["roofs"].get<bool>());
  ASSERT_EQ(m["ratios"].size(), 1u);
  EXPECT_DOUBLE_EQ(m["ratios"][0]["ratio"].get<double>(), 18.0);
  EXPECT_NE(m["lines"][0].get<std::string>().find("18.0x the avx512 ceiling"), std::string::npos) << m.dump();
  // Typed (MatrixEngineRecord, issue 61): read back, nothing left in `extra`, written to the same text.
  const RooflineSection typed = read_roofline_section(out, "test.json");
  ASSERT_TRUE(typed.matrix_engine && typed.matrix_engine->ratios);
  EXPECT_FALSE(typed.extra.contains("matrix_engine"));
  EXPECT_DOUBLE_EQ(typed.matrix_engine->ratios->front().ratio.value_or(0.0), 18.0);
  EXPECT_EQ(to_json(typed).dump(), out.dump());
}

TEST(Engines, OlderRowsAreVectorAndAnUnknownEngineIsRefused) {
  json r = engines_results();
  r["benchmarks"][0]["labels"].erase("engine");  // an AVX-512 row from before engines
  const json out = testing::derived_compute(r);
  for (const json& c : out["compute_ceilings"]) EXPECT_EQ(c["engine"], c["isa"] == "amx" ? "matrix" : "vector");
  r["benchmarks"][1]["labels"]["engine"] = "systolic";
  EXPECT_THROW(testing::derived_compute(r), InputError);
  const RooflineSection mistyped =
      read_roofline_section(json{{"compute_ceilings", {{{"precision", "bf16"}, {"threads", 1}, {"engine", 7}}}}}, "test.json");
  EXPECT_THROW(compute_roof(mistyped, "bf16", 1, "vector"), InputError);
}

TEST(Engines, NoMatrixRoofsSaysWhy) {
  json r = engines_results();
  r["benchmarks"].erase(1);
  r["context"]["machine"]["amx"] = {{"status", "permission refused"}, {"source", "arch_prctl(ARCH_REQ_XCOMP_PERM)"}};
  const json m = testing::derived_compute(r)["matrix_engine"];
  EXPECT_FALSE(m["roofs"].get<bool>());
  EXPECT_NE(m["lines"][0].get<std::string>().find("no matrix-unit roofs because AMX is permission refused"),
            std::string::npos) << m.dump();
  r["context"]["machine"]["amx"]["status"] = "usable";
  r["context"]["max_isa"] = "avx512";
  EXPECT_NE(testing::derived_compute(r)["matrix_engine"]["lines"][0].get<std::string>().find("--max-isa avx512"),
            std::string::npos);
}

json gemm_entry(const std::string& implementation, double value, double ai) {
  json labels = {{"suite", "gemm"}, {"backend", "onednn"}, {"precision", "bf16"}, {"batch", 256}, {"threads", 1},
                 {"m", 8192}, {"k", 8192}, {"a_bytes", 2}, {"b_bytes", 2}, {"c_bytes", 4},
                 {"implementation", implementation}};
  return {{"name", "gemm/x"}, {"run_type", "iteration"}, {"labels", labels}, {"flop_per_second", value},
          {"arithmetic_intensity", ai}};
}

json section_with(bool matrix) {
  json s = {{"compute_ceilings", {{{"precision", "bf16"}, {"threads", 1}, {"value", 100e9}, {"engine", "vector"}}}},
            {"memory_ceilings", {{{"level", "DRAM"}, {"kernel", "read"}, {"threads", 1}, {"value", 20e9}}}}};
  if (matrix) s["compute_ceilings"].push_back({{"precision", "bf16"}, {"threads", 1}, {"value", 1.8e12}, {"engine", "matrix"}});
  return s;
}

TEST(Engines, PlacedAgainstTheEngineThatRan) {
  json doc = {{"context", json::object()}, {"benchmarks", {gemm_entry("brg:avx512_core_amx_bf16", 900e9, 234)}}};
  const json with = testing::derived_placements(doc, section_with(true));
  const json& p = with["placements"][0];
  EXPECT_EQ(p["engine"], "matrix");
  EXPECT_EQ(p["roof"], (json{{"engine", "matrix"}, {"level", "DRAM"}}));
  EXPECT_DOUBLE_EQ(p["attainable"].get<double>(), 1.8e12);
  EXPECT_FALSE(p["beats_roof"].get<bool>());
  EXPECT_TRUE(with["roof_violations"].empty());
  // The same point on oneDNN's AVX-512 kernel is a vector point.
  doc["benchmarks"][0] = gemm_entry("brg:avx512_core_bf16", 90e9, 234);
  EXPECT_EQ(testing::derived_placements(doc, section_with(true))["placements"][0]["roof"]["engine"], "vector");
}

TEST(Engines, AMatrixPointWithoutAMatrixRoofBeatsTheVectorRoofLoudly) {
  const json doc = {{"context", json::object()}, {"benchmarks", {gemm_entry("brg:avx512_core_amx_bf16", 900e9, 234)}}};
  const json out = testing::derived_placements(doc, section_with(false));
  const json& p = out["placements"][0];
  EXPECT_EQ(p["roof"]["engine"], "vector");
  EXPECT_EQ(p["roof"]["engine_missing"], "matrix");
  EXPECT_TRUE(p["beats_roof"].get<bool>());
  ASSERT_EQ(out["roof_violations"].size(), 1u);
  const std::string note = out["roof_violations"][0]["note"];
  EXPECT_NE(note.find("A point beats its roof: onednn bf16 batch 256 at 1 thread(s)"), std::string::npos) << note;
  EXPECT_NE(note.find("900% of its attainable"), std::string::npos) << note;
  EXPECT_NE(note.find("matrix-engine ceiling is missing"), std::string::npos) << note;
  // The violation is a typed row (issue 61), its roof a placement's roof.
  const RooflineSection typed = read_roofline_section(out, "test.json");
  ASSERT_TRUE(typed.roof_violations && typed.roof_violations->size() == 1u);
  const RoofViolationRecord& v = typed.roof_violations->front();
  EXPECT_EQ(v.note, note);
  ASSERT_TRUE(v.roof.has_value());
  EXPECT_EQ(v.roof->engine, "vector");
  EXPECT_EQ(v.roof->engine_missing, "matrix");
  EXPECT_EQ(v.batch, 256);
}

TEST(Engines, TheInvariantAllowsTenPercent) {
  json doc = {{"context", json::object()}, {"benchmarks", {gemm_entry("brg:avx512_core_bf16", 109e9, 234)}}};
  EXPECT_TRUE(testing::derived_placements(doc, section_with(false))["roof_violations"].empty());
  doc["benchmarks"][0] = gemm_entry("brg:avx512_core_bf16", 111e9, 234);
  const json out = testing::derived_placements(doc, section_with(false));
  ASSERT_EQ(out["roof_violations"].size(), 1u);
  EXPECT_NE(out["roof_violations"][0]["note"].get<std::string>().find("a ceiling is missing or a count is wrong"),
            std::string::npos);
}

TEST(Engines, ResultsWithAnUnknownEngineOrRoofAreRefused) {
  const fs::path name = "r.json";
  json doc = {{"context", {{"schema_version", 1}}},
              {"benchmarks", json::array()},
              {"roofline", {{"schema_version", 1}, {"compute_ceilings", json::array()}, {"memory_ceilings", json::array()},
                            {"ridge_points", json::array()}, {"placements", json::array()}}}};
  EXPECT_EQ(classify_results(doc, name), ResultsKind::roofline);
  // Older: no roof, read as vector/DRAM.
  doc["roofline"]["placements"].push_back(
      {{"backend", "onednn"}, {"precision", "bf16"}, {"batch", 1}, {"threads", 1}, {"value", 1e9}});
  EXPECT_NO_THROW(classify_results(doc, name));
  doc["roofline"]["compute_ceilings"].push_back({{"precision", "bf16"}, {"threads", 1}, {"value", 1e9}, {"engine", "gpu"}});
  EXPECT_THROW(classify_results(doc, name), InputError);
  doc["roofline"]["compute_ceilings"][0]["engine"] = "matrix";
  EXPECT_NO_THROW(classify_results(doc, name));
  doc["roofline"]["placements"][0]["roof"] = {{"engine", "matrix"}, {"level", "L4"}};
  try {
    classify_results(doc, name);
    ADD_FAILURE() << "a roof at level L4 was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("roof.level 'L4' is not a memory level"), std::string::npos) << e.what();
  }
  doc["roofline"]["placements"][0]["roof"] = {{"engine", "tensor"}, {"level", "L3"}};
  EXPECT_THROW(classify_results(doc, name), InputError);
  doc["roofline"]["placements"][0]["roof"] = "vector";
  EXPECT_THROW(classify_results(doc, name), InputError);
}

// The recorded run, decompressed once per test binary.
const json& recorded_emr() {
  static const json doc = [] {
    const fs::path gz = fs::path(ROOFLINE_TEST_DATA_DIR) / "golden" / "emr-2vcpu-amx_quick_a.json.gz";
    const fs::path out = fs::temp_directory_path() / ("roofline-test-emr-" + std::to_string(::getpid()) + ".json");
    if (std::system(("gzip -dc '" + gz.string() + "' > '" + out.string() + "'").c_str()) != 0) return json();
    json d = load_results(out);
    fs::remove(out);
    return d;
  }();
  return doc;
}

TEST(RecordedAmxRun, AmxPointsBeatTheirVectorRoofAndSayWhy) {
  json doc = recorded_emr();
  if (doc.is_null()) GTEST_SKIP() << "no gzip";
  doc["roofline"] = testing::derived_section(doc);
  const json& r = doc["roofline"];
  EXPECT_FALSE(r["matrix_engine"]["roofs"].get<bool>());
  EXPECT_NE(r["matrix_engine"]["lines"][0].get<std::string>().find(
                "no matrix-unit roofs because this file was measured by a version without AMX tile kernels"),
            std::string::npos) << r["matrix_engine"].dump();
  int amx_points = 0;
  for (const json& p : r["placements"]) {
    const bool amx = p["implementation"].get<std::string>().find("amx") != std::string::npos;
    EXPECT_EQ(p["engine"], amx ? "matrix" : "vector") << p.dump();
    if (!amx) continue;
    ++amx_points;
    EXPECT_EQ(p["roof"]["engine"], "vector");
    EXPECT_EQ(p["roof"]["engine_missing"], "matrix");
  }
  EXPECT_EQ(amx_points, 4);  // bf16 and int8 at batch 1 and at the largest batch
  // The violations are exactly the compute-bound AMX points: bf16 batch 256 (about 530%) and int8 batch 1024.
  ASSERT_EQ(r["roof_violations"].size(), 2u) << r["roof_violations"].dump();
  for (const json& v : r["roof_violations"]) {
    EXPECT_EQ(v["roof"]["engine_missing"], "matrix");
    EXPECT_TRUE((v["precision"] == "bf16" && v["batch"] == 256) || (v["precision"] == "int8" && v["batch"] == 1024))
        << v.dump();
  }
  // The batch-1 int8 point (64 MiB of weights, inside the L3 range measured) is under its L3 roof.
  for (const json& p : r["placements"]) {
    if (p["precision"] == "int8" && p["batch"] == 1) {
      EXPECT_EQ(p["roof"]["level"], "L3");
      EXPECT_LE(p["efficiency"].get<double>(), 1.10);
    }
  }
  const ReportTable t = roof_violations_table(testing::typed(doc));
  EXPECT_EQ(t.title, "A point beats its roof: a ceiling is missing or a count is wrong");
  EXPECT_EQ(t.rows.size(), 2u);
}

TEST(RecordedAmxRun, WithMatrixCeilingsTheAmxPointsLandUnderThem) {
  json doc = recorded_emr();
  if (doc.is_null()) GTEST_SKIP() << "no gzip";
  // What the bare AMX loop measured on that machine at 2 threads (3.6 TFLOP/s bf16, 7.6 TOP/s int8),
  // as the tile kernels would record it, at the clock the run measured.
  for (const int t : {1, 2}) {
    doc["benchmarks"].push_back(compute_entry("bf16", "amx", "tile", t, 16384, t == 1 ? 2.3e12 : 3.6e12, 2.9e9, 1024));
    doc["benchmarks"].push_back(compute_entry("int8", "amx", "tile", t, 32768, t == 1 ? 4.5e12 : 7.6e12, 2.9e9, 2048));
  }
  doc["roofline"] = testing::derived_section(doc);
  const json& r = doc["roofline"];
  EXPECT_TRUE(r["matrix_engine"]["roofs"].get<bool>());
  EXPECT_TRUE(r["roof_violations"].empty()) << r["roof_violations"].dump();
  for (const json& p : r["placements"]) {
    if (p["implementation"].get<std::string>().find("amx") == std::string::npos) continue;
    EXPECT_EQ(p["roof"]["engine"], "matrix") << p.dump();
    EXPECT_FALSE(p["roof"].contains("engine_missing"));
    EXPECT_LE(p["efficiency"].get<double>(), 1.10) << p.dump();
  }
  bool ratio = false;
  for (const json& line : r["matrix_engine"]["lines"]) {
    ratio = ratio || line.get<std::string>().find("bf16 at 2 thread(s): AMX 3.60 TFLOP/s is 20.9x the avx512") != std::string::npos;
  }
  EXPECT_TRUE(ratio) << r["matrix_engine"].dump();
}

}  // namespace
}  // namespace roofline
