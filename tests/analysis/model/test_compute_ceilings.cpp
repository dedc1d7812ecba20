// Compute ceilings from hand-made results: best per precision x threads, theoretical peaks from the
// measured clock and measured pipes, "not supported" rows, failures, and the >10%-above-theoretical flag.
#include <gtest/gtest.h>

#include <string>

#include "roofline/model/compute_ceilings.hpp"
#include "roofline/model/results_targets.hpp"
#include "roofline/model/roofline_section.hpp"
#include "support/notes.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
using nlohmann::json;

json entry(const std::string& suite, json labels, const std::string& counter, double value, bool error = false) {
  labels["suite"] = suite;
  json e = {{"name", suite + "/x"}, {"run_name", suite + "/x/min_time:0.020/repeats:5/real_time"},
            {"run_type", "iteration"}, {"labels", labels}, {counter, value}};
  if (error) {
    e["error_occurred"] = true;
    e["error_message"] = "thread 0 chain 1 lane 2 holds 3, expected 4";
  }
  return e;
}

json compute_labels(const std::string& precision, const std::string& isa, int bits, int threads, int opi,
                    const std::string& kernel = "fma") {
  return {{"kernel", kernel}, {"precision", precision}, {"isa", isa}, {"vector_bits", bits},
          {"threads", threads}, {"ops_per_instruction", opi}, {"variant", kernel + "_" + precision + "_" + isa}};
}

// Clock 3.0 GHz on 1 thread, 2.8 GHz on 2; fp32 at 98% / 97% of 2 pipes of 512 bits; fp32 avx2 at 99%;
// int8 at 120% of 2 pipes (a counting bug); a failed bf16 kernel; fp16 not supported.
json synthetic(const std::string& uarch = "sapphire_rapids") {
  json benchmarks = json::array();
  benchmarks.push_back(entry("clock", {{"kernel", "clock"}, {"threads", 1}}, "clock_hz", 2.9e9));
  benchmarks.push_back(entry("clock", {{"kernel", "clock"}, {"threads", 1}}, "clock_hz", 3.0e9));
  benchmarks.push_back(entry("clock", {{"kernel", "clock"}, {"threads", 2}}, "clock_hz", 2.8e9));
  for (double f : {0.90, 0.98, 0.95}) {
    benchmarks.push_back(entry("compute", compute_labels("fp32", "avx512", 512, 1, 32), "flop_per_second",
                               f * 2 * 32 * 3.0e9));
  }
  benchmarks.push_back(entry("compute", compute_labels("fp32", "avx512", 512, 2, 32), "flop_per_second",
                             0.97 * 2 * 2 * 32 * 2.8e9));
  benchmarks.push_back(entry("compute", compute_labels("fp32", "avx2", 256, 1, 16), "flop_per_second",
                             0.99 * 2 * 16 * 3.0e9));
  benchmarks.push_back(entry("compute", compute_labels("int8", "avx512", 512, 1, 128, "dot"), "op_per_second",
                             1.2 * 2 * 128 * 3.0e9));
  benchmarks.push_back(entry("compute", compute_labels("bf16", "avx512", 512, 1, 64, "dot"), "flop_per_second",
                             1e9, /*error=*/true));
  json ctx = {{"schema_version", 1},
              {"threads", {1, 2}},
              {"machine", {{"microarchitecture", uarch}}},
              {"suites",
               {{"compute",
                 {{"not_supported",
                   {{{"precision", "fp16"}, {"isa", "avx512"}, {"vector_bits", 512}, {"kernel", "fma"},
                     {"ops_per_instruction", 64}, {"reason", "CPU lacks the feature"}}}}}}}}};
  return {{"context", ctx}, {"benchmarks", benchmarks}};
}

const json* find_row(const json& rows, const std::string& precision, const std::string& isa, int bits, int threads) {
  for (const json& r : rows) {
    if (r["precision"] == precision && r["isa"] == isa && r["vector_bits"] == bits && r["threads"] == threads) {
      return &r;
    }
  }
  return nullptr;
}

