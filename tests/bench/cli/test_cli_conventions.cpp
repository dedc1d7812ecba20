// End-to-end: the one command-line convention (docs/cli.md): --json/--markdown/--html/--csv/--svg FILE write that
// file everywhere, `-` meaning stdout; thresholds named for what they gate; lists printed from the code. Each old
// spelling still works for one release, does what it did and prints one deprecation line on stderr.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace roofline::testing {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

const std::string kCompare = std::string(ROOFLINE_TEST_DATA_DIR) + "/compare/";
const std::string kLlmResults = std::string(ROOFLINE_TEST_DATA_DIR) + "/llm/results_2t.json";

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// Four nodes of one group, one 20% slower: the compare test files, each renamed after its file (as the golden
// fleet case does: they were all recorded on one host), written once for the whole test program.
std::vector<std::string> fleet_nodes() {
  static const TempDir dir;
  std::vector<std::string> args{"fleet"};
  for (const std::string name : {"base", "same", "slow20", "avx2"}) {
    const fs::path node = dir / (name + ".json");
    if (!fs::exists(node)) {
      json doc = json::parse(read_file(kCompare + name + ".json"));
      doc["context"]["machine"]["hostname"] = name;
      write_file(node, doc.dump(1));
    }
    args.push_back(node.string());
  }
  return args;
}

std::vector<std::string> compare_pair() { return {"compare", kCompare + "base.json", kCompare + "slow20.json"}; }

std::vector<std::string> llm_7b() { return {"llm", "--config", "llama-2-7b", "--results", kLlmResults}; }

// The old spelling does what the new one does (exit code, stdout; for the machine's live facts: JSON of the same
// fields) and says so in exactly one line on stderr.
void expect_deprecated(const std::vector<std::string>& old_args, const std::vector<std::string>& new_args,
                       const std::string& line, bool live = false) {
  const CliResult old_r = run_cli(old_args);
  const CliResult new_r = run_cli(new_args);
  EXPECT_EQ(old_r.exit_code, new_r.exit_code) << line << "\n" << old_r.err;
  if (live) {
    EXPECT_EQ(json::parse(old_r.out).size(), json::parse(new_r.out).size()) << line;
  } else {
    EXPECT_EQ(old_r.out, new_r.out) << line;
  }
  EXPECT_EQ(old_r.err, "roofline: " + line + "\n");
  EXPECT_EQ(new_r.err.find("deprecated"), std::string::npos) << new_r.err;
}

}  // namespace

TEST(CliConventions, BareOutputSwitchesAreDeprecatedAliasesOfDashForStdout) {
  const std::string json_line = "--json without a file is deprecated, use --json -";
  const std::string md_line = "--markdown without a file is deprecated, use --markdown -";
  expect_deprecated({"machine", "--json"}, {"machine", "--json", "-"}, json_line, true);
  expect_deprecated({"devices", "--json"}, {"devices", "--json", "-"}, json_line, true);
  expect_deprecated(with(compare_pair(), {"--json"}), with(compare_pair(), {"--json", "-"}), json_line);
  // Before the results files too: an existing .json file after the old switch is a results file, not its value.
  expect_deprecated({"compare", "--markdown", kCompare + "base.json", kCompare + "slow20.json"},
                    with(compare_pair(), {"--markdown", "-"}), md_line);
  expect_deprecated(with(fleet_nodes(), {"--markdown"}), with(fleet_nodes(), {"--markdown", "-"}), md_line);
  expect_deprecated(with(llm_7b(), {"--json", "--batches", "1"}), with(llm_7b(), {"--json", "-", "--batches", "1"}),
                    json_line);
  TempDir dir;
  const std::string db = (dir / "history.db").string();
  ASSERT_EQ(run_cli({"history", "add", kCompare + "base.json", "--db", db}).exit_code, 0);
  expect_deprecated({"history", "changes", "--db", db, "--json"}, {"history", "changes", "--db", db, "--json", "-"},
                    json_line);
}

TEST(CliConventions, RenamedThresholdsKeepTheirOldNamesAsDeprecatedAliases) {
  expect_deprecated(with(compare_pair(), {"--threshold", "50"}), with(compare_pair(), {"--row-threshold", "50"}),
                    "--threshold is deprecated, use --row-threshold");
  expect_deprecated(with(fleet_nodes(), {"--threshold", "30"}), with(fleet_nodes(), {"--below-median", "30"}),
                    "--threshold is deprecated, use --below-median");
  // The aliases are hidden: --help names only the new spellings.
  EXPECT_EQ(run_cli({"compare", "--help"}).out.find("--threshold"), std::string::npos);
  EXPECT_EQ(run_cli({"fleet", "--help"}).out.find("--threshold"), std::string::npos);
  // Percentages take an optional % under either name.
  const CliResult pct = run_cli(with(fleet_nodes(), {"--below-median", "30%"}));
  EXPECT_EQ(pct.out, run_cli(with(fleet_nodes(), {"--below-median", "30"})).out);
  EXPECT_NE(pct.exit_code, 2) << pct.err;
}

