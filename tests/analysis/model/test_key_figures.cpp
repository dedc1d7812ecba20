// The key figures: which ones a results file yields, their ids, values and units, and bad fields refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "roofline/model/key_figures.hpp"
#include "roofline/model/results.hpp"
#include "roofline/common/errors.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
using json = nlohmann::json;
const std::string kDir = ROOFLINE_TEST_DATA_DIR;

const KeyFigure* find(const std::vector<KeyFigure>& figures, const std::string& id) {
  const auto it = std::find_if(figures.begin(), figures.end(), [&](const KeyFigure& f) { return f.id == id; });
  return it == figures.end() ? nullptr : &*it;
}

// The figure with this id; a missing one fails the test with its id (never a null dereference).
const KeyFigure& at(const std::vector<KeyFigure>& figures, const std::string& id) {
  const KeyFigure* f = find(figures, id);
  if (f == nullptr) throw std::runtime_error("no key figure " + id);
  return *f;
}
}  // namespace

TEST(KeyFigures, EveryLevelPrecisionClockAndGemmPerThreadCount) {
  const json doc = load_json_file(kDir + "/report_full.json");
  const auto figures = key_figures(testing::lenient(doc));
  // 4 levels x {read, triad} x 2 thread counts + 5 precisions x 2 + 2 clocks + {fp32, int8} x {1, max}.
  EXPECT_EQ(figures.size(), 16u + 10u + 2u + 4u);
  const KeyFigure* dram = find(figures, "memory/DRAM/triad/threads:2");
  ASSERT_NE(dram, nullptr);
  EXPECT_EQ(dram->unit, "B/s");
  EXPECT_EQ(dram->group, "memory");
  EXPECT_TRUE(dram->higher_is_better);
  const KeyFigure* int8 = find(figures, "compute/int8/vector/threads:1");
  ASSERT_NE(int8, nullptr);
  EXPECT_EQ(int8->unit, "OP/s");
  const KeyFigure* clock = find(figures, "clock/threads:2");
  ASSERT_NE(clock, nullptr);
  EXPECT_DOUBLE_EQ(clock->value, 2.1e9);
  EXPECT_EQ(clock->unit, "Hz");
  const KeyFigure* gemm = find(figures, "gemm/fp32/batch:max/threads:2");
  ASSERT_NE(gemm, nullptr);
  EXPECT_NE(gemm->label.find("batch 256"), std::string::npos) << gemm->label;
  // The best backend wins.
  double best = 0.0;
  for (const json& p : doc["roofline"]["placements"]) {
    if (p["precision"] == "fp32" && p["batch"] == 256) best = std::max(best, p["value"].get<double>());
  }
  EXPECT_DOUBLE_EQ(gemm->value, best);
  EXPECT_NE(find(figures, "gemm/int8/batch:1/threads:2"), nullptr);
}

TEST(KeyFigures, AGemmFiguresStatisticNamesItsShapeSoThatAnotherShapeIsNotComparable) {
  json doc = load_json_file(kDir + "/report_full.json");
  const KeyFigure gemm = at(key_figures(testing::lenient(doc)), "gemm/fp32/batch:max/threads:2");
  std::string shape;
  for (const json& p : doc["roofline"]["placements"]) {
    if (p["precision"] == "fp32" && p["batch"] == 256 && p["value"].get<double>() == gemm.value) {
      shape = std::to_string(p["m"].get<long long>()) + "x" + std::to_string(p["k"].get<long long>());
    }
  }
  ASSERT_FALSE(shape.empty());
  EXPECT_EQ(gemm.statistic, "best backend at " + shape);
  // The same point at other weights (a plan that sized them differently) is another statistic, whatever its value.
  for (json& p : doc["roofline"]["placements"]) {
    if (p["precision"] == "fp32") p["m"] = p["m"].get<long long>() * 2;
  }
  const KeyFigure moved = at(key_figures(testing::lenient(doc)), "gemm/fp32/batch:max/threads:2");
  EXPECT_EQ(moved.value, gemm.value);
  EXPECT_NE(moved.statistic, gemm.statistic);
  // A placement without its shape keeps the plain statistic.
  for (json& p : doc["roofline"]["placements"]) {
    p.erase("m");
    p.erase("k");
  }
  EXPECT_EQ(at(key_figures(testing::lenient(doc)), "gemm/fp32/batch:max/threads:2").statistic, "best backend");
}

TEST(KeyFigures, MatrixEngineIsItsOwnFigure) {
  json doc = load_json_file(kDir + "/report_full.json");
  json amx = doc["roofline"]["compute_ceilings"][0];
  amx["precision"] = "bf16";
  amx["engine"] = "matrix";
  amx["value"] = 3.6e12;
  doc["roofline"]["compute_ceilings"].push_back(amx);
  const auto figures = key_figures(testing::lenient(doc));
  const KeyFigure* m = find(figures, "compute/bf16/matrix/threads:1");
  ASSERT_NE(m, nullptr);
  EXPECT_DOUBLE_EQ(m->value, 3.6e12);
  EXPECT_NE(find(figures, "compute/bf16/vector/threads:1"), nullptr);
}