TEST(ComputeCeilings, PureHelpers) {
  EXPECT_EQ(plausible_pipes(1.96), 2.0);
  EXPECT_EQ(plausible_pipes(2.04), 2.0);
  EXPECT_EQ(plausible_pipes(2.4), 2.0);
  EXPECT_EQ(plausible_pipes(0.98), 1.0);
  EXPECT_EQ(plausible_pipes(0.27), 0.25);
  EXPECT_EQ(plausible_pipes(0.0), 0.0);
  EXPECT_DOUBLE_EQ(theoretical_peak(2, 3.0e9, 64), 384e9);
  EXPECT_TRUE(exceeds_theoretical(111.0, 100.0));
  EXPECT_FALSE(exceeds_theoretical(109.0, 100.0));
  EXPECT_FALSE(exceeds_theoretical(1.0, 0.0));
  EXPECT_EQ(known_pipes("zen4", "fma", "fp32", "avx512", 512), std::vector<double>{1.0});
  EXPECT_EQ(known_pipes("zen4", "fma", "fp64", "avx2", 256), std::vector<double>{2.0});
  EXPECT_EQ(known_pipes("sapphire_rapids", "dot", "int8", "avx512", 512), std::vector<double>{2.0});
  EXPECT_TRUE(known_pipes("", "fma", "fp32", "avx512", 512).empty());
  EXPECT_TRUE(known_pipes("sapphire_rapids", "dot", "bf16", "avx512", 512).empty());
}

TEST(ComputeCeilings, BestPerPrecisionAndThreadsWithTheoreticalPeak) {
  const json out = testing::derived_compute(synthetic());
  const json* fp32_1 = find_row(out["compute_ceilings"], "fp32", "avx512", 512, 1);
  ASSERT_NE(fp32_1, nullptr);
  EXPECT_DOUBLE_EQ((*fp32_1)["value"].get<double>(), 0.98 * 2 * 32 * 3.0e9);  // best repetition
  EXPECT_DOUBLE_EQ((*fp32_1)["clock_hz"].get<double>(), 3.0e9);               // best clock
  EXPECT_DOUBLE_EQ((*fp32_1)["ops_per_cycle_per_core"].get<double>(), 64.0);  // 2 pipes x 32 FLOP
  EXPECT_DOUBLE_EQ((*fp32_1)["theoretical"].get<double>(), 192e9);
  EXPECT_NEAR((*fp32_1)["percent"].get<double>(), 98.0, 1e-9);
  EXPECT_EQ((*fp32_1)["unit"], "FLOP/s");

  const json* fp32_2 = find_row(out["compute_ceilings"], "fp32", "avx512", 512, 2);
  ASSERT_NE(fp32_2, nullptr);
  EXPECT_DOUBLE_EQ((*fp32_2)["theoretical"].get<double>(), 2 * 2.8e9 * 64);  // clock at 2 threads
  EXPECT_NEAR((*fp32_2)["percent"].get<double>(), 97.0, 1e-9);

  const json* int8 = find_row(out["compute_ceilings"], "int8", "avx512", 512, 1);
  ASSERT_NE(int8, nullptr);
  EXPECT_EQ((*int8)["unit"], "OP/s");

  bool fp32_peak = false;
  for (const json& p : out["theoretical_peaks"]) {
    if (p["precision"] == "fp32" && p["threads"] == 1) {
      fp32_peak = true;
      EXPECT_DOUBLE_EQ(p["value"].get<double>(), 192e9);
      EXPECT_EQ(p["isa"], "avx512");
    }
  }
  EXPECT_TRUE(fp32_peak);
}

