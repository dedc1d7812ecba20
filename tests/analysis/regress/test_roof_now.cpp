// The roof of the moment (issue 33, roof_now.hpp): a GEMV placed against the read probes taken around its
// repetitions as well as the run's roof; both fractions in the placement, the report table and the CSV; the
// per-backend "of roof now" key figure, trusted by the gate when the memory state moved, so that a machine
// whose memory got slower is not a regression while a backend that got slower is; bad probe fields are
// bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "roofline/regress/compare_gate.hpp"
#include "roofline/model/key_figures.hpp"
#include "roofline/model/placement.hpp"
#include "roofline/report/report.hpp"
#include "roofline/report/report_tables.hpp"
#include "roofline/model/results_schema.hpp"
#include "roofline/model/roof_now.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/common/units.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
using nlohmann::json;
using testing::typed_fragment;

constexpr double kPeak = 200e9;  // FLOP/s, fp32, 2 threads
constexpr double kDram = 60e9;   // B/s: the run's DRAM read roof
constexpr double kM = 4096, kK = 4096;
const std::string kNowId = "gemm/fp32/eigen/batch:1/threads:2/of_roof_now";

double ai_gemv() { return 2 * kM * kK / ((kM * kK + kK + kM) * 4); }

json probe(double best, std::vector<double> others = {}) {
  others.push_back(best);
  return {{"kernel", "read"}, {"threads", 2}, {"working_set_bytes", static_cast<std::int64_t>(kM * kK * 4)}, {"bytes_per_second", best},
          {"samples", others}};
}

// One GEMV entry per repetition at `value`, its probes `before` and `after` (B/s); no probes when both are 0.
json gemv_entries(const std::string& backend, double value, double before, double after) {
  json out = json::array();
  for (int r = 0; r < 5; ++r) {
    json e = {{"name", "gemm/" + backend + "/fp32/threads:2/m:4096/k:4096/batch:1"},
              {"run_type", "iteration"},
              {"repetition_index", r},
              {"labels", {{"suite", "gemm"}, {"kernel", "gemv"}, {"backend", backend}, {"precision", "fp32"},
                          {"threads", 2}, {"m", static_cast<int>(kM)}, {"n", 1}, {"k", static_cast<int>(kK)}, {"batch", 1}, {"a_bytes", 4},
                          {"b_bytes", 4}, {"c_bytes", 4}, {"implementation", "test"}}},
              {"flop_per_second", value * (1.0 + 0.001 * r)},
              {"arithmetic_intensity", ai_gemv()}};
    if (before > 0.0) e["roof_now"] = {{"before", probe(before, {0.99 * before})}, {"after", probe(after, {0.99 * after})}};
    out.push_back(e);
  }
  return out;
}

json section() {
  return {{"compute_ceilings", {{{"precision", "fp32"}, {"threads", 2}, {"value", kPeak}}}},
          {"memory_ceilings", {{{"level", "DRAM"}, {"kernel", "read"}, {"threads", 2}, {"value", kDram}, {"plateau_median", kDram}}}}};
}

// A whole run: the eigen and onednn GEMVs with their probes, derived, with a steady canary at `canary` B/s.
// `memory` scales the DRAM state of the run (the roof, the probes and the GEMVs alike); `eigen` the eigen GEMV alone.
json run(double memory, double eigen = 1.0, double canary = 50e9) {
  json doc = {{"context", {{"environment", {{"steal_fraction", 0.0}, {"other_busy_fraction", 0.0},
                                            {"canary", {{"kernel", "triad"}, {"start", canary}, {"end", canary}}}}}}},
              {"benchmarks", json::array()}};
  const double bw = kDram * memory;
  for (json& e : gemv_entries("eigen", 0.7 * bw * ai_gemv() * eigen, bw, 1.01 * bw)) doc["benchmarks"].push_back(e);
  for (json& e : gemv_entries("onednn", 0.8 * bw * ai_gemv(), bw, 1.01 * bw)) doc["benchmarks"].push_back(e);
  json s = section();
  s["memory_ceilings"][0]["value"] = bw;
  s["memory_ceilings"][0]["plateau_median"] = bw;
  const json placed = testing::derived_placements(doc, s);
  s["placements"] = placed["placements"];
  s["notes"] = placed["notes"];
  doc["roofline"] = s;
  return doc;
}

