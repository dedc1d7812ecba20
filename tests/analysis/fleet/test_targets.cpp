// The target seam on the analysis side (issue 21): a hand-made file with the CPU and the test target
// test:0 (tests/data/targets/two_targets.json: L2 of 4 MiB and HBM, units_clock peaks, GEMM, transfers,
// launches) derived, keyed, compared, fleeted and rendered; the recorded targets of old and broken files.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "roofline/regress/compare.hpp"
#include "roofline/fleet/fleet.hpp"
#include "roofline/model/key_figures.hpp"
#include "roofline/report/report.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/results_targets.hpp"
#include "roofline/model/roofline_section.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/llm/roofs.hpp"
#include "roofline/llm/target.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
using nlohmann::json;
using testing::typed;

const std::string kFile = std::string(ROOFLINE_TEST_DATA_DIR) + "/targets/two_targets.json";

json derived() {
  json doc = load_json_file(kFile);
  doc["roofline"] = testing::derived_section(doc);
  return doc;
}

std::vector<json> rows_of(const json& doc, const char* array, const std::string& target) {
  std::vector<json> out;
  for (const json& e : doc["roofline"][array]) {
    if (e.value("target", "") == target) out.push_back(e);
  }
  return out;
}

const json& find_row(const std::vector<json>& rows, const std::string& key, const std::string& value,
                     const std::string& key2 = "", const std::string& value2 = "") {
  const auto it = std::find_if(rows.begin(), rows.end(), [&](const json& r) {
    return r.value(key, "") == value && (key2.empty() || r.value(key2, "") == value2);
  });
  if (it == rows.end()) throw std::runtime_error("no row " + key + "=" + value + " " + key2 + "=" + value2);
  return *it;
}

TEST(Targets, TestTargetLevelsAreItsOwnNames) {
  const json doc = derived();
  const std::vector<json> mem = rows_of(doc, "memory_ceilings", "test:0");
  ASSERT_EQ(mem.size(), 4u);  // L2 and HBM x read and triad
  const json& l2 = find_row(mem, "level", "L2", "kernel", "read");
  EXPECT_DOUBLE_EQ(l2["value"].get<double>(), 10.1e12);
  EXPECT_DOUBLE_EQ(l2["max_bytes"].get<double>(), 2097152.0);
  EXPECT_FALSE(l2.contains("threads"));
  const json& hbm = find_row(mem, "level", "HBM", "kernel", "read");
  EXPECT_DOUBLE_EQ(hbm["plateau_median"].get<double>(), 3e12);
  EXPECT_DOUBLE_EQ(hbm["min_bytes"].get<double>(), 8388608.0);
  // The CPU's rows are as before, with target "cpu".
  const std::vector<json> cpu = rows_of(doc, "memory_ceilings", "cpu");
  ASSERT_FALSE(cpu.empty());
  for (const json& r : cpu) EXPECT_EQ(r["threads"], 1);
  EXPECT_EQ(find_row(cpu, "level", "DRAM")["kernel"], "read");
}

