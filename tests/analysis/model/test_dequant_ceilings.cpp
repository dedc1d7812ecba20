// Dequant-dot ceilings (issue 38) from hand-made dequant_dot entries: the table (every row, with the fp32 FMA
// peak beside it; failed and not-supported rows said), the best row per format and thread count, the key
// figures, and a file without the entries left exactly as it was.
#include <gtest/gtest.h>

#include <string>

#include "roofline/model/dequant_ceilings.hpp"
#include "roofline/model/key_figures.hpp"
#include "roofline/model/results_targets.hpp"
#include "roofline/model/roofline_section.hpp"
#include "roofline/common/errors.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
using nlohmann::json;

std::string fmt_name(const std::string& format, const std::string& isa, const std::string& level, int threads) {
  return "compute/dequant_dot/" + format + "/" + isa + "/level:" + level + "/threads:" + std::to_string(threads);
}

json entry(const std::string& format, const std::string& isa, const std::string& level, int threads, double weights_per_second) {
  return {{"name", fmt_name(format, isa, level, threads)},
          {"run_name", fmt_name(format, isa, level, threads)},
          {"run_type", "iteration"},
          {"labels", {{"suite", "dequant_dot"}, {"kernel", "dequant_dot"}, {"format", format}, {"isa", isa}, {"level", level},
                      {"threads", threads}, {"block_weights", format == "q8_0" ? 32 : 256},
                      {"block_bytes", format == "q8_0" ? 34 : 210}, {"activations", format == "q8_0" ? "q8_0" : "q8_k"},
                      {"instruction", "vpdpbusd"}, {"vector_bits", 512}}},
          {"weights_per_second", weights_per_second},
          {"bytes_per_second", weights_per_second}};
}

json results_with_rows() {
  json unsupported = {{"format", "q8_0"}, {"isa", "avx_vnni"}, {"reason", "CPU lacks the feature"}};
  json doc;
  doc["context"]["suites"]["compute"]["dequant_dot"]["not_supported"] = json::array({unsupported});
  doc["benchmarks"] = json::array();
  for (const double v : {1.0e10, 1.2e10}) doc["benchmarks"].push_back(entry("q8_0", "avx512_vnni", "L1", 1, v));
  doc["benchmarks"].push_back(entry("q8_0", "avx2", "L1", 1, 0.8e10));
  doc["benchmarks"].push_back(entry("q8_0", "avx512_vnni", "L2", 1, 1.1e10));
  doc["benchmarks"].push_back(entry("q6_k", "avx512", "L1", 2, 2.0e10));
  json failed = entry("q6_k", "scalar", "L1", 2, 0.0);
  failed["error_occurred"] = true;
  failed["error_message"] = "q6_k dot of row 3 column 0: wrong";
  doc["benchmarks"].push_back(failed);
  return doc;
}

TEST(DequantCeilings, BestRowPerFormatAndThreadsWithTheFmaPeakBeside) {
  const json doc = results_with_rows();
  const ResultsDocument typed_doc = read_records(doc, "test.json", ReadMode::lenient, false);
  const std::vector<RecordedTarget> targets = recorded_targets(typed_doc);
  const json section = {{"compute_ceilings", json::array({{{"precision", "fp32"}, {"engine", "vector"}, {"threads", 1}, {"value", 1.0e11}}})}};
  const json d = to_json(derive_dequant_ceilings(target_document(typed_doc, kCpuTargetId), targets.front(),
                                                 read_roofline_section(section, "test")));
  ASSERT_EQ(d["dequant_ceilings"].size(), 2u);
  const json& q8 = d["dequant_ceilings"][0];
  EXPECT_EQ(q8["format"], "q8_0");
  EXPECT_EQ(q8["threads"], 1);
  EXPECT_EQ(q8["isa"], "avx512_vnni");
  EXPECT_EQ(q8["level"], "L1");
  EXPECT_DOUBLE_EQ(q8["value"].get<double>(), 1.2e10);  // the best repetition
  EXPECT_DOUBLE_EQ(q8["flop_per_second"].get<double>(), 2.4e10);
  EXPECT_DOUBLE_EQ(q8["bits_per_weight"].get<double>(), 8.5);
  EXPECT_EQ(d["dequant_ceilings"][1]["format"], "q6_k");
  // Rows: q8_0 avx2 / avx_vnni (not supported at the run's thread counts) / avx512_vnni L1, L2; q6_k scalar failed.
  int measured = 0, unsupported = 0, failed = 0;
  for (const json& r : d["dequant_table"]) {
    const std::string s = r["status"];
    measured += s == "measured";
    unsupported += s == "not supported";
    failed += s == "failed";
    if (r["format"] == "q8_0" && r["isa"] == "avx512_vnni" && r["level"] == "L1") {
      EXPECT_DOUBLE_EQ(r["fp32_fma_peak"].get<double>(), 1.0e11);
      EXPECT_DOUBLE_EQ(r["percent_of_fp32_peak"].get<double>(), 24.0);
      EXPECT_DOUBLE_EQ(r["median"].get<double>(), 1.1e10);
    }
    if (s == "failed") {
      EXPECT_NE(r["reason"].get<std::string>().find("row 3"), std::string::npos);
    }
  }
  EXPECT_EQ(measured, 4);
  EXPECT_EQ(unsupported, 2);  // one row, at each of the thread counts 1 and 2
  EXPECT_EQ(failed, 1);
  const std::vector<DequantCeilingRecord> ceilings = read_roofline_section(d, "test").dequant_ceilings.value();
  EXPECT_EQ(dequant_roof(ceilings, "q6_k", 2), &ceilings[1]);
  EXPECT_EQ(dequant_roof(ceilings, "q6_k", 1), nullptr);
}

