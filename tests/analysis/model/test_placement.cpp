// Placement of GEMV/GEMM points on synthetic ceilings: memory-bound below the ridge, compute-bound above,
// efficiency, the per-level roofs, the predicted crossover batch beside the measured knee, the best
// backend per batch, and what happens when ceilings or measurements are missing.
#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "roofline/model/placement.hpp"
#include "roofline/model/roofline_section.hpp"
#include "support/notes.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
using nlohmann::json;

constexpr double kPeak = 100e9;   // FLOP/s, fp32, 2 threads
constexpr double kDram = 10e9;    // B/s: ridge at AI 10
constexpr double kL2 = 100e9;     // B/s: ridge at AI 1
constexpr double kM = 1000, kK = 1000;

double ai_fp32(double n) { return 2 * kM * n * kK / ((kM * kK + kK * n + kM * n) * 4); }

json section(bool with_compute = true) {
  json s = {{"compute_ceilings", json::array()}, {"memory_ceilings", json::array()}};
  if (with_compute) {
    s["compute_ceilings"].push_back({{"precision", "fp32"}, {"threads", 2}, {"value", kPeak}});
    s["compute_ceilings"].push_back({{"precision", "int8"}, {"threads", 2}, {"value", 4 * kPeak}});
  }
  s["memory_ceilings"].push_back({{"level", "DRAM"}, {"kernel", "read"}, {"threads", 2}, {"value", kDram}});
  s["memory_ceilings"].push_back({{"level", "DRAM"}, {"kernel", "triad"}, {"threads", 2}, {"value", 2 * kDram}});
  s["memory_ceilings"].push_back({{"level", "L2"}, {"kernel", "read"}, {"threads", 2}, {"value", kL2}});
  return s;
}

json entry(const std::string& backend, const std::string& precision, double n, double value, double ai,
           bool failed = false) {
  json labels = {{"suite", "gemm"}, {"kernel", n == 1 ? "gemv" : "gemm"}, {"backend", backend},
                 {"precision", precision}, {"batch", n}, {"threads", 2}, {"m", kM}, {"n", n}, {"k", kK},
                 {"a_bytes", precision == "int8" ? 1 : 4}, {"b_bytes", precision == "int8" ? 1 : 4}, {"c_bytes", 4},
                 {"implementation", "test"}};
  json e = {{"name", "gemm/" + backend + "/" + precision + "/batch:" + std::to_string(int(n))},
            {"run_type", "iteration"},
            {"labels", labels},
            {"arithmetic_intensity", ai},
            {"latency_seconds", 2 * kM * n * kK / value}};
  e[precision == "int8" ? "op_per_second" : "flop_per_second"] = value;
  if (failed) {
    e["error_occurred"] = true;
    e["error_message"] = "wrong product";
  }
  return e;
}

// eigen fp32 at 80% of the roof at every batch 1..64.
json results() {
  json doc = {{"context", json::object()}, {"benchmarks", json::array()}};
  for (double n = 1; n <= 64; n *= 2) {
    const double ai = ai_fp32(n);
    doc["benchmarks"].push_back(entry("eigen", "fp32", n, 0.8 * std::min(kPeak, kDram * ai), ai));
  }
  return doc;
}

const json& find(const json& placements, const std::string& backend, double batch) {
  for (const json& p : placements) {
    if (p["backend"] == backend && p["batch"].get<double>() == batch) return p;
  }
  static const json none;
  ADD_FAILURE() << "no placement " << backend << " batch " << batch;
  return none;
}