TEST(Targets, ALastPlateauInsideASizedCacheIsThatCacheWarnedNotMainMemory) {
  // Issue 46's DRAM rule, the CPU's, on a device (issue 47: one derivation names every target's levels). Facts that
  // say its L2 holds 256 MiB, a sweep that ends at 256 MiB: its last plateau (8..256 MiB) is the L2 the sweep never
  // left, warned dram_not_reached, never HBM.
  const auto with_l2 = [](double bytes) {
    json doc = load_json_file(kFile);
    for (json& t : doc["context"]["targets"]) {
      if (t["target"] == "test:0") t["memory_levels"][0]["capacity_bytes"] = bytes;
    }
    doc["roofline"] = testing::derived_section(doc);
    return doc;
  };
  const json doc = with_l2(256.0 * 1024 * 1024);
  for (const json& r : rows_of(doc, "memory_levels", "test:0")) EXPECT_NE(r["level"], "HBM") << r.dump();
  const std::vector<json> mem = rows_of(doc, "memory_ceilings", "test:0");
  const json& l2 = find_row(mem, "level", "L2", "kernel", "read");
  EXPECT_EQ(l2.value("warning", ""), "dram_not_reached") << l2.dump();
  std::string notes;
  for (const json& n : doc["roofline"]["notes"]) notes += n.get<std::string>() + "\n";
  EXPECT_NE(notes.find("test:0: dram_not_reached: the sweep ended on the L2 plateau at 256 MiB: no HBM plateau"),
            std::string::npos) << notes;
  // An L2 of 32 MiB: HBM is named only from past it (its sizes inside the L2's capacity belong to no level).
  const json mid = with_l2(32.0 * 1024 * 1024);
  const std::vector<json> mid_levels = rows_of(mid, "memory_levels", "test:0");
  const json& hbm = find_row(mid_levels, "level", "HBM");
  EXPECT_GT(hbm["min_bytes"].get<double>(), 32.0 * 1024 * 1024) << hbm.dump();
  // As recorded (L2 of 4 MiB), HBM from 8 MiB, unwarned.
  const json plain = derived();
  EXPECT_FALSE(find_row(rows_of(plain, "memory_ceilings", "test:0"), "level", "HBM", "kernel", "read").contains("warning"));
}

TEST(Targets, ComputeCeilingsArePrecisionByEngineWithUnitsClockPeaks) {
  const json doc = derived();
  const std::vector<json> c = rows_of(doc, "compute_ceilings", "test:0");
  ASSERT_EQ(c.size(), 4u);
  // 100 units x 1.5 GHz x 128 FLOP (fp32 vector), x 4096 (bf16 matrix)
  EXPECT_DOUBLE_EQ(find_row(c, "precision", "fp32", "engine", "vector")["theoretical"].get<double>(), 100 * 1.5e9 * 128);
  EXPECT_DOUBLE_EQ(find_row(c, "precision", "bf16", "engine", "matrix")["theoretical"].get<double>(), 100 * 1.5e9 * 4096);
  EXPECT_DOUBLE_EQ(find_row(c, "precision", "bf16", "engine", "matrix")["value"].get<double>(), 505e12);
}

TEST(Targets, TheoreticalPeakIsTakenAtTheClockMeasuredBesideTheBestRepetition) {
  json doc = load_json_file(kFile);
  for (json& e : doc["benchmarks"]) {
    const json& l = e["labels"];
    if (l.value("target", "") == "test:0" && l.value("suite", "") == "compute" && l.value("precision", "") == "fp32") {
      e["clock_hz"] = 1.2e9;  // what an OpenCL CPU device's works write (DeviceWork::clock_hz)
    }
  }
  doc["roofline"] = testing::derived_section(doc);
  const std::vector<json> c = rows_of(doc, "compute_ceilings", "test:0");
  const json& fp32 = find_row(c, "precision", "fp32", "engine", "vector");
  EXPECT_DOUBLE_EQ(fp32["theoretical"].get<double>(), 100 * 1.2e9 * 128);
  EXPECT_DOUBLE_EQ(fp32["clock_hz"].get<double>(), 1.2e9);
  EXPECT_EQ(fp32["clock_source"], "measured");
  const json& bf16 = find_row(c, "precision", "bf16", "engine", "matrix");  // none measured: the facts' clock
  EXPECT_DOUBLE_EQ(bf16["clock_hz"].get<double>(), 1.5e9);
  EXPECT_EQ(bf16["clock_source"], "reported");
}