TEST(DequantCeilings, KeyFiguresAndTheDerivedSection) {
  json doc = results_with_rows();
  // A quantized GEMV, placed on its format's dequant roof; no DRAM ceiling here, so no attainable (null).
  doc["benchmarks"].push_back({{"name", "compute/dequant_gemv/q8_0/batch:1"}, {"run_type", "iteration"},
                               {"flop_per_second", 1.0e10}, {"arithmetic_intensity", 1.9}, {"weights_per_second", 5.0e9},
                               {"labels", {{"suite", "dequant_gemv"}, {"format", "q8_0"}, {"isa", "avx512_vnni"},
                                           {"threads", 1}, {"batch", 1}, {"m", 4096}, {"k", 4096}}}});
  doc["roofline"] = testing::derived_section(doc);
  ASSERT_TRUE(doc["roofline"].contains("dequant_ceilings"));
  std::vector<std::string> ids;
  for (const KeyFigure& f : key_figures(testing::lenient(doc))) {
    if (f.group == "dequant") {
      ids.push_back(f.id);
      EXPECT_EQ(f.unit, "weights/s");
    }
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"dequant/q8_0/threads:1", "dequant/q6_k/threads:2"}));
  // The table is typed (issue 61, step 3): read into its records, written back to the same text.
  const ResultsDocument typed_doc = testing::lenient(doc);
  ASSERT_TRUE(typed_doc.roofline->dequant_ceilings.has_value());
  EXPECT_FALSE(typed_doc.roofline->extra.contains("dequant_ceilings"));
  EXPECT_EQ(typed_doc.roofline->dequant_ceilings->size(), 2u);
  ASSERT_TRUE(typed_doc.roofline->dequant_table.has_value());  // and every row of the table (DequantRowRecord)
  EXPECT_FALSE(typed_doc.roofline->extra.contains("dequant_table"));
  EXPECT_EQ(typed_doc.roofline->dequant_table->size(), doc["roofline"]["dequant_table"].size());
  ASSERT_TRUE(typed_doc.roofline->dequant_placements.has_value());  // and the GEMVs (DequantPlacementRecord)
  EXPECT_FALSE(typed_doc.roofline->extra.contains("dequant_placements"));
  ASSERT_EQ(typed_doc.roofline->dequant_placements->size(), 1u);
  const DequantPlacementRecord& gemv = typed_doc.roofline->dequant_placements->front();
  ASSERT_TRUE(gemv.roof && gemv.roof->dequant && !gemv.roof->memory);
  EXPECT_DOUBLE_EQ(gemv.roof->dequant->value.value_or(0.0), 2.4e10);  // the q8_0 ceiling x 2 FLOP per weight
  EXPECT_TRUE(gemv.extra.contains("attainable") && gemv.extra["attainable"].is_null());
  EXPECT_EQ(to_json(*typed_doc.roofline).dump(), doc["roofline"].dump());
  // What the lenient reader cannot type is bad input to the key figures, never a figure quietly missing.
  json bad = doc;
  bad["roofline"]["dequant_ceilings"][0]["value"] = "fast";
  EXPECT_THROW(key_figures(testing::lenient(bad)), InputError);
  bad = doc;
  bad["roofline"]["dequant_ceilings"][0]["format"] = 8;
  EXPECT_THROW(key_figures(testing::lenient(bad)), InputError);
  bad = doc;
  bad["roofline"]["dequant_ceilings"][1] = "q6_k";
  EXPECT_THROW(key_figures(testing::lenient(bad)), InputError);
  bad = doc;
  bad["roofline"]["dequant_ceilings"] = json::object();
  EXPECT_THROW(key_figures(testing::lenient(bad)), InputError);
}

TEST(DequantCeilings, AFileWithoutTheRowsKeepsItsSection) {
  const json doc = {{"context", json::object()}, {"benchmarks", json::array()}};
  const ResultsDocument typed_doc = read_records(doc, "test.json", ReadMode::lenient, false);
  const std::vector<RecordedTarget> targets = recorded_targets(typed_doc);
  EXPECT_TRUE(
      to_json(derive_dequant_ceilings(target_document(typed_doc, kCpuTargetId), targets.front(), RooflineSection{})).empty());
  EXPECT_FALSE(testing::derived_section(doc).contains("dequant_table"));
}

}  // namespace
}  // namespace roofline
