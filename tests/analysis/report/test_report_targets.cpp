// Every target's report tables come from the same functions (issue 47, report_targets.cpp): a device's compute,
// memory, memory-level, placement, crossover and best-backend tables are the CPU's, named for the target, with the
// columns its rows have and the notes its facts give; the CPU's tables stay as they were.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "roofline/report/report.hpp"
#include "roofline/report/report_tables.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/roofline_section.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
using nlohmann::json;
using testing::typed;

const std::string kFile = std::string(ROOFLINE_TEST_DATA_DIR) + "/targets/two_targets.json";

std::vector<ReportTable> tables() {
  json doc = load_json_file(kFile);
  doc["roofline"] = testing::derived_section(doc);
  return report_tables(typed(doc));
}

const ReportTable& table(const std::vector<ReportTable>& all, const std::string& id) {
  const auto it = std::find_if(all.begin(), all.end(), [&](const ReportTable& t) { return t.id == id; });
  if (it == all.end()) throw std::runtime_error("no table " + id);
  return *it;
}

std::size_t column(const ReportTable& t, const std::string& name) {
  const auto it = std::find(t.columns.begin(), t.columns.end(), name);
  return it == t.columns.end() ? t.columns.size() : static_cast<std::size_t>(it - t.columns.begin());
}

TEST(ReportTargets, EveryTargetGetsTheCpusTablesNamedForItAfterItsFacts) {
  const std::vector<ReportTable> all = tables();
  std::vector<std::string> ids;
  for (const ReportTable& t : all) ids.push_back(t.id);
  const auto at = [&](const std::string& id) { return std::find(ids.begin(), ids.end(), id) - ids.begin(); };
  // The CPU's first, as always; then the device's block, headed by its facts, in the CPU's order.
  const std::vector<std::string> device = {"table-target-test:0", "table-target-test:0-compute", "table-target-test:0-memory",
                                           "table-target-test:0-memory-levels", "table-target-test:0-placements",
                                           "table-target-test:0-crossovers", "table-target-test:0-best-backends",
                                           "table-target-test:0-transfer_ceilings", "table-target-test:0-launch_latency"};
  EXPECT_LT(at("table-compute"), at(device.front()));
  EXPECT_LT(at("table-placements"), at(device.front()));
  for (std::size_t i = 1; i < device.size(); ++i) {
    ASSERT_LT(at(device[i]), static_cast<std::ptrdiff_t>(ids.size())) << device[i];
    EXPECT_LT(at(device[i - 1]), at(device[i])) << device[i];
  }
  EXPECT_EQ(table(all, "table-target-test:0-compute").title, "Compute ceilings, test:0");
  EXPECT_LT(at(device.back()), at("table-notes"));
}

TEST(ReportTargets, ADevicesComputeTableSaysItsClockAndItsPeakModel) {
  const std::vector<ReportTable> all = tables();
  const ReportTable& device = table(all, "table-target-test:0-compute");
  // Its rows name no ISA and no threads; its clock is the one its facts report, said so.
  EXPECT_EQ(column(device, "ISA"), device.columns.size());
  const std::size_t clock = column(device, "clock"), threads = column(device, "threads");
  ASSERT_LT(clock, device.columns.size());
  ASSERT_EQ(device.rows.size(), 4u);
  EXPECT_EQ(device.rows[0][clock], "1.50 GHz (reported)");
  EXPECT_EQ(device.rows[0][threads], "-");
  EXPECT_EQ(device.rows[0][column(device, "width")], "tile");  // the matrix engine's row
  EXPECT_NE(device.note.find("compute units x clock x operations per unit per clock"), std::string::npos);
  EXPECT_EQ(device.note.find("AMX"), std::string::npos);
  // The CPU's: the x86 model's formula, no clock column (its clock is the machine's, in the machine table).
  const ReportTable& cpu = table(all, "table-compute");
  EXPECT_EQ(column(cpu, "clock"), cpu.columns.size());
  EXPECT_NE(cpu.note.find("threads x measured clock x operations per cycle per core"), std::string::npos);
}