TEST(ComputeCeilings, TableHasEveryRowIncludingUnsupportedAndFailed) {
  const json out = testing::derived_compute(synthetic());
  const json& table = out["compute_table"];
  const json* avx2 = find_row(table, "fp32", "avx2", 256, 1);
  ASSERT_NE(avx2, nullptr);
  EXPECT_EQ((*avx2)["status"], "measured");
  EXPECT_NEAR((*avx2)["percent"].get<double>(), 99.0, 1e-9);
  EXPECT_EQ((*avx2)["pipes"], 2.0);
  for (int threads : {1, 2}) {
    const json* fp16 = find_row(table, "fp16", "avx512", 512, threads);
    ASSERT_NE(fp16, nullptr) << threads;
    EXPECT_EQ((*fp16)["status"], "not supported");
    EXPECT_TRUE((*fp16)["value"].is_null());
    EXPECT_EQ((*fp16)["reason"], "CPU lacks the feature");
  }
  const json* bf16 = find_row(table, "bf16", "avx512", 512, 1);
  ASSERT_NE(bf16, nullptr);
  EXPECT_EQ((*bf16)["status"], "failed");
  EXPECT_TRUE((*bf16)["value"].is_null());
  EXPECT_NE((*bf16)["reason"].get<std::string>().find("expected 4"), std::string::npos);
  EXPECT_EQ(find_row(out["compute_ceilings"], "bf16", "avx512", 512, 1), nullptr);
}

TEST(ComputeCeilings, MoreThanTenPercentAboveTheoreticalIsFlagged) {
  const json out = testing::derived_compute(synthetic());
  const json* int8 = find_row(out["compute_table"], "int8", "avx512", 512, 1);
  ASSERT_NE(int8, nullptr);
  EXPECT_TRUE((*int8)["exceeds_theoretical"].get<bool>());
  EXPECT_NEAR((*int8)["percent"].get<double>(), 120.0, 1e-9);
  const json* fp32 = find_row(out["compute_table"], "fp32", "avx512", 512, 1);
  EXPECT_FALSE((*fp32)["exceeds_theoretical"].get<bool>());
  EXPECT_TRUE(testing::any_note_has(out["notes"], "counting bug"));
}

TEST(ComputeCeilings, TableDisagreementIsNotedAndFlagsAboveTheKnownPeak) {
  // On Zen 4, 512-bit FMA is 1 per cycle: 2 measured pipes disagree with the table, and the value is
  // ~2x the table's theoretical peak, so it is flagged even though it matches the measured pipes.
  const json out = testing::derived_compute(synthetic("zen4"));
  const json* fp32 = find_row(out["compute_table"], "fp32", "avx512", 512, 1);
  ASSERT_NE(fp32, nullptr);
  // The row is 98% of the peak of its 2 measured pipes, so only the table's 1 pipe can flag it (196% of
  // 1 x 32 FLOP x 3.0 GHz); a microarchitecture whose table says 2 (Sapphire Rapids) does not.
  EXPECT_EQ((*fp32)["pipes"], 2.0);
  EXPECT_NEAR((*fp32)["percent"].get<double>(), 98.0, 1e-9);
  EXPECT_TRUE((*fp32)["exceeds_theoretical"].get<bool>());
  EXPECT_TRUE(testing::any_note_has(out["notes"], "measures 98% of the theoretical peak"));
  const json agreeing = testing::derived_compute(synthetic("sapphire_rapids"));
  const json* spr = find_row(agreeing["compute_table"], "fp32", "avx512", 512, 1);
  ASSERT_NE(spr, nullptr);
  EXPECT_FALSE((*spr)["exceeds_theoretical"].get<bool>());
  EXPECT_FALSE(testing::any_note_has(agreeing["notes"], "sapphire_rapids table"));
  EXPECT_TRUE(testing::any_note_has(out["notes"], "zen4 table"));
}