TEST(Targets, EachKernelCurveIsKeptInOneWidthTheBestAcrossSizes) {
  json doc = load_json_file(kFile);
  // A second, slower width of every test:0 bandwidth entry, with one size where it alone is faster (noise):
  // the curve stays in width 4, whose geometric mean over the sizes is higher.
  json extra = json::array();
  for (const json& e : doc["benchmarks"]) {
    const json& l = e["labels"];
    if (l.value("target", "") != "test:0" || l.value("suite", "") != "bandwidth") continue;
    if (!e.contains("bytes_per_second") || !e["bytes_per_second"].is_number()) continue;
    json slow = e;
    slow["labels"]["width"] = 16;
    slow["name"] = slow["name"].get<std::string>() + "/w16";
    slow["run_name"] = slow.value("run_name", slow["name"].get<std::string>()) + "/w16";
    const bool spike = e.value("working_set_bytes", 0.0) == 1048576.0;
    slow["bytes_per_second"] = e["bytes_per_second"].get<double>() * (spike ? 1.5 : 0.5);
    extra.push_back(std::move(slow));
  }
  ASSERT_FALSE(extra.empty());
  json with_slow = doc;
  for (const json& e : extra) with_slow["benchmarks"].push_back(e);
  with_slow["roofline"] = testing::derived_section(with_slow);
  for (const json& r : rows_of(with_slow, "memory_ceilings", "test:0")) {
    EXPECT_EQ(r["width"], 4) << r.dump();
    EXPECT_FALSE(r.contains("pattern")) << r.dump();  // its entries name no access pattern
  }
  for (const json& r : rows_of(with_slow, "memory_levels", "test:0")) EXPECT_EQ(r["reference_width"], 4) << r.dump();
  const std::vector<json> mem = rows_of(with_slow, "memory_ceilings", "test:0");
  const json& hbm = find_row(mem, "level", "HBM", "kernel", "read");
  EXPECT_DOUBLE_EQ(hbm["plateau_median"].get<double>(), 3e12);  // the width-4 curve's, as without width 16
  // A second access pattern of the same width, faster everywhere: that variant is kept, and named.
  json with_pattern = doc;
  for (json e : extra) {
    e["labels"]["width"] = 4;
    e["labels"]["pattern"] = "interleaved";
    e["bytes_per_second"] = e["bytes_per_second"].get<double>() * 2.4;  // 1.2x the width-4 curve, or 3.6x at the spike
    with_pattern["benchmarks"].push_back(std::move(e));
  }
  with_pattern["roofline"] = testing::derived_section(with_pattern);
  const std::vector<json> mem2 = rows_of(with_pattern, "memory_ceilings", "test:0");
  const json& hbm2 = find_row(mem2, "level", "HBM", "kernel", "read");
  EXPECT_EQ(hbm2["pattern"], "interleaved");
  EXPECT_DOUBLE_EQ(hbm2["plateau_median"].get<double>(), 3e12 * 1.2);
}

TEST(Targets, PlacementsLieOnTheirTargetsCeilingsAndLevel) {
  const json doc = derived();
  const std::vector<json> p = rows_of(doc, "placements", "test:0");
  ASSERT_EQ(p.size(), 3u);
  const json& small = find_row(p, "kernel", "gemv", "resident_level", "L2");  // 1 MiB of operands fit the 4 MiB L2
  EXPECT_EQ(small["m"], 512);
  EXPECT_DOUBLE_EQ(small["attainable"].get<double>(), 10.1e12 * 0.5);
  EXPECT_EQ(small["bound"], "memory");
  const json& large = find_row(p, "kernel", "gemv", "resident_level", "HBM");
  EXPECT_EQ(large["m"], 1024);
  EXPECT_DOUBLE_EQ(large["attainable"].get<double>(), 3.03e12 * 0.5);
  const json& gemm = find_row(p, "kernel", "gemm");
  EXPECT_EQ(gemm["roof"]["engine"], "matrix");
  EXPECT_EQ(gemm["bound"], "compute");
  EXPECT_DOUBLE_EQ(gemm["attainable"].get<double>(), 505e12);
  // Offloaded with its operands each call, a point is bound by the pinned host-to-device transfer (25.25 GB/s).
  EXPECT_EQ(large["offload"]["memory"], "pinned");
  EXPECT_DOUBLE_EQ(large["offload"]["attainable"].get<double>(), 25.25e9 * 0.5);
  EXPECT_EQ(large["offload"]["bound"], "transfer");
  EXPECT_DOUBLE_EQ(gemm["offload"]["attainable"].get<double>(),
                   std::min(505e12, 25.25e9 * gemm["ai"].get<double>()));
  // The CPU's GEMV stays on the CPU's roofs.
  const std::vector<json> cpu = rows_of(doc, "placements", "cpu");
  ASSERT_EQ(cpu.size(), 1u);
  EXPECT_EQ(cpu[0]["backend"], "eigen");
}

