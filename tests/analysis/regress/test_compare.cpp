// Comparing runs on the hand-made files of tests/data/compare (written by make_fixtures.py): verdicts,
// direction of better, low confidence, ceilings, machine check, plain Google Benchmark JSON, renderers.
// Expected p-values were computed on the same files with Google Benchmark 1.7.1's report.py U-test code
// (scipy 1.10.1 mannwhitneyu(..., alternative='two-sided')).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "roofline/regress/compare.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/model/results.hpp"
#include "support/gzip_json.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
using testing::typed;

const std::string kDir = std::string(ROOFLINE_TEST_DATA_DIR) + "/compare/";
const std::string kTriad = "bandwidth/triad/threads:2/bytes:268435456";

Comparison compare_files(const std::string& base, const std::string& next, CompareOptions options = {}) {
  return compare_runs(typed(load_json_file(kDir + base), kDir + base), kDir + base, typed(load_json_file(kDir + next), kDir + next),
                      kDir + next, options);
}

const CompareRow& row(const Comparison& c, const std::string& name) {
  const auto it = std::find_if(c.rows.begin(), c.rows.end(), [&](const CompareRow& r) { return r.name == name; });
  if (it == c.rows.end()) throw std::runtime_error("no row " + name);
  return *it;
}

TEST(Compare, IdenticalRunsCompareClean) {
  const Comparison c = compare_files("base.json", "same.json");
  EXPECT_TRUE(c.same_machine);
  EXPECT_EQ(c.exit_code(), 0);
  EXPECT_EQ(c.count(Verdict::regression, false), 0);
  EXPECT_EQ(c.count(Verdict::improvement, false), 0);
  EXPECT_EQ(c.count(Verdict::ok, false), static_cast<int>(c.rows.size()));
  // 4 benchmarks + 2 memory ceilings + 1 compute ceiling + 1 placement
  EXPECT_EQ(c.rows.size(), 8u);
  EXPECT_TRUE(c.only_in_base.empty());
  EXPECT_TRUE(c.only_in_next.empty());
  const CompareRow& t = row(c, kTriad);
  EXPECT_EQ(t.metric, "bytes_per_second");
  EXPECT_DOUBLE_EQ(t.change, 0.0);
  ASSERT_TRUE(t.p_value.has_value());
  EXPECT_DOUBLE_EQ(*t.p_value, 1.0);
}

TEST(Compare, TightTwentyPercentSlowdownIsARegression) {
  const Comparison c = compare_files("base.json", "slow20.json");
  const CompareRow& t = row(c, kTriad);
  EXPECT_EQ(t.verdict, Verdict::regression);
  EXPECT_TRUE(t.significant);
  EXPECT_FALSE(t.low_confidence);
  EXPECT_NEAR(t.change, -0.2, 1e-12);
  EXPECT_NEAR(*t.p_value, 0.007936507936507936, 1e-15);  // 2 / C(10, 5)
  EXPECT_NEAR(*t.time_pvalue, 0.007936507936507936, 1e-15);
  // Shown, never gating: the key figures decide (the DRAM triad ceiling fell 20%, beyond the 10% floor).
  EXPECT_FALSE(t.gates);
  EXPECT_EQ(c.count(Verdict::regression, true), 0);
  const CompareRow& ceiling = row(c, "memory/DRAM/triad/threads:2");
  EXPECT_EQ(ceiling.kind, RowKind::memory_ceiling);
  EXPECT_EQ(ceiling.verdict, Verdict::regression);
  EXPECT_FALSE(ceiling.gates);
  ASSERT_TRUE(c.gate.has_value());
  EXPECT_EQ(c.gate->outcome, Outcome::regression);
  EXPECT_EQ(c.exit_code(), 1);
}

TEST(Compare, SmallChangeIsNotARegressionEvenWhenSignificant) {
  const Comparison c = compare_files("base.json", "slow3.json");
  const CompareRow& t = row(c, kTriad);
  EXPECT_TRUE(t.significant);
  EXPECT_EQ(t.verdict, Verdict::ok);
  EXPECT_EQ(c.exit_code(), 0);
  CompareOptions tight;
  tight.gate.floor_no_history = 0.02;  // --floor-no-history 2
  EXPECT_EQ(compare_files("base.json", "slow3.json", tight).exit_code(), 1);
}