TEST(Placement, MemoryBoundBelowTheRidgeComputeBoundAbove) {
  const json out = testing::derived_placements(results(), section());
  ASSERT_EQ(out["placements"].size(), 7u);
  for (const json& p : out["placements"]) {
    const double ai = p["ai"].get<double>();
    EXPECT_EQ(p["bound"], ai < 10.0 ? "memory" : "compute") << p.dump();
    EXPECT_NEAR(p["attainable"].get<double>(), std::min(kPeak, kDram * ai), 1.0);
    EXPECT_NEAR(p["efficiency"].get<double>(), 0.8, 1e-12);
    EXPECT_EQ(p["unit"], "FLOP/s");
    EXPECT_DOUBLE_EQ(p["ridge_ai"].get<double>(), 10.0);
    EXPECT_DOUBLE_EQ(p["memory_ceiling"].get<double>(), kDram);  // the read kernel is the roof, not triad
  }
  EXPECT_EQ(find(out["placements"], "eigen", 1)["kernel"], "gemv");
  EXPECT_EQ(find(out["placements"], "eigen", 1)["bound"], "memory");
  EXPECT_EQ(find(out["placements"], "eigen", 64)["bound"], "compute");
}

TEST(Placement, EveryLevelsRoofIsEvaluated) {
  const json out = testing::derived_placements(results(), section());
  const json& p = find(out["placements"], "eigen", 1);  // AI ~0.5: memory-bound against L2 (ridge 1) too
  ASSERT_EQ(p["roofs"].size(), 2u);
  const json& l2 = p["roofs"][0];
  EXPECT_EQ(l2["level"], "L2");
  EXPECT_NEAR(l2["attainable"].get<double>(), kL2 * ai_fp32(1), 1.0);
  EXPECT_EQ(l2["bound"], "memory");
  const json& p8 = find(out["placements"], "eigen", 8);  // AI ~3.9: compute-bound against L2
  EXPECT_EQ(p8["roofs"][0]["bound"], "compute");
  EXPECT_EQ(p8["roofs"][1]["bound"], "memory");
}

TEST(Placement, ValueIsTheMedianOfTheRepetitions) {
  json doc = {{"benchmarks", json::array()}};
  const double ai = ai_fp32(1);
  for (double v : {1e9, 3e9, 2e9}) doc["benchmarks"].push_back(entry("eigen", "fp32", 1, v, ai));
  const json out = testing::derived_placements(doc, section());
  ASSERT_EQ(out["placements"].size(), 1u);
  EXPECT_DOUBLE_EQ(out["placements"][0]["value"].get<double>(), 2e9);
  EXPECT_DOUBLE_EQ(out["placements"][0]["value_max"].get<double>(), 3e9);
  EXPECT_EQ(out["placements"][0]["repetitions"], 3);
}

TEST(Placement, CrossoverBatchSolvesTheIntensityFormula) {
  const double n = crossover_batch(kM, kK, 4, 4, 4, 10.0);
  EXPECT_NEAR(n, 10.0 * kM * kK * 4 / (2 * kM * kK - 10.0 * (kK * 4 + kM * 4)), 1e-9);
  EXPECT_NEAR(ai_fp32(n), 10.0, 1e-9);
  // A ridge above the intensity's limit 2MK / (4K + 4M) = 250 is never reached.
  EXPECT_LT(crossover_batch(kM, kK, 4, 4, 4, 300.0), 0.0);
}

TEST(Placement, PredictedCrossoverBesideMeasuredKnee) {
  const json out = testing::derived_placements(results(), section());
  ASSERT_EQ(out["crossovers"].size(), 1u);
  const json& c = out["crossovers"][0];
  EXPECT_DOUBLE_EQ(c["ridge_ai"].get<double>(), 10.0);
  EXPECT_NEAR(c["predicted_batch"].get<double>(), crossover_batch(kM, kK, 4, 4, 4, 10.0), 1e-9);
  EXPECT_EQ(c["predicted_first_batch"], 32);  // AI(16) = 7.75 < 10 <= AI(32) = 15.0
  // Proportional growth up to 16, then 16 -> 32 grows by 100/77.5 only: the knee's first batch is 32 and
  // the estimate 16 x max / P(16) lies between, next to the prediction.
  EXPECT_EQ(c["knee_first_batch"], 32);
  const double p16 = 0.8 * kDram * ai_fp32(16), best = 0.8 * kPeak;
  EXPECT_NEAR(c["knee_batch"].get<double>(), 16 * best / p16, 1e-9);
  EXPECT_NEAR(c["knee_batch"].get<double>(), c["predicted_batch"].get<double>(), 1.0);
}