// One placement for every target (issue 47): a device's points get what the CPU's get, from the same function.
TEST(Targets, ADevicesPointsArePlacedByTheCpusRulesOnItsOwnLevels) {
  json doc = load_json_file(kFile);
  for (json& e : doc["benchmarks"]) {  // test:0's 4 MiB GEMV twice as fast: above its HBM roof
    const json& l = e["labels"];
    if (l.value("target", "") == "test:0" && l.value("suite", "") == "gemm" && l.value("m", 0) == 1024) {
      e["flop_per_second"] = 2.0 * e["flop_per_second"].get<double>();
    }
  }
  doc["roofline"] = testing::derived_section(doc);
  const std::vector<json> placed = rows_of(doc, "placements", "test:0");
  const json& large = find_row(placed, "kernel", "gemv", "resident_level", "HBM");
  EXPECT_FALSE(large.contains("threads"));  // a device names no thread count
  ASSERT_EQ(large["roofs"].size(), 2u);     // against each of its own measured levels
  EXPECT_EQ(large["roofs"][0]["level"], "L2");
  EXPECT_EQ(large["roofs"][1]["level"], "HBM");
  EXPECT_TRUE(large["beats_roof"].get<bool>());
  const std::vector<json> violations = rows_of(doc, "roof_violations", "test:0");
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_EQ(violations[0]["note"], "A point beats its roof: testblas fp32 batch 1 reaches 2.40 TFLOP/s = 158% of its "
                                   "attainable 1.51 TFLOP/s (vector compute, HBM memory roof): a ceiling is missing or "
                                   "a count is wrong.");
  // Its sweeps' crossovers are predicted from its main memory's ridge, and its best backends are its own.
  const std::vector<json> crossovers = rows_of(doc, "crossovers", "test:0");
  ASSERT_EQ(crossovers.size(), 3u);
  EXPECT_DOUBLE_EQ(find_row(crossovers, "precision", "bf16")["ridge_ai"].get<double>(), 505e12 / 3.03e12);
  EXPECT_EQ(rows_of(doc, "best_backends", "test:0").size(), 2u);
  EXPECT_EQ(rows_of(doc, "roof_violations", "cpu").size(), 0u);
  EXPECT_EQ(classify_results(doc, "two_targets.json"), ResultsKind::roofline);
}

TEST(Targets, ADevicesMatrixPointWithoutAMatrixCeilingIsPlacedOnTheVectorOneAndSaysSo) {
  json doc = load_json_file(kFile);
  json kept = json::array();
  for (const json& e : doc["benchmarks"]) {
    const json& l = e["labels"];
    if (l.value("target", "") == "test:0" && l.value("suite", "") == "compute" && l.value("engine", "") == "matrix") continue;
    kept.push_back(e);
  }
  doc["benchmarks"] = kept;
  doc["roofline"] = testing::derived_section(doc);
  const std::vector<json> placed = rows_of(doc, "placements", "test:0");
  const json& gemm = find_row(placed, "kernel", "gemm");
  EXPECT_EQ(gemm["engine"], "matrix");
  EXPECT_EQ(gemm["roof"]["engine"], "vector");
  EXPECT_EQ(gemm["roof"]["engine_missing"], "matrix");
  const json& notes = doc["roofline"]["notes"];
  EXPECT_NE(std::find_if(notes.begin(), notes.end(), [](const json& n) {
              return n.get<std::string>().rfind("test:0: testblas bf16 ran on the matrix engine (its labels say)", 0) == 0;
            }), notes.end());
}

TEST(Targets, TransferCeilingsAndLaunchLatency) {
  const json doc = derived();
  const std::vector<json> t = rows_of(doc, "transfer_ceilings", "test:0");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_DOUBLE_EQ(find_row(t, "direction", "host_to_device", "memory", "pinned")["value"].get<double>(), 25.25e9);
  EXPECT_DOUBLE_EQ(find_row(t, "direction", "host_to_device", "memory", "pageable")["value"].get<double>(), 12.12e9);
  ASSERT_EQ(doc["roofline"]["launch_latency"].size(), 1u);
  EXPECT_DOUBLE_EQ(doc["roofline"]["launch_latency"][0]["seconds"].get<double>(), 5e-6);
  // The derived file passes the schema check it will meet when read.
  EXPECT_EQ(classify_results(doc, "two_targets.json"), ResultsKind::roofline);
}