TEST(Compare, NoisyTwentyPercentChangeWithoutSignificanceIsNotARegression) {
  const Comparison c = compare_files("noisy_base.json", "noisy20.json");
  const CompareRow& t = row(c, kTriad);
  EXPECT_NEAR(t.change, -0.2, 1e-12);
  EXPECT_NEAR(*t.p_value, 0.5476190476190477, 1e-12);
  EXPECT_FALSE(t.significant);
  EXPECT_EQ(t.verdict, Verdict::unclear);  // beyond the threshold, not established: never a regression
  // The key figure is the best repetition (a ceiling): 16% lower, beyond the no-history floor. Without a
  // history this is a low-confidence regression, which scripts/ci-regression re-measures before failing.
  EXPECT_EQ(c.exit_code(), 1);
  EXPECT_NE(c.gate->verdict_line.find("no history: low confidence"), std::string::npos) << c.gate->verdict_line;
}

TEST(Compare, FasterThroughputIsAnImprovement) {
  const Comparison c = compare_files("base.json", "fast20.json");
  EXPECT_EQ(row(c, kTriad).verdict, Verdict::improvement);
  EXPECT_EQ(row(c, "memory/DRAM/triad/threads:2").verdict, Verdict::improvement);
  EXPECT_EQ(c.exit_code(), 0);
  // And the other way round the same change is a regression.
  EXPECT_EQ(row(compare_files("fast20.json", "base.json"), kTriad).verdict, Verdict::regression);
}

TEST(Compare, DirectionOfBetter) {
  EXPECT_TRUE(higher_is_better("bytes_per_second"));
  EXPECT_TRUE(higher_is_better("flop_per_second"));
  EXPECT_TRUE(higher_is_better("op_per_second"));
  EXPECT_TRUE(higher_is_better("items_per_second"));
  EXPECT_TRUE(higher_is_better("clock_hz"));
  EXPECT_FALSE(higher_is_better("real_time"));
  EXPECT_FALSE(higher_is_better("cpu_time"));
  EXPECT_FALSE(higher_is_better("latency_seconds"));
}

TEST(Compare, FewRepetitionsAreGatedOnTheThresholdAloneAndMarked) {
  const Comparison c = compare_files("base_3reps.json", "slow20_3reps.json");
  const CompareRow& t = row(c, kTriad);
  EXPECT_TRUE(t.low_confidence);
  EXPECT_FALSE(t.significant);
  EXPECT_NEAR(*t.p_value, 0.1, 1e-15);  // the best 3 vs 3 can do: 2 / C(6, 3)
  EXPECT_EQ(t.verdict, Verdict::regression);
  EXPECT_EQ(c.exit_code(), 1);
  EXPECT_NE(render_compare_text(c).find("low confidence"), std::string::npos);
}

TEST(Compare, ComputeCeilingsAreKeyedByEngineIsaAndWidth) {
  // amx_*.json: bf16 vector at 256 and 512 bits and bf16 matrix (AMX) at the same threads; only the matrix
  // engine is 20% slower in the new run. Keyed by precision and threads alone, the matrix row was matched
  // with a vector one (and the two widths with each other).
  const Comparison c = compare_files("amx_base.json", "amx_matrix_slow.json");
  std::vector<std::string> compute;
  for (const CompareRow& r : c.rows) {
    if (r.kind == RowKind::compute_ceiling) compute.push_back(r.name);
  }
  EXPECT_EQ(compute, (std::vector<std::string>{"compute/fp32/vector/avx512/bits:512/threads:2",  // no engine: vector
                                               "compute/bf16/vector/avx512/bits:256/threads:2",
                                               "compute/bf16/vector/avx512/bits:512/threads:2",
                                               "compute/bf16/matrix/amx/bits:8192/threads:2"}));
  const CompareRow& matrix = row(c, "compute/bf16/matrix/amx/bits:8192/threads:2");
  EXPECT_DOUBLE_EQ(matrix.base, 3.2e12);
  EXPECT_NEAR(matrix.change, -0.2, 1e-12);
  EXPECT_EQ(matrix.verdict, Verdict::regression);
  for (const char* vector_row : {"compute/bf16/vector/avx512/bits:256/threads:2", "compute/bf16/vector/avx512/bits:512/threads:2"}) {
    EXPECT_DOUBLE_EQ(row(c, vector_row).change, 0.0) << vector_row;
    EXPECT_EQ(row(c, vector_row).verdict, Verdict::ok) << vector_row;
  }
}