// An ARM64 CPU's compute rows: SMMLA beside SDOT on the same 128-bit registers names its instruction in the ISA
// column; an SVE row's width is the vector length it ran at.
TEST(ReportTargets, ArmMatrixMultiplyRowsNameTheirInstruction) {
  const auto compute = [](const std::string& kernel, const std::string& precision, const std::string& isa, int bits,
                          int opi, const std::string& instruction, double value) {
    const json labels = {{"suite", "compute"}, {"kernel", kernel}, {"precision", precision}, {"isa", isa},
                         {"vector_bits", bits}, {"threads", 1}, {"ops_per_instruction", opi},
                         {"instruction", instruction}, {"variant", kernel + "_" + precision + "_" + isa}};
    const std::string counter = precision == "int8" ? "op_per_second" : "flop_per_second";
    return json{{"name", "compute/x"}, {"run_type", "iteration"}, {"labels", labels}, {counter, value}};
  };
  json doc = {{"context", {{"schema_version", 1}, {"threads", {1}}, {"machine", {{"microarchitecture", "neoverse_v1"}}}}},
              {"benchmarks",
               {compute("dot", "int8", "neon", 128, 32, "sdot v.4s", 3e11), compute("mmla", "int8", "neon", 128, 64,
                                                                                   "smmla v.4s", 6e11),
                compute("fma", "fp64", "sve", 256, 8, "fmla z.d", 4e10)}}};
  doc["roofline"] = testing::derived_section(doc);
  const std::vector<ReportTable> all = report_tables(typed(doc));
  const ReportTable& cpu = table(all, "table-compute");
  const std::size_t isa = column(cpu, "ISA"), width = column(cpu, "width");
  ASSERT_LT(isa, cpu.columns.size());
  ASSERT_LT(width, cpu.columns.size());
  std::vector<std::string> cells;
  for (const auto& row : cpu.rows) cells.push_back(row[isa] + " / " + row[width]);
  std::sort(cells.begin(), cells.end());
  EXPECT_EQ(cells, (std::vector<std::string>{"neon (smmla v.4s) / 128 bit", "neon / 128 bit", "sve / 256 bit"}));
}

TEST(ReportTargets, ADevicesMemoryTablesHaveTheColumnsItsRowsHaveAndNameItsMainMemory) {
  const std::vector<ReportTable> all = tables();
  const ReportTable& memory = table(all, "table-target-test:0-memory");
  EXPECT_EQ(memory.columns, (std::vector<std::string>{"level", "kernel", "width", "threads", "bandwidth (STREAM bytes)",
                                                      "working sets"}));
  ASSERT_EQ(memory.rows.size(), 4u);
  EXPECT_EQ(memory.rows[3][0], "HBM");
  EXPECT_EQ(memory.rows[3][2], "4");
  EXPECT_EQ(memory.note.find("write-allocate"), std::string::npos);
  const ReportTable& levels = table(all, "table-target-test:0-memory-levels");
  ASSERT_EQ(levels.rows.size(), 2u);
  EXPECT_EQ(levels.rows[1][1], "HBM");
  EXPECT_NE(levels.note.find("the capacity the target's facts list"), std::string::npos);
  const ReportTable& crossovers = table(all, "table-target-test:0-crossovers");
  EXPECT_FALSE(crossovers.rows.empty());
  EXPECT_NE(crossovers.note.find("the HBM ridge"), std::string::npos);
  // The CPU's keep their DRAM wording and its pages column.
  EXPECT_NE(table(all, "table-crossovers").note.find("the DRAM ridge"), std::string::npos);
  EXPECT_LT(column(table(all, "table-memory"), "pages"), table(all, "table-memory").columns.size());
}

TEST(ReportTargets, ADevicesChartsAreDrawnByTheCpusChartCodeOnItsOwnLevels) {
  json doc = load_json_file(kFile);
  doc["roofline"] = testing::derived_section(doc);
  const std::string html = render_html_report(typed(doc));
  const std::size_t section = html.find("<section id=\"roofline-test:0\">");
  ASSERT_NE(section, std::string::npos);
  // Its bandwidth curves with its own levels' bands (HBM, not DRAM), its points against the batch.
  const std::size_t bandwidth = html.find("id=\"bandwidth-chart-test:0\"", section);
  ASSERT_NE(bandwidth, std::string::npos);
  const std::size_t throughput = html.find("id=\"throughput-chart-test:0\"", bandwidth);
  ASSERT_NE(throughput, std::string::npos);
  const std::string band = html.substr(bandwidth, throughput - bandwidth);
  EXPECT_NE(band.find("class=\"level-band\" data-level=\"HBM\""), std::string::npos);
  EXPECT_NE(band.find("class=\"level-band\" data-level=\"L2\""), std::string::npos);
  EXPECT_EQ(band.find("data-level=\"DRAM\""), std::string::npos);
  EXPECT_NE(band.find("data-kernel=\"read\""), std::string::npos);
  EXPECT_NE(html.find("id=\"latency-chart-test:0\"", throughput), std::string::npos);
  EXPECT_NE(html.find("data-backend=\"testblas\"", throughput), std::string::npos);
  // Its roofline labels its main memory's ridge points (HBM's), as the CPU's labels DRAM's.
  const std::size_t roofline = html.find("id=\"roofline-chart-test:0\"", section);
  const std::string chart = html.substr(roofline, html.find("</svg>", roofline) - roofline);
  EXPECT_NE(chart.find("class=\"ridge\" data-precision=\"bf16\" data-level=\"HBM\""), std::string::npos);
  EXPECT_NE(chart.find("class=\"ridge-label\""), std::string::npos);
  EXPECT_EQ(chart.find("()"), std::string::npos);  // its ceilings name no ISA: no empty brackets in the legend
  // The CPU's charts keep their ids, before the device's section.
  EXPECT_LT(html.find("id=\"bandwidth-chart\""), html.size());
}

}  // namespace
}  // namespace roofline