TEST(Targets, KeyFiguresOfTheSecondTargetArePrefixed) {
  const std::vector<KeyFigure> figures = key_figures(testing::lenient(derived()));
  const auto has = [&](const std::string& id) {
    return std::any_of(figures.begin(), figures.end(), [&](const KeyFigure& f) { return f.id == id; });
  };
  EXPECT_TRUE(has("memory/DRAM/read/threads:1"));  // the CPU's ids unchanged
  EXPECT_TRUE(has("test:0/memory/HBM/read"));
  EXPECT_TRUE(has("test:0/compute/bf16/matrix"));
  EXPECT_TRUE(has("test:0/gemm/fp32/batch:1"));
  EXPECT_TRUE(has("test:0/transfer/host_to_device/pinned"));
  const auto launch = std::find_if(figures.begin(), figures.end(), [](const KeyFigure& f) { return f.id == "test:0/latency/launch"; });
  ASSERT_NE(launch, figures.end());
  EXPECT_FALSE(launch->higher_is_better);
}

TEST(Targets, CompareGatesTheSecondTargetsHbmRead) {
  const json base = derived();
  json next = load_json_file(kFile);
  for (json& e : next["benchmarks"]) {
    const json& l = e["labels"];
    if (l.value("target", "") == "test:0" && l.value("kernel", "") == "read" && e["working_set_bytes"].get<double>() > 4194304) {
      e["bytes_per_second"] = e["bytes_per_second"].get<double>() * 0.7;
    }
  }
  next["roofline"] = testing::derived_section(next);
  const Comparison c = compare_runs(typed(base), "base.json", typed(next), "next.json", CompareOptions{});
  const auto row = std::find_if(c.rows.begin(), c.rows.end(), [](const CompareRow& r) { return r.name == "test:0/memory/HBM/read"; });
  ASSERT_NE(row, c.rows.end());
  EXPECT_EQ(row->verdict, Verdict::regression);
  ASSERT_TRUE(c.gate.has_value());
  const auto fig = std::find_if(c.gate->figures.begin(), c.gate->figures.end(),
                                [](const FigureRow& f) { return f.figure.id == "test:0/memory/HBM/read"; });
  ASSERT_NE(fig, c.gate->figures.end());
  EXPECT_EQ(fig->verdict, Verdict::regression);
  EXPECT_EQ(c.gate->outcome, Outcome::regression);
}

TEST(Targets, FleetShowsTheSecondTargetsFigures) {
  FleetNode a{"node-a", std::nullopt, "a.json", true, "", read_results(derived(), "a.json")};
  FleetNode b{"node-b", std::nullopt, "b.json", true, "", read_results(derived(), "b.json")};
  const FleetAnalysis fleet = analyze_fleet({a, b}, FleetOptions{});
  ASSERT_EQ(fleet.results.size(), 2u);
  EXPECT_TRUE(fleet.results[0].cells.count("test:0/memory/HBM/read"));
  EXPECT_TRUE(fleet.results[1].cells.count("test:0/compute/fp32/vector"));
}