TEST(Compare, RecordedAmxRunMatchesEachComputeCeilingWithItself) {
  // A real run of an AMX machine (../shared/recorded, copied to tests/data/golden): every compute ceiling
  // of the file is one row, matched with itself.
  const std::string path = std::string(ROOFLINE_TEST_DATA_DIR) + "/golden/emr-2vcpu-amx_quick_a.json.gz";
  const nlohmann::json doc = testing::load_gz(path);
  ASSERT_TRUE(doc.is_object()) << path;
  const Comparison c = compare_runs(typed(doc), path, typed(doc), path, {});
  std::set<std::string> names;
  for (const CompareRow& r : c.rows) {
    if (r.kind != RowKind::compute_ceiling) continue;
    names.insert(r.name);
    EXPECT_DOUBLE_EQ(r.change, 0.0) << r.name;
  }
  EXPECT_EQ(names.size(), doc["roofline"]["compute_ceilings"].size());
  EXPECT_TRUE(names.contains("compute/bf16/vector/avx512/bits:512/threads:2"));
}

TEST(Compare, MachineMismatchIsRecorded) {
  const Comparison c = compare_files("base.json", "other_machine.json");
  EXPECT_FALSE(c.same_machine);
  std::string all;
  for (const auto& d : c.machine_differences) all += d + "\n";
  EXPECT_NE(all.find("cpu_model: Intel(R) Xeon(R) Processor -> AMD EPYC 9654"), std::string::npos) << all;
  EXPECT_NE(all.find("cores: 2 -> 96"), std::string::npos) << all;
  EXPECT_NE(all.find("isa: -avx512f"), std::string::npos) << all;
  EXPECT_NE(machine_mismatch_error(c).find("--allow-machine-mismatch"), std::string::npos);
  EXPECT_NE(render_compare_text(c).find("WARNING: the runs come from different machines"), std::string::npos);
  EXPECT_TRUE(compare_files("base.json", "slow20.json").same_machine);
}

TEST(Compare, PlainGoogleBenchmarkJsonAgreesWithComparePy) {
  const Comparison c = compare_files("gbench_base.json", "gbench_new.json");
  EXPECT_EQ(c.base.kind, ResultsKind::google_benchmark);
  EXPECT_EQ(c.rows.size(), 4u);  // aggregates are not benchmarks of their own
  const CompareRow& slower = row(c, "BM_Slower");
  EXPECT_EQ(slower.metric, "real_time");
  EXPECT_FALSE(slower.higher_better);
  EXPECT_NEAR(slower.change, 0.2, 1e-12);
  EXPECT_EQ(slower.verdict, Verdict::regression);
  // compare.py --utest: time and CPU p-values of each benchmark (asymptotic, 9 vs 9 repetitions).
  EXPECT_NEAR(*slower.time_pvalue, 0.00041229480206169127, 1e-15);
  EXPECT_NEAR(*slower.cpu_pvalue, 0.00041229480206169127, 1e-15);
  EXPECT_NEAR(*row(c, "BM_Same").time_pvalue, 0.7239320396139757, 1e-13);
  EXPECT_NEAR(*row(c, "BM_Noisy").time_pvalue, 0.331387096247615, 1e-13);
  EXPECT_NEAR(*row(c, "BM_Noisy").cpu_pvalue, 0.07738861114200664, 1e-13);
  EXPECT_EQ(row(c, "BM_Faster").verdict, Verdict::improvement);
  EXPECT_EQ(row(c, "BM_Noisy").verdict, Verdict::unclear);  // +10 %, p = 0.33: beyond 5 %, not significant
  EXPECT_EQ(c.exit_code(), 1);
  EXPECT_TRUE(c.same_machine);
}

TEST(Compare, BadInputIsAnInputError) {
  EXPECT_THROW(compare_files("base.json", "schema2.json"), InputError);
  EXPECT_THROW(compare_files("base.json", "neither.json"), InputError);
  EXPECT_THROW(compare_files("base.json", "disjoint.json"), InputError);
  EXPECT_THROW(compare_files("base.json", "gbench_new.json"), InputError);  // nothing in common
  EXPECT_THROW(load_json_file(kDir + "truncated.json"), InputError);
  CompareOptions bad;
  bad.threshold = -1;
  EXPECT_THROW(compare_files("base.json", "same.json", bad), InputError);
}