TEST(ComputeCeilings, UnknownMicroarchitectureAndEmptyResults) {
  const json out = testing::derived_compute(synthetic(""));
  EXPECT_FALSE(out["compute_ceilings"].empty());
  const json empty = testing::derived_compute(json{{"context", json::object()}, {"benchmarks", json::array()}});
  EXPECT_TRUE(empty["compute_ceilings"].empty());
  EXPECT_TRUE(empty["compute_table"].empty());
  const json nothing = testing::derived_compute(json::object());
  EXPECT_TRUE(nothing["compute_ceilings"].empty());
}

TEST(ComputeCeilings, FeedsTheRooflineSection) {
  const json section = testing::derived_section(synthetic());
  const RooflineSection typed = read_roofline_section(section, "test.json");
  const ComputeCeilingRecord* roof = compute_roof(typed, "fp32", 2);
  ASSERT_NE(roof, nullptr);
  EXPECT_EQ(roof->isa.value_or(""), "avx512");
  EXPECT_TRUE(section.contains("theoretical_peaks"));
  // The table is typed rows (ComputeRowRecord, issue 61), its nulls kept, written back to the same text.
  ASSERT_TRUE(typed.compute_table.has_value());
  EXPECT_FALSE(typed.extra.contains("compute_table"));
  EXPECT_EQ(typed.compute_table->size(), section["compute_table"].size());
  EXPECT_EQ(to_json(typed).dump(), section.dump());
}

// An ARM64 core's rows (a Neoverse V1 at 2.6 GHz, one thread): SDOT and SMMLA on the same 128-bit registers, BFDOT
// and BFMMLA, and SVE's fp64 FMLA at the 256 bits the run found. A matrix multiply is a row beside its dot product, the
// precision's ceiling the best of them, and the table names each by its kernel and ISA.
TEST(ComputeCeilings, ArmMatrixMultipliesAreRowsBesideTheirDotProducts) {
  const double hz = 2.6e9;
  json benchmarks = json::array();
  benchmarks.push_back(entry("clock", {{"kernel", "clock"}, {"threads", 1}}, "clock_hz", hz));
  benchmarks.push_back(entry("compute", compute_labels("int8", "neon", 128, 1, 32, "dot"), "op_per_second", 4 * 32 * hz));
  benchmarks.push_back(entry("compute", compute_labels("int8", "neon", 128, 1, 64, "mmla"), "op_per_second", 4 * 64 * hz));
  benchmarks.push_back(entry("compute", compute_labels("bf16", "neon", 128, 1, 16, "dot"), "flop_per_second", 4 * 16 * hz));
  benchmarks.push_back(entry("compute", compute_labels("bf16", "neon", 128, 1, 32, "mmla"), "flop_per_second", 2 * 32 * hz));
  benchmarks.push_back(entry("compute", compute_labels("fp64", "sve", 256, 1, 8), "flop_per_second", 2 * 8 * hz));
  const json ctx = {{"schema_version", 1}, {"threads", {1}}, {"machine", {{"microarchitecture", "neoverse_v1"}}}};
  const json out = testing::derived_compute(json{{"context", ctx}, {"benchmarks", benchmarks}});
  int int8_rows = 0, bf16_rows = 0;
  for (const json& r : out["compute_table"]) {
    if (r["precision"] == "int8") {
      ++int8_rows;
      EXPECT_EQ(r["isa"], "neon");
      EXPECT_EQ(r["engine"], "vector");
      EXPECT_EQ(r["vector_bits"], 128);
      EXPECT_EQ(r["ops_per_instruction"], r["kernel"] == "mmla" ? 64 : 32);
      EXPECT_EQ(r["pipes"], 4.0);
    }
    if (r["precision"] == "bf16") ++bf16_rows;
  }
  EXPECT_EQ(int8_rows, 2);
  EXPECT_EQ(bf16_rows, 2);
  const json* int8 = find_row(out["compute_ceilings"], "int8", "neon", 128, 1);
  ASSERT_NE(int8, nullptr);
  EXPECT_DOUBLE_EQ((*int8)["value"].get<double>(), 4 * 64 * hz);  // SMMLA's, twice SDOT's
  const json* bf16 = find_row(out["compute_ceilings"], "bf16", "neon", 128, 1);
  ASSERT_NE(bf16, nullptr);
  EXPECT_DOUBLE_EQ((*bf16)["value"].get<double>(), 4 * 16 * hz);  // BFDOT's here
  const json* sve = find_row(out["compute_ceilings"], "fp64", "sve", 256, 1);
  ASSERT_NE(sve, nullptr);
  EXPECT_EQ((*sve)["unit"], "FLOP/s");
  EXPECT_TRUE(testing::any_note_has(out["notes"], "SMMLA (2x8 by 8x2 int8) = 64 OP"));
  // An x86 file has no ARM64 note.
  EXPECT_FALSE(testing::any_note_has(testing::derived_compute(synthetic())["notes"], "ARM64"));
}

