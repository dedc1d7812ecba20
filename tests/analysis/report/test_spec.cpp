// Specs of advertised figures: the shipped specs parse, bad units and negative numbers are refused with the
// file named, and advertised vs measured scales, compares and explains sparsity honestly.
#include <algorithm>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "roofline/report/advertised.hpp"
#include "roofline/report/report_tables.hpp"
#include "roofline/model/roofline_section.hpp"
#include "roofline/common/arm_pipes.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/results_document.hpp"
#include "roofline/report/spec.hpp"
#include "support/input_errors.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;
const fs::path kData = ROOFLINE_TEST_DATA_DIR;

std::string error_of(const fs::path& p) {
  return testing::input_error_of([&] { load_spec(p); });
}

TEST(Spec, ShippedSpecsParse) {
  int count = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(ROOFLINE_SOURCE_DIR) / "analysis" / "specs")) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().string());
    const Spec spec = load_spec(entry.path());
    EXPECT_FALSE(spec.peaks.empty());
    EXPECT_GT(spec.memory_bandwidth, 0.0);
    ++count;
  }
  EXPECT_GE(count, 3);
}

// The ARM specs' figures (issue 62) are the pipe table's: cores x clock x pipes x lanes x 2 FLOP per FMA, as stated or
// as derived from it (within the datasheets' rounding).
TEST(Spec, ArmSpecsAgreeWithThePipeTable) {
  const double v2_fp64 = known_arm_pipes("neoverse_v2", "fma", "fp64", "neon", 128).at(0) * 2.0 * 2.0;  // FLOP/cycle
  for (const char* name : {"aws-graviton4.json", "nvidia-grace-cpu-superchip.json"}) {
    SCOPED_TRACE(name);
    const Spec spec = load_spec(fs::path(ROOFLINE_SOURCE_DIR) / "analysis" / "specs" / name);
    for (const SpecPeak& p : spec.peaks) {
      const double per_cycle = p.precision == "fp64" ? v2_fp64 : p.precision == "fp32" ? 2.0 * v2_fp64 : 0.0;
      ASSERT_GT(per_cycle, 0.0) << p.precision;
      EXPECT_NEAR(p.value / (spec.cores * spec.clock_hz * per_cycle), 1.0, 0.02) << p.precision;
    }
  }
}

TEST(Spec, ParsesUnitsAndSparsity) {
  const Spec spec = load_spec(kData / "spec_test_cpu.json");
  EXPECT_EQ(spec.cores, 4);
  EXPECT_DOUBLE_EQ(spec.clock_hz, 2e9);
  EXPECT_DOUBLE_EQ(spec.memory_bandwidth, 40e9);
  ASSERT_EQ(spec.peaks.size(), 2u);
  EXPECT_EQ(spec.peaks[0].precision, "fp32");
  EXPECT_DOUBLE_EQ(spec.peaks[0].value, 400e9);
  EXPECT_TRUE(spec.peaks[1].sparse);
}

TEST(Spec, RefusesUnknownUnitsAndNegativeNumbersNamingTheFile) {
  const std::string unit = error_of(kData / "spec_bad_unit.json");
  EXPECT_NE(unit.find("spec_bad_unit.json"), std::string::npos) << unit;
  EXPECT_NE(unit.find("memory_bandwidth"), std::string::npos) << unit;
  const std::string neg = error_of(kData / "spec_negative.json");
  EXPECT_NE(neg.find("spec_negative.json"), std::string::npos) << neg;
  EXPECT_NE(neg.find("greater than zero"), std::string::npos) << neg;
  EXPECT_EQ(unit.find('\n'), std::string::npos);
}