const json& placement(const json& doc, const std::string& backend) {
  for (const json& p : doc["roofline"]["placements"]) {
    if (p["backend"] == backend) return p;
  }
  static const json none;
  ADD_FAILURE() << "no placement " << backend;
  return none;
}

const FigureRow& row(const Gate& g, const std::string& id) {
  const auto it = std::find_if(g.figures.begin(), g.figures.end(), [&](const FigureRow& r) { return r.figure.id == id; });
  if (it == g.figures.end()) throw std::runtime_error("no figure " + id);
  return *it;
}

TEST(RoofNow, ReadsTheProbesAndSaysWhenMemoryMoved) {
  json e = gemv_entries("eigen", 10e9, 60e9, 61e9)[0];
  const std::optional<RoofNow> r = read_roof_now(e);
  ASSERT_TRUE(r.has_value());
  EXPECT_DOUBLE_EQ(r->bandwidth(), 60.5e9);
  EXPECT_NEAR(r->spread(), 1.0 / 60.0, 1e-12);
  EXPECT_NEAR(r->noise(), 1.0 / 0.99 - 1.0, 1e-12);  // best / next best
  EXPECT_FALSE(r->moved());
  e["roof_now"]["after"] = probe(45e9, {44e9});
  EXPECT_TRUE(read_roof_now(e)->moved());  // 25% apart, beyond the 5% floor and their noise
  // Probes whose own samples are that noisy do not say memory moved.
  e["roof_now"]["after"] = probe(45e9, {20e9, 33e9});
  e["roof_now"]["before"] = probe(60e9, {30e9});
  EXPECT_FALSE(read_roof_now(e)->moved());
  // No probes, or one missing (a failed probe): nothing to place against.
  EXPECT_FALSE(read_roof_now(json{{"labels", json::object()}}).has_value());
  e["roof_now"]["after"] = nullptr;
  EXPECT_FALSE(read_roof_now(e).has_value());
}

TEST(RoofNow, AFieldOfTheWrongTypeIsBadInput) {
  json e = gemv_entries("eigen", 10e9, 60e9, 61e9)[0];
  json bad = e;
  bad["roof_now"] = "fast";
  EXPECT_THROW(read_roof_now(bad), InputError);
  bad = e;
  bad["roof_now"]["before"]["bytes_per_second"] = "60 GB/s";
  EXPECT_THROW(read_roof_now(bad), InputError);
  bad = e;
  bad["roof_now"]["after"]["samples"] = {1.0, -2.0};
  EXPECT_THROW(read_roof_now(bad), InputError);
  bad = e;
  bad["roof_now"]["before"]["bytes_per_second"] = 0;
  EXPECT_THROW(read_roof_now(bad), InputError);
}