TEST(ComputeCeilings, ArmRowsAreCheckedAgainstTheArmPipeTable) {
  // NEON fp32 FMA at 4 instructions per cycle: Neoverse V2's table says 4 pipes (agrees), N1's says 2 (the row is
  // then twice the table's peak: flagged, and the disagreement noted), as the x86 rows are against theirs.
  const double hz = 3.0e9;
  const auto file = [&](const std::string& uarch) {
    json benchmarks = json::array();
    benchmarks.push_back(entry("clock", {{"kernel", "clock"}, {"threads", 1}}, "clock_hz", hz));
    benchmarks.push_back(entry("compute", compute_labels("fp32", "neon", 128, 1, 8), "flop_per_second", 4 * 8 * hz));
    const json ctx = {{"schema_version", 1}, {"threads", {1}}, {"machine", {{"microarchitecture", uarch}}}};
    return testing::derived_compute(json{{"context", ctx}, {"benchmarks", benchmarks}});
  };
  const json v2 = file("neoverse_v2");
  const json* agrees = find_row(v2["compute_table"], "fp32", "neon", 128, 1);
  ASSERT_NE(agrees, nullptr);
  EXPECT_EQ((*agrees)["known_pipes"], json::array({4.0}));
  EXPECT_FALSE((*agrees)["exceeds_theoretical"].get<bool>());
  EXPECT_FALSE(testing::any_note_has(v2["notes"], "neoverse_v2 table"));
  const json n1 = file("neoverse_n1");
  const json* above = find_row(n1["compute_table"], "fp32", "neon", 128, 1);
  ASSERT_NE(above, nullptr);
  EXPECT_EQ((*above)["known_pipes"], json::array({2.0}));
  EXPECT_TRUE((*above)["exceeds_theoretical"].get<bool>());
  EXPECT_TRUE(testing::any_note_has(n1["notes"], "the neoverse_n1 table says 2"));
  // A core the table does not know: the measured pipes alone, as on x86.
  const json a53 = file("cortex_a53");
  const json* unknown = find_row(a53["compute_table"], "fp32", "neon", 128, 1);
  ASSERT_NE(unknown, nullptr);
  EXPECT_TRUE((*unknown)["known_pipes"].empty());
}

// Two targets whose facts name their peak models: the host CPU ("cpu", 2 cores at 3 GHz, 64 FLOP per core per
// clock in fp32) and a device ("dev:0", 4 units at 1 GHz, 128 FLOP per unit per clock), each with its own compute
// entries: the CPU's name their isa, width and threads, the device's none.
json two_targets(const std::string& cpu_model, const std::string& device_model) {
  const auto facts = [](const std::string& id, const std::string& model, long long units, double hz, double ops) {
    return json{{"target", id}, {"kind", id == "dev:0" ? "gpu" : "cpu"}, {"name", id}, {"compute_units", units},
                {"clock_hz", hz}, {"memory_levels", {{{"name", "DRAM"}, {"capacity_bytes", 0}, {"shared", true}}}},
                {"peak_model", model}, {"ops_per_unit_per_clock", {{"fp32/vector", ops}}}};
  };
  json doc = synthetic();
  doc["context"]["targets"] = {facts("cpu", cpu_model, 2, 3.0e9, 64), facts("dev:0", device_model, 4, 1.0e9, 128)};
  for (double v : {400e9, 500e9, 450e9}) {
    json e = entry("compute", {{"precision", "fp32"}, {"engine", "vector"}, {"target", "dev:0"}}, "flop_per_second", v);
    e["clock_hz"] = v == 500e9 ? 0.9e9 : 1.1e9;  // the best repetition ran at 0.9 GHz
    doc["benchmarks"].push_back(e);
  }
  return doc;
}