TEST(Targets, LlmTargetTakesThatTargetsCeilingsAndMemory) {
  const ResultsDocument doc = read_results(derived(), "two_targets.json");
  const ResultsDocument only = llm::select_target(doc, "test:0", "two_targets.json");
  ASSERT_TRUE(only.roofline && only.roofline->memory_ceilings);
  for (const MemoryCeilingRecord& c : *only.roofline->memory_ceilings) EXPECT_EQ(c.target, "test:0");
  // The typed memory levels (issue 61) are filtered as every typed table is, and none is left in `extra`.
  ASSERT_TRUE(doc.roofline->memory_levels && only.roofline->memory_levels);
  EXPECT_FALSE(only.roofline->extra.contains("memory_levels"));
  EXPECT_FALSE(only.roofline->memory_levels->empty());
  EXPECT_LT(only.roofline->memory_levels->size(), doc.roofline->memory_levels->size());  // the CPU's are gone
  for (const DetectedLevelRecord& l : *only.roofline->memory_levels) EXPECT_EQ(l.target, "test:0");
  // The tables the model does not type yet (in the section's extra) are filtered too.
  for (const auto& [key, rows] : only.roofline->extra.items()) {
    if (!rows.is_array()) continue;
    for (const json& r : rows) EXPECT_EQ(entry_target(r), "test:0") << key;
  }
  EXPECT_EQ(llm::targets_in(doc), (std::vector<std::string>{"cpu", "test:0"}));
  EXPECT_EQ(llm::targets_in(only), std::vector<std::string>{"test:0"});
  try {
    llm::select_target(doc, "gpu:9", "two_targets.json");
    ADD_FAILURE() << "selected a target the file does not have";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--target 'gpu:9': two_targets.json has no ceilings of that target (it has: cpu, test:0)");
  }
  const llm::TargetMemory m = llm::target_memory(doc, "test:0");
  EXPECT_DOUBLE_EQ(m.total_bytes, 85899345920.0);
  EXPECT_DOUBLE_EQ(llm::target_memory(doc, "cpu").total_bytes, 17179869184.0);
  // The roofs are the target's own: its levels by name, main memory last, no thread count, its memory.
  const llm::Roofs roofs = llm::read_roofs(only, "two_targets.json", 0, {Precision::bf16}, llm::RoofSource::peak);
  EXPECT_EQ(roofs.target, "test:0");
  EXPECT_EQ(roofs.threads, 0);
  ASSERT_EQ(roofs.levels.size(), 2u);
  EXPECT_EQ(roofs.levels[0].level, "L2");
  EXPECT_EQ(roofs.dram().level, "HBM");
  EXPECT_DOUBLE_EQ(roofs.dram().bandwidth, 3.03e12);
  EXPECT_DOUBLE_EQ(roofs.compute.at(Precision::bf16).value, 505e12);
  EXPECT_DOUBLE_EQ(roofs.memory_total_bytes, 85899345920.0);
  EXPECT_EQ(roofs.level_for(1 << 20).level, "L2");
  // The CPU's roofs of the same file stay the CPU's.
  const llm::Roofs cpu = llm::read_roofs(llm::select_target(doc, "cpu", "f"), "f", 0, {Precision::fp32}, llm::RoofSource::peak);
  EXPECT_EQ(cpu.threads, 1);
  EXPECT_EQ(cpu.dram().level, "DRAM");
}

TEST(Targets, ReportRendersEachTargetAfterTheCpu) {
  const std::string text = render_text_summary(typed(derived()));
  const std::size_t cpu = text.find("Compute ceilings\n"), target = text.find("Target test:0");
  ASSERT_NE(cpu, std::string::npos);
  ASSERT_NE(target, std::string::npos);
  EXPECT_LT(cpu, target);
  EXPECT_NE(text.find("Memory ceilings, test:0"), std::string::npos);
  EXPECT_NE(text.find("Host-device transfers, test:0"), std::string::npos);
  // Its points in the table the CPU's get, with no thread count and the roof were they offloaded.
  const std::size_t placed = text.find("GEMV/GEMM placements, test:0");
  ASSERT_NE(placed, std::string::npos);
  EXPECT_NE(text.find("% of roof", placed), std::string::npos);
  EXPECT_NE(text.find("(transfer, pinned)", placed), std::string::npos);
  // The HTML page charts the target's roofline on its own levels, after the CPU's chart.
  const std::string html = render_html_report(typed(derived()));
  const std::size_t cpu_chart = html.find("id=\"roofline-chart\""), chart = html.find("id=\"roofline-chart-test:0\"");
  ASSERT_NE(chart, std::string::npos);
  EXPECT_LT(cpu_chart, chart);
  EXPECT_NE(html.find("data-level=\"HBM\"", chart), std::string::npos);
  // ... with its host-to-device transfer roofs beside them; the CPU's chart has none.
  EXPECT_NE(html.find("class=\"ceiling transfer\" data-memory=\"pinned\" data-value=\"2.525e+10\"", chart),
            std::string::npos);
  EXPECT_EQ(html.substr(cpu_chart, chart - cpu_chart).find("ceiling transfer"), std::string::npos);
}