// The probes' one reader reads the typed entry (issue 61: no entry -> JSON -> reader round trip): the records' typed
// probes, and what the lenient reader kept in `extra` (a mistyped or unknown field) refused naming it.
TEST(RoofNow, TheTypedEntrysProbesAreReadAndAMistypedOneRefused) {
  json e = gemv_entries("eigen", 10e9, 60e9, 61e9)[0];
  const auto typed_entry = [](const json& entry) {
    BenchmarkEntry t;
    for (const auto& [key, v] : entry.items()) set_field(t, key, v);
    return t;
  };
  const std::optional<RoofNow> r = read_roof_now(typed_entry(e));
  ASSERT_TRUE(r.has_value());
  EXPECT_DOUBLE_EQ(r->bandwidth(), 60.5e9);
  EXPECT_EQ(r->kernel, "read");
  ASSERT_TRUE(typed_entry(e).roof_now && typed_entry(e).roof_now->before);
  const RoofProbeRecord before = read_roof_probe(*typed_entry(e).roof_now->before, "roof_now.before");
  EXPECT_EQ(before.bytes_per_second, 60e9);
  EXPECT_FALSE(before.samples.empty());
  const auto message = [&](const json& entry) {
    try {
      (void)read_roof_now(typed_entry(entry));
    } catch (const InputError& ex) {
      return std::string(ex.what());
    }
    return std::string("accepted");
  };
  json bad = e;
  bad["roof_now"]["before"]["flavour"] = 1;
  EXPECT_EQ(message(bad), "roof_now.before: 'flavour' is not a field of a probe");
  bad = e;
  bad["roof_now"]["after"]["samples"] = {1.0, "2"};
  EXPECT_EQ(message(bad), "roof_now.after: a sample is not a positive number");
  bad = e;
  bad["roof_now"]["after"]["samples"] = "many";
  EXPECT_EQ(message(bad), "roof_now.after: 'samples' is not an array");
  bad = e;
  bad["roof_now"]["before"]["threads"] = 1.5;
  EXPECT_EQ(message(bad), "roof_now.before: 'threads' is not a positive integer");
  bad = e;
  bad["roof_now"]["before"]["kernel"] = 7;
  EXPECT_EQ(message(bad), "roof_now.before: 'kernel' is not a string");
  bad = e;
  bad["roof_now"]["after"] = "fast";
  EXPECT_EQ(message(bad), "roof_now.after is not an object");
  bad = e;
  bad["roof_now"] = nullptr;
  EXPECT_EQ(message(bad), "roof_now is not an object");
  bad = e;
  bad["roof_now"]["before"]["kernel"] = nullptr;  // null: absent, the default kernel
  EXPECT_EQ(message(bad), "accepted");
}

// A results file with probes passes the file's schema (roofline report/compare read it); a wrong field is bad input
// naming the entry.
TEST(RoofNow, TheSchemaReadsTheProbes) {
  json doc = run(1.0);
  doc["schema_version"] = 1;
  EXPECT_NO_THROW(check_input_fields(doc, "run.json"));
  doc["benchmarks"][3]["roof_now"]["after"]["bytes_per_second"] = "fast";
  try {
    check_input_fields(doc, "run.json");
    ADD_FAILURE() << "a string bandwidth was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("benchmarks[3].roof_now.after: 'bytes_per_second' is missing or not a positive number"),
              std::string::npos) << e.what();
  }
}

TEST(RoofNow, APlacementCarriesBothFractions) {
  // The run's roof was measured in the fast state (60 GB/s); the GEMV and its probes ran in the slow one.
  json doc = {{"benchmarks", gemv_entries("eigen", 0.7 * 36e9 * ai_gemv(), 36e9, 36.4e9)}};
  const json out = testing::derived_placements(doc, section());
  ASSERT_EQ(out["placements"].size(), 1u);
  const json& p = out["placements"][0];
  EXPECT_NEAR(p["efficiency"].get<double>(), 0.7 * 36.0 / 60.0, 1e-3);
  const json& now = p["roof_now"];
  EXPECT_NEAR(now["bandwidth"].get<double>(), 36.2e9, 1.0);
  EXPECT_NEAR(now["attainable"].get<double>(), 36.2e9 * ai_gemv(), 1.0);
  EXPECT_EQ(now["bound"], "memory");
  EXPECT_NEAR(now["efficiency"].get<double>(), 0.7 * 36.0 / 36.2, 2e-3);
  EXPECT_NEAR(now["roof_ratio"].get<double>(), 36.2 / 60.0, 1e-9);
  EXPECT_FALSE(now["moved"].get<bool>());
  EXPECT_EQ(now["kernel"], "read");
  // The notes say how many points were probed, and where the probes sat against the run's roof.
  const std::string notes = out["notes"].dump();
  EXPECT_NE(notes.find("Roof now: 1 memory-bound point(s)"), std::string::npos) << notes;
  EXPECT_NE(notes.find("at 60-60% of the run's roof"), std::string::npos) << notes;
  // A point without probes has no roof now, and its file is placed as before.
  const json plain = testing::derived_placements(json{{"benchmarks", gemv_entries("eigen", 1e9, 0, 0)}}, section());
  EXPECT_FALSE(plain["placements"][0].contains("roof_now"));
}