const json& ceiling_of(const json& section, const std::string& target, const std::string& precision, int threads) {
  for (const json& c : section["compute_ceilings"]) {
    if (c.value("target", "") == target && c["precision"] == precision && c.value("threads", 0) == threads) return c;
  }
  static const json kNone;
  return kNone;
}

TEST(ComputeCeilings, EveryTargetGoesThroughOneDerivationItsPeakModelDecides) {
  // The device: compute units x the clock beside its best repetition x the facts' operations, one row of no isa,
  // width or threads, and none of the CPU instructions' counting notes.
  const json doc = two_targets("x86_pipes", "units_clock");
  const ResultsDocument typed_doc = read_records(doc, "test.json", ReadMode::lenient, false);
  const std::vector<RecordedTarget> targets = recorded_targets(typed_doc);
  const json device = derive_compute_ceilings(target_document(typed_doc, "dev:0"), *find_target(targets, "dev:0"));
  ASSERT_EQ(device["compute_ceilings"].size(), 1u);
  const json& d = device["compute_ceilings"][0];
  EXPECT_EQ(d["target"], "dev:0");
  EXPECT_DOUBLE_EQ(d["value"].get<double>(), 500e9);
  EXPECT_DOUBLE_EQ(d["median"].get<double>(), 450e9);
  EXPECT_DOUBLE_EQ(d["theoretical"].get<double>(), 4 * 0.9e9 * 128);
  EXPECT_EQ(d["clock_source"], "measured");
  EXPECT_EQ(d["isa"], "");
  EXPECT_FALSE(d.contains("threads"));
  EXPECT_EQ(d["vector_bits"], 0);
  EXPECT_FALSE(testing::any_note_has(device["notes"], "FMA = 2 FLOP"));
  EXPECT_FALSE(device.contains("matrix_engine"));
  // The section's device ceilings are that derivation's, and the CPU's are the x86 model's (measured pipes).
  const json section = testing::derived_section(doc);
  EXPECT_EQ(ceiling_of(section, "dev:0", "fp32", 0), d);
  EXPECT_DOUBLE_EQ(ceiling_of(section, "cpu", "fp32", 1)["theoretical"].get<double>(), 2 * 32 * 3.0e9);
  EXPECT_TRUE(testing::any_note_has(section["notes"], "FMA = 2 FLOP"));
}

TEST(ComputeCeilings, TheFactsPeakModelNotTheIdChoosesTheTheoreticalPeak) {
  // The CPU listed with "units_clock" facts: 2 cores x its clock (the clock suite's at 1 thread, 3.0 GHz) x 64, not
  // its measured pipes; its median and clock source said as a device's are.
  const json section = testing::derived_section(two_targets("units_clock", "units_clock"));
  const json& cpu = ceiling_of(section, "cpu", "fp32", 1);
  EXPECT_DOUBLE_EQ(cpu["theoretical"].get<double>(), 2 * 3.0e9 * 64);
  EXPECT_EQ(cpu["clock_source"], "measured");
  EXPECT_FALSE(cpu.contains("ops_per_cycle_per_core"));
  EXPECT_FALSE(section.contains("matrix_engine"));
  // A device whose facts name "x86_pipes" gets the x86 model: its rows name no instruction, so no pipes, no peak.
  const json x86_device = testing::derived_section(two_targets("x86_pipes", "x86_pipes"));
  const json& d = ceiling_of(x86_device, "dev:0", "fp32", 0);
  EXPECT_TRUE(d["theoretical"].is_null());
  EXPECT_TRUE(d.contains("ops_per_cycle_per_core"));
  // A model analysis does not know: no peak, said.
  const json unknown = testing::derived_section(two_targets("x86_pipes", "abacus"));
  EXPECT_TRUE(ceiling_of(unknown, "dev:0", "fp32", 0)["theoretical"].is_null());
  EXPECT_TRUE(testing::any_note_has(unknown["notes"], "peak model 'abacus'"));
}

