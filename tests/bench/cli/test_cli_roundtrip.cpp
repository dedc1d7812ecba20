// End-to-end (issue 45): every file `roofline run` writes is a file every command that takes results reads. The
// real binary runs a small but complete plan (every CPU suite at 1 and 2 threads, a memory-bound GEMV so that
// its entries carry roof_now probes, the dequant rows), and its file goes through report (text, HTML, CSV, SVG,
// --rederive --json, and the re-derived file again), compare (A/A: exit 0), Google Benchmark's compare.py where
// installed, llm (and the file llm --measure writes), fleet (two copies as two nodes), history add/show/calibrate.
// The same for the test-only target, an OpenCL run on the first device (PoCL in CI) and the recorded Zen 5 file
// that every command once refused. Every file a command writes holds only fields of the catalogue
// (results/fields.txt): a field a writer adds without teaching the reader fails here, naming it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_harness.hpp"
#include "roofline/model/results_document.hpp"
#include "roofline/records/results_fields.hpp"
#include "roofline/common/errors.hpp"
#include "support/gzip_json.hpp"

namespace roofline::testing {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kData = ROOFLINE_TEST_DATA_DIR;

json read_json(const fs::path& p) { return json::parse(read_file(p)); }

void write_json(const fs::path& p, const json& doc) { write_file(p, doc.dump()); }

// What every command said, one failure a line naming the command, so a refusal reads as "report --text: exit 2:
// q.json: benchmarks[3].foo ...".
struct ReadBack {
  std::vector<std::string> failures;

  void expect(const std::string& what, const CliResult& r, std::vector<int> allowed = {0}) {
    for (int code : allowed) {
      if (r.exit_code == code) return;
    }
    failures.push_back(fmt::format("{}: exit {}: {}", what, r.exit_code, r.err.substr(0, 400)));
  }