TEST(Compare, RenderersShowVerdictsAndEscapeInput) {
  nlohmann::json base = load_json_file(kDir + "base.json");
  nlohmann::json next = load_json_file(kDir + "slow20.json");
  for (auto* doc : {&base, &next}) {
    for (auto& e : (*doc)["benchmarks"]) {
      if (e["name"] == kTriad) e["name"] = "<b>triad|x</b>";
    }
  }
  const Comparison c = compare_runs(typed(base), "base", typed(next), "new", {});
  const std::string md = render_compare_markdown(c);
  EXPECT_NE(md.find(":x: 1 regression"), std::string::npos) << md;
  EXPECT_NE(md.find("&lt;b&gt;triad\\|x&lt;/b&gt;"), std::string::npos) << md;
  EXPECT_EQ(md.find("<b>triad"), std::string::npos);
  EXPECT_NE(md.find("**regression**"), std::string::npos);

  const std::string text = render_compare_text(c);
  EXPECT_NE(text.find("REGRESSION"), std::string::npos);
  EXPECT_NE(text.find("-20.0%"), std::string::npos);

  const nlohmann::json j = compare_to_json(c);
  EXPECT_EQ(j["exit_code"], 1);
  EXPECT_EQ(j["summary"]["regressions"], 1);
  EXPECT_EQ(j["rows"][0]["verdict"], "regression");
  EXPECT_EQ(j["rows"][0]["higher_is_better"], true);
}

}  // namespace
}  // namespace roofline

namespace roofline {
namespace {

// Two real gate runs of one build on a 2-vCPU Zen 4 guest, a minute apart (tests/data/gate): in the first the host
// kept the vCPUs apart (thread round trip about 320 ns), in the second its bandwidth suite ran with them about 57 ns
// apart, L1 and L2 at 2 threads at the 1-thread rate.
TEST(CompareGate, AFigureTheHostDisturbedAtSeveralThreadsIsNotTrustedAndSaysWhy) {
  const std::string dir = std::string(ROOFLINE_TEST_DATA_DIR) + "/gate/";
  const nlohmann::json apart = testing::load_gz(dir + "zen4-2vcpu_gate_apart.json.gz");
  const nlohmann::json one = testing::load_gz(dir + "zen4-2vcpu_gate_one_core.json.gz");
  ASSERT_FALSE(apart.is_null());
  ASSERT_FALSE(one.is_null());
  const Comparison c = compare_runs(typed(apart), "apart", typed(one), "one core", {});
  ASSERT_TRUE(c.gate);
  const auto figure = [&](const std::string& id) -> const FigureRow& {
    const auto it = std::find_if(c.gate->figures.begin(), c.gate->figures.end(), [&](const FigureRow& r) { return r.figure.id == id; });
    if (it == c.gate->figures.end()) throw std::runtime_error("no figure " + id);
    return *it;
  };
  // Both vCPUs slowed alike: L1 read at 2 threads scaled 1.03 of 2x one thread, then 0.50.
  const FigureRow& l1 = figure("memory/L1/read/threads:2");
  EXPECT_EQ(l1.verdict, Verdict::unclear);
  EXPECT_FALSE(l1.trusted);
  EXPECT_NE(l1.why.find("2 threads scaled 1.03 of 2 x one thread in the base run and 0.50 in the new"), std::string::npos) << l1.why;
  // The threads placed otherwise, under a shared level's figure.
  const FigureRow& dram = figure("memory/DRAM/read/threads:2");
  EXPECT_EQ(dram.verdict, Verdict::unclear);
  EXPECT_NE(dram.why.find("the host placed the threads otherwise (round trip 320 ns in the base run, 57 ns in the new"),
            std::string::npos)
      << dram.why;
  // One vCPU slowed: the L2 triad's threads 26% apart.
  EXPECT_NE(figure("memory/L2/triad/threads:2").why.find("threads' own rates 26% apart"), std::string::npos);
  // Nothing of the kind at one thread, and no regression called on the disturbed figures.
  EXPECT_EQ(figure("memory/L1/read/threads:1").why.find("not trusted"), std::string::npos);
  EXPECT_NE(c.gate->outcome, Outcome::regression);
  // A run against itself: every figure trusted as far as its threads go.
  const Comparison same = compare_runs(typed(one), "one core", typed(one), "one core", {});
  for (const FigureRow& r : same.gate->figures) {
    EXPECT_EQ(r.why.find("the host placed"), std::string::npos) << r.why;
    EXPECT_EQ(r.why.find("scaled"), std::string::npos) << r.why;
  }
}

}  // namespace
}  // namespace roofline