TEST(RecordedTargets, OldFilesHaveTheCpuSynthesizedFromTheMachine) {
  const ResultsDocument doc = typed(load_json_file(std::string(ROOFLINE_TEST_DATA_DIR) + "/report_full.json"));
  const std::vector<RecordedTarget> targets = recorded_targets(doc);
  ASSERT_EQ(targets.size(), 1u);
  const RecordedTarget& cpu = targets.front();
  EXPECT_TRUE(cpu.synthesized);
  EXPECT_EQ(cpu.id, "cpu");
  EXPECT_EQ(cpu.peak_model, "x86_pipes");
  EXPECT_EQ(cpu.main_memory(), "DRAM");
  EXPECT_EQ(cpu.name, host_facts(doc.context).cpu_model);
  EXPECT_EQ(to_json(target_document(doc, "cpu")), to_json(doc));  // one target: the file itself
}

TEST(RecordedTargets, TheTwoTargetFileGroupsEntriesByTarget) {
  const ResultsDocument doc = typed(load_json_file(kFile));
  const std::vector<RecordedTarget> targets = recorded_targets(doc);
  ASSERT_EQ(targets.size(), 2u);
  EXPECT_FALSE(targets.front().synthesized);
  ASSERT_NE(find_target(targets, "test:0"), nullptr);
  EXPECT_EQ(find_target(targets, "test:0")->memory_levels.size(), 2u);
  EXPECT_DOUBLE_EQ(find_target(targets, "test:0")->memory_levels[0].capacity_bytes, 4194304.0);
  EXPECT_TRUE(has_entries(doc, "test:0"));
  for (const BenchmarkEntry& e : target_document(doc, "test:0").benchmarks) EXPECT_EQ(target_of(e), "test:0");
  for (const BenchmarkEntry& e : target_document(doc, "cpu").benchmarks) EXPECT_EQ(target_of(e), "cpu");
}

TEST(RecordedTargets, TheHostAndTheDevicesAreAskedForNotNamed) {
  // What report, regress, llm and the derivation ask instead of which id is the CPU's (issue 47): the host CPU is
  // the first target, the devices the others.
  const ResultsDocument doc = typed(load_json_file(kFile));
  const std::vector<RecordedTarget> targets = recorded_targets(doc);
  ASSERT_EQ(targets.size(), 2u);
  EXPECT_TRUE(targets[0].is_cpu());
  EXPECT_EQ(targets[1].id, "test:0");
  // Every target's memory with where it comes from: the CPU's is the host's.
  EXPECT_EQ(targets.front().memory_total_bytes, host_facts(doc.context).memory_total_bytes);
  EXPECT_EQ(targets.front().memory_from, "the run's machine facts (context.machine)");
  EXPECT_EQ(targets[1].memory_from, "context.targets[test:0]");
  const ResultsDocument old = typed(load_json_file(std::string(ROOFLINE_TEST_DATA_DIR) + "/report_full.json"));
  EXPECT_EQ(recorded_targets(old).size(), 1u);
}

TEST(RecordedTargets, AMistypedTargetFieldIsInputErrorNamingIt) {
  json doc = load_json_file(kFile);
  doc["context"]["targets"][1]["compute_units"] = "many";
  try {
    classify_results(doc, "run.json");
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "run.json: context.targets[1].compute_units is not a number");
  }
  doc["context"]["targets"][1]["compute_units"] = 100;
  doc["context"]["targets"][1]["memory_levels"][0]["capacity_bytes"] = "4M";
  try {
    classify_results(doc, "run.json");
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "run.json: context.targets[1].memory_levels[0].capacity_bytes is not a number");
  }
}

}  // namespace
}  // namespace roofline