// Issue 61: the part's derived tables are typed rows (CrossoverRecord, BestBackendRecord, RoofViolationRecord), none
// left in its `extra`, a null the derivation wrote (no knee yet) still written, and the rows write the same text.
TEST(Placement, TheDerivedTablesAreTypedRows) {
  const ResultsDocument doc = testing::lenient(results());
  const RooflineSection part = derive_placements(target_document(doc, kCpuTargetId), recorded_targets(doc).front(),
                                                 read_roofline_section(section(), "test.json"));
  for (const char* table : {"crossovers", "best_backends", "roof_violations"}) EXPECT_FALSE(part.extra.contains(table)) << table;
  ASSERT_TRUE(part.crossovers && part.best_backends && part.roof_violations);
  ASSERT_EQ(part.crossovers->size(), 1u);
  const CrossoverRecord& c = part.crossovers->front();
  EXPECT_EQ(c.predicted_first_batch, 32);
  EXPECT_EQ(c.knee_first_batch, 32);
  EXPECT_EQ(c.ridge_ai, 10.0);
  ASSERT_TRUE(c.batches.has_value());
  EXPECT_EQ(c.batches->size(), 7u);
  EXPECT_EQ(part.best_backends->size(), 7u);
  for (const BestBackendRecord& b : *part.best_backends) EXPECT_EQ(b.backend, "eigen");
  EXPECT_TRUE(part.roof_violations->empty());
  EXPECT_EQ(to_json(part).dump(), testing::derived_placements(results(), section()).dump());
}

TEST(Placement, NoKneeWhenStillProportional) {
  json doc = {{"benchmarks", json::array()}};
  for (double n : {1.0, 2.0, 4.0}) doc["benchmarks"].push_back(entry("eigen", "fp32", n, kDram * ai_fp32(n), ai_fp32(n)));
  const json out = testing::derived_placements(doc, section());
  EXPECT_TRUE(out["crossovers"][0]["knee_batch"].is_null());
  EXPECT_TRUE(out["crossovers"][0]["knee_first_batch"].is_null());
  // Typed: no member, but written (the lenient reader keeps the null in the row's `extra`).
  const RooflineSection typed = read_roofline_section(out, "test.json");
  ASSERT_TRUE(typed.crossovers && typed.crossovers->size() == 1u);
  const CrossoverRecord& c = typed.crossovers->front();
  EXPECT_FALSE(c.knee_batch.has_value());
  EXPECT_TRUE(c.extra.contains("knee_batch"));
  EXPECT_EQ(c.batches, (std::vector<long long>{1, 2, 4}));
}

TEST(Placement, BestBackendPerBatchAndPrecision) {
  json doc = results();
  doc["benchmarks"].push_back(entry("onednn", "fp32", 64, 0.95 * kPeak, ai_fp32(64)));
  doc["benchmarks"].push_back(entry("onednn", "fp32", 1, 0.5 * kDram * ai_fp32(1), ai_fp32(1)));
  const json out = testing::derived_placements(doc, section());
  int seen = 0;
  for (const json& b : out["best_backends"]) {
    if (b["batch"] == 64) {
      EXPECT_EQ(b["backend"], "onednn");
      EXPECT_NEAR(b["efficiency"].get<double>(), 0.95, 1e-12);
      EXPECT_EQ(b["bound"], "compute");
      ++seen;
    }
    if (b["batch"] == 1) {
      EXPECT_EQ(b["backend"], "eigen");
      ++seen;
    }
  }
  EXPECT_EQ(seen, 2);
  EXPECT_EQ(out["best_backends"].size(), 7u);
}