// The x86 model and the matrix-engine summary read the facts of the target they derive for, which for the CPU are
// the host's (context.machine) whether it is synthesized or listed in context.targets; a device's are empty.
TEST(ComputeCeilings, TheX86ModelReadsItsTargetsFacts) {
  json doc = two_targets("x86_pipes", "units_clock");
  doc["context"]["machine"] = {{"microarchitecture", "zen4"},
                               {"isa", {{"amx_tile", true}}},
                               {"amx", {{"status", "permission refused"}, {"source", "arch_prctl"}}}};
  for (const bool listed : {true, false}) {
    json d = doc;
    if (!listed) d["context"].erase("targets");
    const ResultsDocument typed_doc = read_records(d, "test.json", ReadMode::lenient, false);
    const std::vector<RecordedTarget> targets = recorded_targets(typed_doc);
    const RecordedTarget& cpu = targets.front();
    EXPECT_EQ(cpu.synthesized, !listed);
    EXPECT_EQ(cpu.microarchitecture, "zen4");
    EXPECT_EQ(cpu.matrix_engine_status, "permission refused");
    EXPECT_EQ(cpu.matrix_engine_source, "arch_prctl");
    EXPECT_TRUE(cpu.matrix_engine_advertised);
    const json out = derive_compute_ceilings(target_document(typed_doc, cpu.id), cpu);
    EXPECT_TRUE((*find_row(out["compute_table"], "fp32", "avx512", 512, 1))["exceeds_theoretical"].get<bool>());
    EXPECT_TRUE(testing::any_note_has(out["notes"], "zen4 table"));
    EXPECT_TRUE(testing::any_note_has(out["matrix_engine"]["lines"], "AMX is permission refused on this machine "
                                                                     "(arch_prctl)"));
  }
  const ResultsDocument typed_doc = read_records(doc, "test.json", ReadMode::lenient, false);
  const std::vector<RecordedTarget> targets = recorded_targets(typed_doc);
  const RecordedTarget& device = *find_target(targets, "dev:0");
  EXPECT_TRUE(device.microarchitecture.empty() && device.matrix_engine_status.empty());
  EXPECT_FALSE(device.matrix_engine_advertised);
  // Other facts for the same CPU: the derivation follows them, not the host's.
  RecordedTarget other = targets.front();
  other.microarchitecture = "sapphire_rapids";
  other.matrix_engine_status = "";
  const json spr = derive_compute_ceilings(target_document(typed_doc, other.id), other);
  EXPECT_FALSE((*find_row(spr["compute_table"], "fp32", "avx512", 512, 1))["exceeds_theoretical"].get<bool>());
  EXPECT_FALSE(testing::any_note_has(spr["notes"], "zen4 table"));
  EXPECT_TRUE(testing::any_note_has(spr["matrix_engine"]["lines"], "although the CPU advertises AMX"));
  other.matrix_engine_advertised = false;
  const json unadvertised = derive_compute_ceilings(target_document(typed_doc, other.id), other);
  EXPECT_TRUE(testing::any_note_has(unadvertised["matrix_engine"]["lines"],
                                    "the CPU does not advertise AMX"));
}

}  // namespace
}  // namespace roofline