TEST(Spec, RefusesBareNumbersAndMissingCoverage) {
  nlohmann::json doc = {{"name", "x"}, {"kind", "cpu"}, {"covers", {{"cores", 2}}}, {"peaks", {{"fp32", {{"value", 4.5}}}}}};
  EXPECT_THROW(parse_spec(doc, "s.json"), InputError);  // a number without a unit
  doc["peaks"]["fp32"]["value"] = "4.5 TFLOP/s";
  EXPECT_NO_THROW(parse_spec(doc, "s.json"));
  doc.erase("covers");
  EXPECT_THROW(parse_spec(doc, "s.json"), InputError);  // a cpu spec must say how many cores it covers
  doc["covers"] = {{"cores", 2}};
  doc["peaks"]["fp32"]["engine"] = "tensor";
  EXPECT_THROW(parse_spec(doc, "s.json"), InputError);  // an engine is vector or matrix
  doc["peaks"]["fp32"]["engine"] = "matrix";
  EXPECT_EQ(parse_spec(doc, "s.json").peaks.front().engine, "matrix");
  doc["peaks"]["fp12"] = {{"value", "1 TFLOP/s"}};
  EXPECT_THROW(parse_spec(doc, "s.json"), InputError);  // unknown precision
}

TEST(Advertised, ScalesToCoresMeasuredAndComputesMfu) {
  const ResultsDocument results = load_results_document(kData / "report_minimal.json");
  const Spec spec = load_spec(kData / "spec_test_cpu.json");
  const AdvertisedComparison cmp = compare_to_spec(results, spec);
  EXPECT_TRUE(cmp.comparable);
  EXPECT_EQ(cmp.threads, 1);
  EXPECT_DOUBLE_EQ(cmp.scale, 0.25);  // 1 core of the spec's 4
  ASSERT_EQ(cmp.rows.size(), 3u);     // fp32, int8, bandwidth
  const AdvertisedRow& fp32 = cmp.rows[0];
  EXPECT_DOUBLE_EQ(fp32.advertised, 100e9);
  EXPECT_DOUBLE_EQ(fp32.measured, 1e11);
  EXPECT_DOUBLE_EQ(fp32.theoretical, 2e11);
  EXPECT_DOUBLE_EQ(fp32.measured_ratio(), 1.0);
  EXPECT_DOUBLE_EQ(fp32.gemm_ratio(), 0.1);  // best GEMM 10 GFLOP/s over 100 advertised
  const AdvertisedRow& int8 = cmp.rows[1];
  EXPECT_TRUE(int8.sparse);
  EXPECT_DOUBLE_EQ(int8.dense, int8.advertised / 2);
  EXPECT_NE(int8.verdict.find("assumes 2:4 sparsity"), std::string::npos) << int8.verdict;
  EXPECT_NE(int8.verdict.find("not measured"), std::string::npos) << int8.verdict;
  const AdvertisedRow& bw = cmp.rows[2];
  EXPECT_EQ(bw.what, "memory bandwidth");
  EXPECT_DOUBLE_EQ(bw.advertised, 40e9);  // bandwidth is not scaled per core
  EXPECT_DOUBLE_EQ(bw.measured_ratio(), 0.25);
  EXPECT_DOUBLE_EQ(bw.best_gemm, 5e9);    // 10 GFLOP/s at 2 FLOP/B
}

TEST(Advertised, AcceleratorSpecIsNotComparableWithACpuRun) {
  const ResultsDocument results = load_results_document(kData / "report_minimal.json");
  const fs::path h100 = fs::path(ROOFLINE_SOURCE_DIR) / "analysis" / "specs" / "nvidia-h100-sxm5.json";
  const AdvertisedComparison cmp = compare_to_spec(results, load_spec(h100));
  EXPECT_FALSE(cmp.comparable);
  for (const AdvertisedRow& r : cmp.rows) {
    EXPECT_EQ(r.measured_ratio(), 0.0);
    EXPECT_NE(r.verdict.find("not comparable"), std::string::npos);
    if (r.what == "int8") {
      EXPECT_NE(r.verdict.find("int8 figure (3958 TOPS) assumes 2:4 sparsity"), std::string::npos);
    }
  }
}