  void fields(const std::string& what, const fs::path& file) {
    const nlohmann::json doc = read_json(file);
    const std::vector<std::string> unknown = unknown_fields(doc, 10);
    for (const std::string& u : unknown) failures.push_back(fmt::format("{} wrote a field the reader does not know: {}", what, u));
    if (!unknown.empty()) return;
    // The typed results model (issue 47) has a member for every field written, and writes the file back as it was.
    try {
      if (to_json(read_results(doc, file.string(), ReadMode::strict)).dump() != doc.dump()) {
        failures.push_back(fmt::format("{}: the typed results model does not write {} back as it was", what, file.string()));
      }
    } catch (const InputError& e) {
      failures.push_back(fmt::format("{}: the typed results model refuses what it wrote: {}", what, e.what()));
    }
  }
};

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

// The same results as another node: another host name (fleet refuses one node twice).
fs::path as_other_node(const fs::path& file, const fs::path& dir) {
  json doc = read_json(file);
  doc["context"]["host_name"] = "roundtrip-other-node";
  if (doc["context"].contains("machine") && doc["context"]["machine"].is_object()) {
    doc["context"]["machine"]["hostname"] = "roundtrip-other-node";
  }
  const fs::path out = dir / "other_node.json";
  write_json(out, doc);
  return out;
}

// Google Benchmark's own comparison tool (Debian: libbenchmark-tools, with python3-scipy), where installed.
std::string gbench_compare_py() {
  for (const char* p : {"/usr/share/benchmark/compare.py"}) {
    if (fs::exists(p) && fs::exists("/usr/bin/python3")) return p;
  }
  return "";
}

// Every command that takes results, on `file` (written by run for `target`).
ReadBack read_back_through_every_command(const fs::path& file, const fs::path& dir, const std::string& target) {
  ReadBack rb;
  const std::string f = file.string();
  rb.fields("run", file);
  rb.expect("report --text", run_cli({"report", f, "--text"}));
  rb.expect("report --html", run_cli({"report", f, "--html", (dir / "r.html").string()}));
  rb.expect("report --csv", run_cli({"report", f, "--csv", (dir / "r.csv").string()}));
  rb.expect("report --svg", run_cli({"report", f, "--svg", (dir / "r.svg").string()}));
  const fs::path rederived = dir / "rederived.json";
  rb.expect("report --rederive --json", run_cli({"report", f, "--rederive", "--json", rederived.string()}));
  if (fs::exists(rederived)) {
    rb.fields("report --rederive --json", rederived);
    rb.expect("report --rederive --json of the re-derived file",
              run_cli({"report", rederived.string(), "--rederive", "--json", (dir / "rederived2.json").string()}));
    rb.expect("report --text of the re-derived file", run_cli({"report", rederived.string(), "--text"}));
    // The round trip: the analysis of the file gives back the roofline section the run wrote.
    if (read_json(rederived)["roofline"] != read_json(file)["roofline"]) {
      rb.failures.push_back("report --rederive: the re-derived roofline section differs from the one run wrote");
    }
  }
  // A/A: a file against itself is no regression, whatever the environment said (exit 0).
  rb.expect("compare (A/A)", run_cli({"compare", f, f}));
  rb.expect("compare --json (A/A)", run_cli({"compare", f, f, "--json", "-"}));
  if (const std::string py = gbench_compare_py(); !py.empty()) {
    rb.expect("Google Benchmark's compare.py benchmarks", run_executable("/usr/bin/python3", {py, "benchmarks", f, f}, {}));
  }
  // A device's llm estimate in fp32 (weights and KV cache): an OpenCL device measures no bf16 ceiling.
  // The CPU's at 1 thread: a loaded machine's quick run may leave out the 2-thread bf16 rows (the compute suite's
  // time budget, issue 46), and llm then refuses, rightly, in one line.
  const std::vector<std::string> llm_target =
      target == "cpu" ? std::vector<std::string>{"--threads", "1"}
                      : std::vector<std::string>{"--target", target, "--weights", "fp32", "--kv", "fp32"};
  std::vector<std::string> llm{"llm", "--config", "llama-3.2-1b", "--results", f};
  llm.insert(llm.end(), llm_target.begin(), llm_target.end());
  rb.expect("llm", run_cli(llm));
  std::vector<std::string> llm_json = llm;
  llm_json.insert(llm_json.end(), {"--json", "-"});
  rb.expect("llm --json", run_cli(llm_json));
  rb.expect("fleet (two nodes)", run_cli({"fleet", f, as_other_node(file, dir).string()}));
  const std::string db = (dir / "history.db").string();
  rb.expect("history add", run_cli({"history", "add", f, "--db", db}));
  if (fs::exists(rederived)) rb.expect("history add (the re-derived file)", run_cli({"history", "add", rederived.string(), "--db", db}));
  rb.expect("history show", run_cli({"history", "show", "--db", db}));
  rb.expect("history calibrate", run_cli({"history", "calibrate", "--db", db}));
  return rb;
}

// A small plan of every CPU suite: 1 and 2 threads, a few sizes from L1 to past the caches, one GEMM backend at
// batch 1 (memory-bound: roof_now probes) and 64, the compute suite with its dequant rows.
TEST(RoundTrip, AFreshCpuRunReadsBackThroughEveryCommand) {
  TempDir dir;
  const fs::path q = dir / "q.json";
  const CliResult run = run_cli({"run", "--profile", "quick", "--threads", "1,2", "--sizes", "16KiB,1MiB,64MiB",
                                 "--gemm-shape", "2048,2048", "--batches", "1,64", "--backends", "eigen", "--out",
                                 q.string(), "--no-report", "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = read_json(q);
  bool probes = false, dequant = false;
  std::vector<int> threads;
  for (const json& e : doc["benchmarks"]) {
    probes = probes || e.contains("roof_now");
    const json& l = e.value("labels", json::object());
    dequant = dequant || l.contains("format");
    if (l.contains("threads") && std::find(threads.begin(), threads.end(), l["threads"].get<int>()) == threads.end()) {
      threads.push_back(l["threads"].get<int>());
    }
  }
  EXPECT_TRUE(probes) << "no entry with roof_now: the plan lacks a memory-bound GEMV";
  EXPECT_TRUE(dequant) << "no dequant-dot row";
  EXPECT_GE(threads.size(), 2u);
  for (const char* suite : {"bandwidth", "compute", "gemm"}) EXPECT_TRUE(doc["context"]["suites"].contains(suite)) << suite;
  // The canaries our code cannot move (issue 59): written by run at the start, between the suites and at the end,
  // read back by the typed model, and what compare weighs the figures against.
  const ResultsDocument typed_doc = read_results(doc, q.string(), ReadMode::strict);
  ASSERT_TRUE(typed_doc.context.environment.has_value());
  for (const auto* c : {&typed_doc.context.environment->libc_canary, &typed_doc.context.environment->libc_core_canary}) {
    ASSERT_TRUE(c->has_value());
    EXPECT_EQ((*c)->kernel.value_or(""), "memcpy");
    EXPECT_GT((*c)->start.value_or(0.0), 0.0);
    EXPECT_GT((*c)->end.value_or(0.0), 0.0);
    EXPECT_GT((*c)->working_set_bytes.value_or(0), 0);
    // Between every two suites, as ours.
    EXPECT_EQ((*c)->checkpoints.value_or(std::vector<CanaryCheckpointRecord>{}).size(),
              doc["context"]["environment"]["canary"]["checkpoints"].size());
    EXPECT_FALSE((*c)->checkpoints.value_or(std::vector<CanaryCheckpointRecord>{}).empty());
  }
  const CliResult aa = run_cli({"compare", q.string(), q.string()});
  EXPECT_NE((aa.out + aa.err).find("weighed against libc core canary (memcpy, L2)"), std::string::npos) << aa.out << aa.err;

  ReadBack rb = read_back_through_every_command(q, dir.path(), "cpu");
  // The file llm --measure writes (a tiny config: seconds), read back by llm, report and compare.
  const fs::path m = dir / "measure.json";
  rb.expect("llm --measure", run_cli({"llm", "--config", (kData / "llm" / "tiny.json").string(), "--results", q.string(),
                                      "--threads", "1", "--batches", "1", "--context", "64", "--prompt", "32", "--measure",
                                      "--out", m.string()}));
  if (fs::exists(m)) {
    rb.fields("llm --measure", m);
    rb.expect("report --text (llm --measure's file)", run_cli({"report", m.string(), "--text"}));
    rb.expect("compare (llm --measure's file, A/A)", run_cli({"compare", m.string(), m.string()}));
    rb.expect("history add (llm --measure's file)", run_cli({"history", "add", m.string(), "--db", (dir / "llm.db").string()}));
  }
  EXPECT_TRUE(rb.failures.empty()) << joined(rb.failures);
}

// A device target through the same commands: the test-only target (prepared timings, every suite).
TEST(RoundTrip, TheTestTargetsRunReadsBackThroughEveryCommand) {
  TempDir dir;
  const fs::path t = dir / "t.json";
  const CliResult run = run_test_target_cli({"run", "--no-cpu", "--target", "test:0", "--out", t.string(), "--no-report", "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const ReadBack rb = read_back_through_every_command(t, dir.path(), "test:0");
  EXPECT_TRUE(rb.failures.empty()) << joined(rb.failures);
}

// The first OpenCL device (PoCL's CPU device in CI): a small plan of its memory and compute suites, with sizes in
// the host's caches and past them (llm needs a global-memory roof).
TEST(RoundTrip, AnOpenClRunReadsBackThroughEveryCommand) {
  const CliResult devices = run_cli({"devices"});
  if (devices.out.find("opencl:0.0") == std::string::npos) GTEST_SKIP() << "no OpenCL device: " << devices.out;
  TempDir dir;
  const fs::path o = dir / "o.json";
  const CliResult run = run_cli({"run", "--no-cpu", "--target", "opencl:0.0", "--suites", "bandwidth,compute",
                                 "--sizes", "64KiB,256KiB,1MiB,128MiB,256MiB", "--out", o.string(), "--no-report", "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const ReadBack rb = read_back_through_every_command(o, dir.path(), "opencl:0.0");
  EXPECT_TRUE(rb.failures.empty()) << joined(rb.failures);
  // The default bf16 weights on a device without bf16: one line saying what it measured (no CPU --threads advice).
  const CliResult bf16 = run_cli({"llm", "--config", "llama-3.2-1b", "--results", o.string(), "--target", "opencl:0.0"});
  EXPECT_EQ(bf16.exit_code, 2);
  EXPECT_TRUE(one_line(bf16.err)) << bf16.err;
  EXPECT_NE(bf16.err.find("opencl:0.0 measured no bf16 compute ceiling (it has: "), std::string::npos) << bf16.err;
}

// The file of a quick run on a Zen 5 guest that every command refused at eaa71e0 (roof_now in its entries).
TEST(RoundTrip, TheRecordedZen5RunReadsBackThroughEveryCommand) {
  TempDir dir;
  const json doc = load_gz((kData / "golden" / "zen5-l3-32m-2vcpu_quick_a.json.gz").string());
  ASSERT_FALSE(doc.is_discarded() || doc.is_null());
  const fs::path f = dir / "zen5.json";
  write_json(f, doc);
  ReadBack rb = read_back_through_every_command(f, dir.path(), "cpu");
  // Re-derived by this version: the levels may differ from the recorded section (an older analysis wrote it).
  rb.failures.erase(std::remove_if(rb.failures.begin(), rb.failures.end(),
                                   [](const std::string& s) { return s.find("differs from the one run wrote") != std::string::npos; }),
                    rb.failures.end());
  EXPECT_TRUE(rb.failures.empty()) << joined(rb.failures);
}

// Every recorded run in the tree holds only fields the reader knows, and the analysis is a fixed point on it:
// re-deriving a re-derived file gives back the same roofline section (reading then writing loses nothing).
TEST(RoundTrip, EveryRecordedRunIsKnownAndReDerivesToAFixedPoint) {
  std::vector<fs::path> files;
  for (const fs::path& folder : {kData / "golden", fs::path(ROOFLINE_SOURCE_DIR) / "results" / "reference",
                                 fs::path(ROOFLINE_SOURCE_DIR) / ".." / "shared" / "recorded"}) {
    if (!fs::is_directory(folder)) continue;
    for (const auto& e : fs::directory_iterator(folder)) {
      if (e.path().string().size() > 8 && e.path().string().substr(e.path().string().size() - 8) == ".json.gz") files.push_back(e.path());
    }
  }
  ASSERT_GE(files.size(), 7u);
  TempDir dir;
  for (const fs::path& gz : files) {
    const json doc = load_gz(gz.string());
    ASSERT_FALSE(doc.is_discarded() || doc.is_null()) << gz;
    EXPECT_TRUE(unknown_fields(doc).empty()) << gz << ":\n" << joined(unknown_fields(doc));
    const fs::path in = dir / "in.json", once = dir / "once.json", twice = dir / "twice.json";
    write_json(in, doc);
    fs::remove(once);
    fs::remove(twice);
    ASSERT_EQ(run_cli({"report", in.string(), "--rederive", "--json", once.string()}).exit_code, 0) << gz;
    ASSERT_EQ(run_cli({"report", once.string(), "--rederive", "--json", twice.string()}).exit_code, 0) << gz;
    EXPECT_TRUE(unknown_fields(read_json(once)).empty()) << gz << ":\n" << joined(unknown_fields(read_json(once)));
    EXPECT_EQ(read_json(once)["roofline"], read_json(twice)["roofline"]) << gz;
  }
}

// The catalogue catches what it must: a field no reader knows, and a known field of another kind.
TEST(RoundTrip, AFieldTheReaderDoesNotKnowIsNamed) {
  const json doc = load_gz((kData / "golden" / "zen5-l3-32m-2vcpu_quick_a.json.gz").string());
  ASSERT_FALSE(doc.is_discarded() || doc.is_null());
  EXPECT_TRUE(unknown_fields(doc).empty()) << joined(unknown_fields(doc));
  json added = doc;
  added["benchmarks"][5]["new_counter"] = 1.0;
  added["roofline"]["placements"][0]["roof_now"]["new_field"] = "x";
  added["context"]["suites"]["gemm"]["new_setting"] = true;
  const std::vector<std::string> unknown = unknown_fields(added);
  EXPECT_EQ(unknown, (std::vector<std::string>{"benchmarks[].new_counter: not in results/fields.txt",
                                              "context.suites.gemm.new_setting: not in results/fields.txt",
                                              "roofline.placements[].roof_now.new_field: not in results/fields.txt"}))
      << joined(unknown);
  json retyped = doc;
  retyped["roofline"]["memory_ceilings"][0]["value"] = "fast";
  EXPECT_EQ(unknown_fields(retyped), (std::vector<std::string>{"roofline.memory_ceilings[].value: is text, the catalogue says number"}));
}

}  // namespace
}  // namespace roofline::testing