TEST(RoofNow, APointAboveItsRoofNowIsSaid) {
  json doc = {{"benchmarks", gemv_entries("eigen", 1.5 * 30e9 * ai_gemv(), 30e9, 30e9)}};
  const json out = testing::derived_placements(doc, section());
  EXPECT_GT(out["placements"][0]["roof_now"]["efficiency"].get<double>(), 1.10);
  EXPECT_NE(out["notes"].dump().find("of its roof now"), std::string::npos);
}

TEST(RoofNow, KeyFigurePerBackendAsAFraction) {
  const json doc = run(1.0);
  EXPECT_NEAR(placement(doc, "eigen")["roof_now"]["roof_ratio"].get<double>(), 1.005, 1e-9);
  const std::vector<KeyFigure> figures = key_figures(testing::lenient(doc));
  const auto it = std::find_if(figures.begin(), figures.end(), [](const KeyFigure& f) { return f.id == kNowId; });
  ASSERT_NE(it, figures.end());
  EXPECT_NEAR(it->value, 0.7 * 1.0 / 1.005, 2e-3);
  EXPECT_EQ(it->unit, kFractionUnit);
  EXPECT_TRUE(it->shared_memory);  // judged only while the canary holds (issue 46)
  EXPECT_EQ(it->label, "GEMV fp32 batch 1 (eigen) of its roof now, 2 threads");
  EXPECT_NE(std::find_if(figures.begin(), figures.end(),
                         [](const KeyFigure& f) { return f.id == "gemm/fp32/onednn/batch:1/threads:2/of_roof_now"; }),
            figures.end());
  EXPECT_EQ(format_si(it->value, it->unit), "69.8%");  // 0.7 x 1.002 (the median repetition) / 1.005
}

TEST(RoofNow, ItIsJudgedOnlyWhileTheCanaryHolds) {
  // Run 2 in the slow memory state (0.6x: the roof, the canary, the probes and the GEMVs alike): nothing of the
  // GEMV is trusted, its share of the roof now included (issue 46: shares moved 16-38% on a host whose memory flips).
  const json fast = run(1.0, 1.0, 50e9);
  const json slow = run(0.6, 1.0, 30e9);
  const Gate aa = gate_runs(typed_fragment(fast), typed_fragment(slow), nullptr, GateOptions{});
  EXPECT_TRUE(aa.memory_disturbed);
  EXPECT_NE(aa.outcome, Outcome::regression) << aa.verdict_line;
  EXPECT_FALSE(row(aa, kNowId).trusted);
  EXPECT_FALSE(row(aa, "gemm/fp32/batch:1/threads:2").trusted);
  // The eigen GEMV 25% slower in the same memory state (canary and probes unchanged): a regression naming it.
  const Gate doctored = gate_runs(typed_fragment(fast), typed_fragment(run(1.0, 0.75, 50e9)), nullptr, GateOptions{});
  EXPECT_EQ(doctored.outcome, Outcome::regression) << doctored.verdict_line;
  EXPECT_EQ(row(doctored, kNowId).verdict, Verdict::regression);
  EXPECT_NE(doctored.verdict_line.find(kNowId), std::string::npos) << doctored.verdict_line;
  EXPECT_EQ(row(doctored, "gemm/fp32/onednn/batch:1/threads:2/of_roof_now").verdict, Verdict::ok);
}