TEST(KeyFigures, MemoryFiguresArePlateauMediansWhenTheFileHasThem) {
  json doc = load_json_file(kDir + "/report_full.json");
  // A file before plateau_median: the roof's best repetition, and it says so.
  const auto old_figures = key_figures(testing::lenient(doc));
  const KeyFigure* old_dram = find(old_figures, "memory/DRAM/read/threads:1");
  ASSERT_NE(old_dram, nullptr);
  EXPECT_EQ(old_dram->statistic, "best repetition");
  EXPECT_TRUE(old_dram->shared_memory);
  // With plateau medians: those, for every level; the roof (value) is not what gates.
  for (json& e : doc["roofline"]["memory_ceilings"]) e["plateau_median"] = e["value"].get<double>() * 0.9;
  const auto figures = key_figures(testing::lenient(doc));
  const KeyFigure* dram = find(figures, "memory/DRAM/read/threads:1");
  const KeyFigure* l2 = find(figures, "memory/L2/read/threads:1");
  ASSERT_NE(dram, nullptr);
  ASSERT_NE(l2, nullptr);
  EXPECT_EQ(dram->statistic, "plateau median");
  EXPECT_DOUBLE_EQ(dram->value, old_dram->value * 0.9);
  EXPECT_TRUE(dram->shared_memory);
  EXPECT_FALSE(l2->shared_memory);
  EXPECT_TRUE(at(figures, "memory/L3/read/threads:1").shared_memory);
  doc["roofline"]["memory_ceilings"][0]["plateau_median"] = "fast";
  EXPECT_THROW(key_figures(testing::lenient(doc)), InputError);
}

TEST(KeyFigures, GemmWithOperandsInL3OrDramUsesSharedMemory) {
  json doc = load_json_file(kDir + "/report_full.json");
  for (json& p : doc["roofline"]["placements"]) {
    const bool gemv = p["batch"] == 1;
    p["bound"] = gemv ? "memory" : "compute";
    p["resident_level"] = gemv ? "DRAM" : "L2";
    if (p["precision"] == "int8" && !gemv) p["resident_level"] = "L3";  // compute-bound, operands in L3
  }
  const auto figures = key_figures(testing::lenient(doc));
  ASSERT_NE(find(figures, "gemm/fp32/batch:1/threads:2"), nullptr);
  EXPECT_TRUE(at(figures, "gemm/fp32/batch:1/threads:2").shared_memory);
  EXPECT_FALSE(at(figures, "gemm/fp32/batch:max/threads:2").shared_memory);
  EXPECT_FALSE(at(figures, "compute/fp32/vector/threads:2").shared_memory);
  EXPECT_TRUE(at(figures, "gemm/int8/batch:max/threads:2").shared_memory);
  doc["roofline"]["placements"][0]["resident_level"] = 3;
  EXPECT_THROW(key_figures(testing::lenient(doc)), InputError);
}

TEST(KeyFigures, BadFieldsAreInputErrors) {
  const json good = load_json_file(kDir + "/report_full.json");
  json doc = good;
  doc["roofline"]["compute_ceilings"][0]["value"] = "fast";
  EXPECT_THROW(key_figures(testing::lenient(doc)), InputError);
  doc = good;
  doc["roofline"]["memory_ceilings"][0]["value"] = -1.0;
  EXPECT_THROW(key_figures(testing::lenient(doc)), InputError);
  doc = good;
  doc["roofline"]["memory_ceilings"][0]["level"] = "L7";
  EXPECT_THROW(key_figures(testing::lenient(doc)), InputError);
  doc = good;
  doc["roofline"]["compute_ceilings"][0]["engine"] = "tensor";
  EXPECT_THROW(key_figures(testing::lenient(doc)), InputError);
  doc = good;
  doc["roofline"]["placements"][0]["threads"] = 0;
  EXPECT_THROW(key_figures(testing::lenient(doc)), InputError);
  doc = good;
  doc.erase("roofline");
  EXPECT_THROW(key_figures(testing::lenient(doc)), InputError);
  doc = good;
  doc["roofline"] = json::object();
  EXPECT_THROW(key_figures(testing::lenient(doc)), InputError);
  // The rules read the typed section (issue 61, step 3): a field or table the lenient reader could not type (kept in
  // `extra`) is bad input, as it was to a reader of the file's JSON.
  doc = good;
  doc["roofline"]["memory_ceilings"][0]["kernel"] = 3;
  EXPECT_THROW(key_figures(testing::lenient(doc)), InputError);
  doc = good;
  doc["roofline"]["compute_ceilings"] = "none";
  EXPECT_THROW(key_figures(testing::lenient(doc)), InputError);
  doc = good;
  doc["roofline"]["placements"][0]["batch"] = 1.5;
  EXPECT_THROW(key_figures(testing::lenient(doc)), InputError);
  doc = good;
  doc["roofline"]["placements"][1] = 7;
  EXPECT_THROW(key_figures(testing::lenient(doc)), InputError);
}

}  // namespace roofline