TEST(Placement, Int8AgainstItsOwnCeilingInOps) {
  json doc = {{"benchmarks", json::array()}};
  const double ai = 2 * kM * 512 * kK / (kM * kK * 1 + kK * 512 * 1 + kM * 512 * 4);
  doc["benchmarks"].push_back(entry("onednn", "int8", 512, 0.9 * 4 * kPeak, ai));
  const json out = testing::derived_placements(doc, section());
  const json& p = out["placements"][0];
  EXPECT_EQ(p["unit"], "OP/s");
  EXPECT_EQ(p["bound"], "compute");
  EXPECT_NEAR(p["efficiency"].get<double>(), 0.9, 1e-12);
  EXPECT_DOUBLE_EQ(p["compute_ceiling"].get<double>(), 4 * kPeak);
}

TEST(Placement, MissingComputeCeilingPlacesWhatItCanAndSaysSo) {
  const json out = testing::derived_placements(results(), section(false));
  ASSERT_EQ(out["placements"].size(), 7u);
  const json& p = out["placements"][0];
  EXPECT_FALSE(p.contains("bound"));
  EXPECT_NEAR(p["attainable"].get<double>(), kDram * p["ai"].get<double>(), 1.0);
  EXPECT_TRUE(out["crossovers"][0]["predicted_batch"].is_null());
  EXPECT_TRUE(testing::any_note_has(out["notes"], "No fp32 compute ceiling")) << out["notes"].dump();
}

TEST(Placement, FailedMeasurementsAreNotPlacedButNoted) {
  json doc = results();
  doc["benchmarks"].push_back(entry("openblas", "fp32", 1, 1e9, ai_fp32(1), true));
  const json out = testing::derived_placements(doc, section());
  for (const json& p : out["placements"]) EXPECT_NE(p["backend"], "openblas");
  EXPECT_NE(out["notes"].dump().find("1 GEMM measurement(s) failed"), std::string::npos);
}

TEST(Placement, NoGemmPointsGiveEmptyLists) {
  const json out = testing::derived_placements(json{{"benchmarks", json::array()}}, section());
  EXPECT_TRUE(out["placements"].empty());
  EXPECT_TRUE(out["crossovers"].empty());
  EXPECT_TRUE(out["best_backends"].empty());
}

TEST(Placement, DeriveRooflineCarriesThePlacements) {
  // End to end through derive_roofline: no ceilings measured, so placements carry value and AI only.
  const json section = testing::derived_section(results());
  ASSERT_EQ(section["placements"].size(), 7u);
  EXPECT_TRUE(section.contains("crossovers"));
  EXPECT_TRUE(section.contains("best_backends"));
}

}  // namespace
}  // namespace roofline

namespace roofline {
namespace {
TEST(Placement, OperandsThatFitACacheAreSaidToLiveThere) {
  // Operands of the batch-1 point: A (kM x kK) + B (kK x 1) + C (kM x 1), 4-byte elements: over L2's
  // measured range, inside L3's.
  const double operands = 4.0 * (kM * kK + kK + kM);
  json s = section();
  s["memory_levels"] = json::array({{{"level", "L2"}, {"threads", 2}, {"inferred_bytes", operands / 2}},
                                    {{"level", "L3"}, {"threads", 2}, {"inferred_bytes", operands * 2}},
                                    {{"level", "DRAM"}, {"threads", 2}, {"inferred_bytes", nullptr}}});
  const json out = testing::derived_placements(results(), s);
  const json& p = find(out["placements"], "eigen", 1);
  EXPECT_DOUBLE_EQ(p["operand_bytes"].get<double>(), operands);
  EXPECT_EQ(p["resident_level"], "L3");
  EXPECT_TRUE(testing::any_note_has(out["notes"], "fit the L3 range"));
  // Without measured levels nothing is assumed to fit a cache.
  EXPECT_EQ(find(testing::derived_placements(results(), section())["placements"], "eigen", 1)["resident_level"], "DRAM");
}
}  // namespace
}  // namespace roofline