TEST(CliConventions, CompareOutIsDeprecatedAndStillTakesTheOutputOnStdout) {
  TempDir dir;
  const std::string md_out = (dir / "old.md").string();
  const CliResult old_md = run_cli(with(compare_pair(), {"--markdown", "--out", md_out}));
  EXPECT_EQ(old_md.exit_code, 1) << old_md.err;
  EXPECT_TRUE(old_md.out.empty()) << old_md.out;
  EXPECT_EQ(old_md.err, "roofline: --markdown without a file is deprecated, use --markdown -\nroofline: --out is deprecated, "
                        "use --json FILE or --markdown FILE (the table: redirect stdout)\n");
  const std::string md_new = (dir / "new.md").string();
  const CliResult new_md = run_cli(with(compare_pair(), {"--markdown", md_new}));
  EXPECT_EQ(new_md.exit_code, 1);
  EXPECT_EQ(read_file(md_out), read_file(md_new));
  EXPECT_NE(new_md.out.find("regression"), std::string::npos) << "the table stays on stdout";
  // --out alone: the table into the file, as before.
  const std::string text_out = (dir / "table.txt").string();
  const CliResult old_text = run_cli(with(compare_pair(), {"--out", text_out}));
  EXPECT_EQ(old_text.exit_code, 1);
  EXPECT_TRUE(old_text.out.empty());
  EXPECT_EQ(read_file(text_out), run_cli(compare_pair()).out);
}

TEST(CliConventions, EveryFormatFlagWritesAFileOrStdout) {
  TempDir dir;
  const CliResult machine = run_cli({"machine", "--json", (dir / "machine.json").string()});
  ASSERT_EQ(machine.exit_code, 0) << machine.err;
  EXPECT_GT(json::parse(read_file(dir / "machine.json"))["cores"].get<int>(), 0);
  EXPECT_EQ(run_cli({"machine", "--json", (dir / "machine.json").string()}).exit_code, 2) << "no overwrite without --force";

  const CliResult cmp = run_cli(with(compare_pair(), {"--json", (dir / "c.json").string(), "--markdown", (dir / "c.md").string()}));
  EXPECT_EQ(cmp.exit_code, 1) << cmp.err;
  EXPECT_EQ(json::parse(read_file(dir / "c.json"))["exit_code"], 1);
  EXPECT_NE(read_file(dir / "c.md").find("## roofline compare"), std::string::npos);

  const CliResult fleet = run_cli(with(fleet_nodes(), {"--markdown", (dir / "f.md").string(), "--json", "-"}));
  EXPECT_EQ(fleet.exit_code, 1) << fleet.err;
  EXPECT_TRUE(json::parse(fleet.out).is_object()) << "the JSON is all of stdout";
  EXPECT_TRUE(fs::exists(dir / "f.md"));

  const CliResult llm = run_cli(with(llm_7b(), {"--json", (dir / "llm.json").string(), "--html", (dir / "llm.html").string()}));
  EXPECT_EQ(llm.exit_code, 0) << llm.err;
  EXPECT_EQ(json::parse(read_file(dir / "llm.json"))["model"]["parameters"], 6'738'415'616);

  const CliResult csv = run_cli({"report", kCompare + "base.json", "--csv", "-"});
  EXPECT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.find("name,"), 0u) << csv.out.substr(0, 200);
  EXPECT_FALSE(fs::exists(kCompare + "base.html"));
}

TEST(CliConventions, TwoOutputsOnStdoutAreRefused) {
  for (const std::vector<std::string>& args :
       {with(compare_pair(), {"--json", "-", "--markdown", "-"}), with(fleet_nodes(), {"--json", "-", "--html", "-"}),
        std::vector<std::string>{"report", kCompare + "base.json", "--svg", "-", "--text"},
        with(llm_7b(), {"--json", "-", "--html", "-"})}) {
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find("only one output can go to stdout"), std::string::npos) << r.err;
  }
}

TEST(CliConventions, ListsComeFromTheCode) {
  const CliResult models = run_cli({"llm", "--list-models"});
  ASSERT_EQ(models.exit_code, 0) << models.err;
  EXPECT_NE(models.out.find("llama-3-8b\n"), std::string::npos) << models.out;
  EXPECT_NE(models.out.find("mixtral-8x7b\n"), std::string::npos) << models.out;
  EXPECT_EQ(run_cli({"llm", "--help"}).out.find("mixtral-8x7b"), std::string::npos) << "the help no longer restates them";
  const CliResult specs = run_cli({"report", "--list-specs"});
  ASSERT_EQ(specs.exit_code, 0) << specs.err;
  EXPECT_NE(specs.out.find("intel-xeon-8592plus-emerald-rapids\n"), std::string::npos) << specs.out;
  const std::string run_help = run_cli({"run", "--help"}).out;
  for (const char* name : {"bandwidth", "compute", "gemm", "transfer", "latency", "avx_vnni", "amx"}) {
    EXPECT_NE(run_help.find(name), std::string::npos) << name;
  }
  const CliResult no_config = run_cli({"llm"});
  EXPECT_EQ(no_config.exit_code, 2);
  EXPECT_NE(no_config.err.find("--list-models"), std::string::npos) << no_config.err;
}

}  // namespace roofline::testing