// An accelerator's datasheet is set beside the target it names, on that target's ceilings and main memory (issue 47):
// the file's CPU is not compared with it.
TEST(Advertised, AnAcceleratorSpecIsComparedWithTheTargetItNames) {
  nlohmann::json doc = load_json_file((kData / "targets" / "two_targets.json").string());
  doc["roofline"] = testing::derived_section(doc);
  const ResultsDocument results = testing::typed(doc);
  const AdvertisedComparison cmp = compare_to_spec(results, load_spec(kData / "spec_test_accelerator.json"));
  EXPECT_TRUE(cmp.comparable);
  EXPECT_EQ(cmp.target, "test:0");
  EXPECT_FALSE(cmp.host);
  EXPECT_EQ(cmp.threads, 0);  // its points name no thread count
  ASSERT_EQ(cmp.rows.size(), 3u);
  EXPECT_DOUBLE_EQ(cmp.rows[0].advertised, 19.2e12);
  EXPECT_DOUBLE_EQ(cmp.rows[0].measured, 18.18e12);  // its fp32 vector ceiling: the figure names its engine
  EXPECT_DOUBLE_EQ(cmp.rows[1].dense, 614.4e12);
  EXPECT_DOUBLE_EQ(cmp.rows[1].measured, 505e12);  // its bf16 ceiling: the matrix engine's
  const AdvertisedRow& bw = cmp.rows[2];
  EXPECT_DOUBLE_EQ(bw.measured, 3.03e12);  // its main memory, HBM, not the CPU's DRAM
  EXPECT_NE(bw.verdict.find("best HBM kernel (read)"), std::string::npos) << bw.verdict;
  // In the report, after that target's tables and named for it.
  const std::vector<ReportTable> tables = report_tables(results, load_spec(kData / "spec_test_accelerator.json"));
  const auto at = [&](const std::string& id) {
    return std::find_if(tables.begin(), tables.end(), [&](const ReportTable& t) { return t.id == id; }) - tables.begin();
  };
  EXPECT_GT(at("table-advertised"), at("table-target-test:0-compute"));
  EXPECT_EQ(tables[static_cast<std::size_t>(at("table-advertised"))].title, "Advertised vs measured: Test accelerator X1, test:0");
  // A datasheet of a device the run did not measure is not compared with any target, and says which it measured.
  const fs::path h200 = fs::path(ROOFLINE_SOURCE_DIR) / "analysis" / "specs" / "nvidia-h200-sxm.json";
  const AdvertisedComparison other = compare_to_spec(results, load_spec(h200));
  EXPECT_FALSE(other.comparable);
  EXPECT_NE(other.rows[0].verdict.find("none it names (Test accelerator (test:0))"), std::string::npos) << other.rows[0].verdict;
}

// The shipped datasheets name the devices as the CUDA runtime does (cudaDeviceProp::name): an H100 SXM5 reports
// "NVIDIA H100 80GB HBM3", the PCIe card "NVIDIA H100 PCIe", which the SXM5 datasheet does not describe.
TEST(Advertised, AShippedDatasheetNamesTheDeviceAsTheCudaRuntimeDoes) {
  nlohmann::json doc = load_json_file((kData / "targets" / "two_targets.json").string());
  const fs::path h100 = fs::path(ROOFLINE_SOURCE_DIR) / "analysis" / "specs" / "nvidia-h100-sxm5.json";
  for (const auto& [name, comparable] : {std::pair<std::string, bool>{"NVIDIA H100 80GB HBM3", true}, {"NVIDIA H100 PCIe", false}}) {
    for (auto& t : doc["context"]["targets"]) {
      if (t["target"] == "test:0") t["name"] = name;
    }
    nlohmann::json derived = doc;
    derived["roofline"] = testing::derived_section(derived);
    const AdvertisedComparison cmp = compare_to_spec(testing::typed(derived), load_spec(h100));
    EXPECT_EQ(cmp.comparable, comparable) << name;
    if (comparable) {
      EXPECT_EQ(cmp.target, "test:0");
    }
  }
}

}  // namespace
}  // namespace roofline
