// End-to-end: `roofline run --suites bandwidth` with bad size/thread lists (exit 2, one line, nothing
// written) and a short run whose results file has validated bandwidth entries and memory ceilings.
#include <gtest/gtest.h>

#include <set>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace roofline::testing {
namespace fs = std::filesystem;
using nlohmann::json;

TEST(CliBandwidth, BadSizeAndThreadListsExit2AndWriteNothing) {
  TempDir dir;
  const std::string out = (dir / "r.json").string();
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{"--sizes", ""},
        {"--sizes", "0"},
        {"--sizes", "-64KiB"},
        {"--sizes", "64KiB,,"},
        {"--sizes", "64KiB,0"},
        {"--sizes", "100000TiB"},
        {"--threads", ""},
        {"--threads", "0"},
        {"--threads", "-1"},
        {"--threads", "100000"}}) {
    std::vector<std::string> args = {"run", "--suites", "bandwidth", "--out", out, "--no-report"};
    args.insert(args.end(), extra.begin(), extra.end());
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << extra[0] << " '" << extra[1] << "': " << r.err;
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_FALSE(fs::exists(out)) << extra[1];
  }
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

namespace {
// The results file of a one-thread bandwidth run at `sizes` (null when the run failed, said by the test).
json bandwidth_run(const std::string& sizes) {
  TempDir dir;
  const fs::path out = dir / "r.json";
  const CliResult r = run_cli({"run", "--suites", "bandwidth", "--sizes", sizes, "--threads", "1", "--out",
                               out.string(), "--no-report", "--quiet"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? json::parse(read_file(out)) : json();
}
}  // namespace

TEST(CliBandwidth, ShortRunWritesEntriesAndMemoryCeilings) {
  const json doc = bandwidth_run("64KiB,1MiB");
  ASSERT_FALSE(doc.is_null());
  int entries = 0;
  std::set<std::string> kernels;
  for (const json& e : doc["benchmarks"]) {
    if (e.value("run_type", "") != "iteration") continue;
    ASSERT_TRUE(e.contains("labels"));
    EXPECT_EQ(e["labels"]["suite"], "bandwidth");
    EXPECT_EQ(e["labels"]["precision"], "fp64");
    EXPECT_EQ(e["labels"]["threads"], 1);
    EXPECT_FALSE(e.value("error_occurred", false)) << e.value("error_message", "");
    EXPECT_GT(e["bytes_per_second"].get<double>(), 0.0);
    const double ws = e["working_set_bytes"].get<double>();
    EXPECT_TRUE((ws > 60e3 && ws <= 65536) || (ws > 1.0e6 && ws <= 1048576)) << ws;
    kernels.insert(e["labels"]["kernel"].get<std::string>());
    ++entries;
  }
  EXPECT_EQ(kernels.size(), 9u);  // every kernel, at both sizes, with --sizes
  EXPECT_GE(entries, 18);
  EXPECT_EQ(doc["context"]["suites"]["bandwidth"]["sizes_from"], "--sizes");
  const json& ceilings = doc["roofline"]["memory_ceilings"];
  ASSERT_FALSE(ceilings.empty());
  for (const json& c : ceilings) {
    EXPECT_EQ(c["unit"], "B/s");
    EXPECT_EQ(c["threads"], 1);
    EXPECT_GT(c["value"].get<double>(), 0.0);
    EXPECT_LE(c["min_bytes"].get<double>(), c["max_bytes"].get<double>());
    EXPECT_TRUE(c.contains("level") && c.contains("kernel"));
  }
  EXPECT_TRUE(doc["roofline"].contains("memory_levels"));
  EXPECT_TRUE(doc["context"]["machine"].contains("transparent_huge_pages"));
}

// Mapped arrays (4 MiB and more each) record their pages; past twice the reported caches, read and triad
// also run on 4 KiB pages (suite "bandwidth_pages"), validated like every kernel, and give page_size_ceilings.
TEST(CliBandwidth, DramSizedArraysRecordTheirPagesAndRunOnFourKibPages) {
  const json doc = bandwidth_run("96MiB");
  ASSERT_FALSE(doc.is_null());
  int mapped = 0, small_pages = 0;
  for (const json& e : doc["benchmarks"]) {
    if (e.value("run_type", "") != "iteration") continue;
    EXPECT_FALSE(e.value("error_occurred", false)) << e.value("error_message", "");
    const json& l = e["labels"];
    ASSERT_TRUE(l.contains("pages")) << e["name"];
    if (l["suite"] == "bandwidth_pages") {
      ++small_pages;
      EXPECT_EQ(l["pages"], "4K");
      EXPECT_NE(e["name"].get<std::string>().find("/pages:4K/"), std::string::npos);
      EXPECT_TRUE(l["kernel"] == "read" || l["kernel"] == "triad");
    } else {
      EXPECT_EQ(l["pages"], "2M");
    }
    if (!e.contains("resident_bytes")) continue;  // a run note says why
    ++mapped;
    EXPECT_GE(e["resident_bytes"].get<double>(), 90.0 * 1024 * 1024 / 3);
    EXPECT_LE(e["huge_page_bytes"].get<double>(), e["resident_bytes"].get<double>());
    if (l["pages"] == "4K") {
      EXPECT_EQ(e["huge_page_bytes"].get<double>(), 0.0);
    }
  }
  EXPECT_GT(mapped, 0);
  const json& dram = doc["roofline"]["memory_ceilings"];
  for (const json& c : dram) {
    if (c["level"] == "DRAM") {
      EXPECT_EQ(c["pages"], "2M");
    }
  }
  // Whether 96 MiB is DRAM depends on the caches this machine reports (twice the last is DRAM).
  if (small_pages > 0) {
    ASSERT_TRUE(doc["roofline"].contains("page_size_ceilings"));
    EXPECT_FALSE(doc["roofline"]["page_size_ceilings"].empty());
    for (const json& c : doc["roofline"]["page_size_ceilings"]) EXPECT_EQ(c["pages"], "4K");
  }
}
// A page-size field of the wrong type or vocabulary is bad input: one line naming it, exit 2.
TEST(CliBandwidth, WrongPageFieldsAreExit2) {
  TempDir dir;
  const json full = json::parse(read_file(fs::path(ROOFLINE_TEST_DATA_DIR) / "report_full.json"));
  const json small_row = {{"level", "DRAM"}, {"kernel", "read"}, {"threads", 2}, {"value", 2.0e10}, {"pages", "4K"}};
  struct Case {
    const char* field;
    json value;
    const char* message;
  };
  for (const Case& c : {Case{"pages", "1G", "roofline.page_size_ceilings[0].pages '1G' is not a page size (2M, 4K)"},
                        Case{"huge_page_fraction", "most", "roofline.page_size_ceilings[0].huge_page_fraction is not a number"}}) {
    json doc = full;
    doc["roofline"]["page_size_ceilings"] = json::array({small_row});
    doc["roofline"]["page_size_ceilings"][0][c.field] = c.value;
    const fs::path bad = dir / (std::string(c.field) + ".json");
    write_file(bad, doc.dump());
    const CliResult r = run_cli({"report", bad.string(), "--text"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
  }
}
}  // namespace roofline::testing