// A/A on a host whose memory flipped between two runs while the canary at both ends held (issue 46): a 1-thread
// eigen GEMV read 30.6 GB/s of a 30 GB/s roof now in one run and 34.0 of 41 in the other, 99% then 83%. Its share
// of the roof is not invariant when the roof rises, so a fall then is not trusted; the rates (which move with the
// memory) are not trusted when the roof now moved either way. A share that fell while its roof fell is judged.
TEST(RoofNow, ARoofOfTheMomentThatMovedBetweenTheRunsIsNotTrusted) {
  const json base = run(1.0);
  const json faster = run(1.35, 1.11 / 1.35);  // memory 35% faster, the eigen GEMV only 11%: stuck below it
  const Gate aa = gate_runs(typed_fragment(base), typed_fragment(faster), nullptr, GateOptions{});
  EXPECT_FALSE(aa.memory_disturbed);  // the canary said nothing
  const FigureRow& share = row(aa, kNowId);
  EXPECT_LT(share.change, -0.10);
  EXPECT_FALSE(share.trusted);
  EXPECT_TRUE(share.moment_moved);
  EXPECT_EQ(share.verdict, Verdict::unclear);
  EXPECT_NE(share.why.find("the memory under it moved between the runs (roof now 60.3 GB/s -> 81.4 GB/s, +35.0% > 10.0%)"),
            std::string::npos) << share.why;
  EXPECT_FALSE(row(aa, "gemm/fp32/batch:1/threads:2").trusted);  // the rate moved with its memory
  EXPECT_EQ(aa.outcome, Outcome::inconclusive) << aa.verdict_line;
  EXPECT_NE(aa.verdict_line.find("their roofs of the moment moved"), std::string::npos) << aa.verdict_line;
  // Within the canary limit the roofs of the moment are one state: judged as ever.
  const Gate same = gate_runs(typed_fragment(base), typed_fragment(run(1.05, 0.75)), nullptr, GateOptions{});
  EXPECT_TRUE(row(same, kNowId).trusted);
  EXPECT_EQ(same.outcome, Outcome::regression) << same.verdict_line;
  // A regression elsewhere names the figure not trusted for its own moment, never an empty reason.
  json dram_halved = faster;
  for (json& m : dram_halved["roofline"]["memory_ceilings"]) {
    m["value"] = 0.5 * kDram;
    m["plateau_median"] = 0.5 * kDram;
  }
  const Gate mixed = gate_runs(typed_fragment(base), typed_fragment(dram_halved), nullptr, GateOptions{});
  EXPECT_EQ(mixed.outcome, Outcome::regression) << mixed.verdict_line;
  EXPECT_NE(mixed.verdict_line.find(kNowId + ": the memory under it moved between the runs"), std::string::npos)
      << mixed.verdict_line;
  EXPECT_EQ(mixed.verdict_line.find("not trusted: )"), std::string::npos) << mixed.verdict_line;
  // The roof fell and the share fell: not explained by a point stuck below its roof, so still a regression.
  const Gate slower = gate_runs(typed_fragment(base), typed_fragment(run(0.8, 0.75)), nullptr, GateOptions{});
  EXPECT_TRUE(row(slower, kNowId).trusted);
  EXPECT_EQ(row(slower, kNowId).verdict, Verdict::regression);
  // A history keeps no probes: the rule is the pair's alone.
  EXPECT_GT(row(aa, kNowId).base_roof_now, 0.0);
}

TEST(RoofNow, ReportAndCsvShowBothFractions) {
  json doc = run(1.0);
  const ReportTable t = placements_table(typed_fragment(doc));
  ASSERT_EQ(t.columns.size(), 13u);
  EXPECT_EQ(t.columns[11], "roof now");
  EXPECT_EQ(t.columns[12], "% of roof now");
  ASSERT_FALSE(t.rows.empty());
  EXPECT_EQ(t.rows[0].size(), 13u);
  EXPECT_NE(t.note.find("% of roof now = measured / min(compute ceiling, roof now x AI)"), std::string::npos);
  const std::string csv = render_csv(typed_fragment(doc));
  EXPECT_NE(csv.find("roof_now_before_bytes_per_second,roof_now_after_bytes_per_second,point_of_roof,point_of_roof_now"),
            std::string::npos);
  // The moved mark, when the probes around a point disagree.
  for (json& e : doc["benchmarks"]) e["roof_now"]["after"] = probe(40e9, {39.9e9});
  json s = section();
  s["placements"] = testing::derived_placements(doc, section())["placements"];
  doc["roofline"] = s;
  EXPECT_NE(render_table_text(placements_table(typed_fragment(doc))).find("(memory moved while measuring)"), std::string::npos);
  // A file without probes keeps its table as it was.
  EXPECT_EQ(placements_table(typed_fragment(json::object())).columns.size(), 11u);
}

}  // namespace
}  // namespace roofline
