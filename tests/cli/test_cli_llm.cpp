// End-to-end: `roofline llm` on the hand-made results of tests/data/llm: the --json fields, the HTML page,
// no overwrite without --force, a small --measure run of a tiny config, and every bad input ending in one
// line, exit code 2 and no file written.
#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace roofline::testing {
namespace {
namespace fs = std::filesystem;
const fs::path kData = fs::path(ROOFLINE_TEST_DATA_DIR) / "llm";
const std::string kResults = (kData / "results_2t.json").string();

nlohmann::json run_json(std::vector<std::string> args) {
  args.insert(args.begin(), "llm");
  args.push_back("--json");
  const CliResult r = run_cli(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(CliLlm, JsonAnswersTheQuestionsFor7B) {
  const nlohmann::json a = run_json({"--config", "llama-2-7b", "--results", kResults});
  EXPECT_EQ(a["model"]["parameters"], 6'738'415'616);
  EXPECT_EQ(a["model"]["kv_cache_bytes_per_token"], 524'288.0);
  EXPECT_EQ(a["model"]["max_sequences"], 9);
  ASSERT_EQ(a["decode"].size(), 3u);
  for (const auto& row : a["decode"]) {
    for (const char* key : {"batch", "context", "seconds_per_token", "tokens_per_second", "bound"}) {
      EXPECT_TRUE(row.contains(key)) << key;
    }
  }
  EXPECT_EQ(a["decode"][0]["batch"], 1);
  EXPECT_EQ(a["decode"][0]["context"], 4096);
  EXPECT_EQ(a["decode"][0]["bound"], "memory");
  EXPECT_EQ(a["prefill"][0]["prompt_tokens"], 512);
  EXPECT_EQ(a["prefill"][0]["bound"], "compute");
  EXPECT_TRUE(a["prefill"][0]["seconds"].is_number());
  EXPECT_TRUE(a.contains("conventions"));
}

TEST(CliLlm, FindsShippedModelsByNameInAnyCase) {
  const nlohmann::json a = run_json({"--config", "Llama-3-8B", "--results", kResults});
  EXPECT_EQ(a["model"]["name"], "llama-3-8b");
  EXPECT_EQ(a["model"]["parameters"], 8'030'261'248);
}

TEST(CliLlm, FlagsChangeTheAnswer) {
  const nlohmann::json a = run_json({"--config", "llama-3-8b", "--results", kResults, "--weights", "int8", "--kv", "fp32",
                                     "--batches", "2,1", "--context", "128", "--prompt", "64,16"});
  EXPECT_EQ(a["model"]["weights"], "int8");
  EXPECT_EQ(a["model"]["kv_cache_bytes_per_token"], 262'144.0);
  EXPECT_EQ(a["decode"][0]["batch"], 1);  // sorted
  EXPECT_EQ(a["decode"][1]["context"], 128);
  EXPECT_EQ(a["prefill"].size(), 2u);
}

TEST(CliLlm, TablesAndHtmlPage) {
  TempDir dir;
  const fs::path html = dir / "llm.html";
  const CliResult r = run_cli({"llm", "--config", "llama-3-8b", "--results", kResults, "--html", html.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Decode at context 4096"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Prefill (time to first token)"), std::string::npos);
  const std::string page = read_file(html);
  for (const char* id : {"id=\"llm\"", "id=\"llm-roofline-chart\"", "id=\"llm-throughput-chart\"", "id=\"llm-latency-chart\"",
                         "class=\"llm-decode\"", "class=\"llm-prefill\"", "id=\"llm-decode\""}) {
    EXPECT_NE(page.find(id), std::string::npos) << id;
  }
  const CliResult again = run_cli({"llm", "--config", "llama-3-8b", "--results", kResults, "--html", html.string()});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("--force"), std::string::npos) << again.err;
  EXPECT_EQ(run_cli({"llm", "--config", "llama-3-8b", "--results", kResults, "--html", html.string(), "--force"}).exit_code, 0);
}

TEST(CliLlm, MeasuresATinyLayer) {
  const nlohmann::json a = run_json({"--config", (kData / "tiny.json").string(), "--results", kResults, "--threads", "1",
                                     "--batches", "1,2", "--context", "64", "--prompt", "32", "--measure"});
  ASSERT_TRUE(a.contains("measured"));
  const auto& steps = a["measured"]["steps"];
  ASSERT_EQ(steps.size(), 3u);  // decode 1, decode 2, prefill 32
  for (const auto& s : steps) {
    EXPECT_GT(s["estimated_seconds"].get<double>(), 0.0);
    EXPECT_GT(s["measured_seconds"].get<double>(), 0.0);
    ASSERT_EQ(s["ops"].size(), 9u);
    for (const auto& op : s["ops"]) {
      EXPECT_GT(op["measured_seconds"].get<double>(), 0.0) << op["name"];
      EXPECT_TRUE(op.contains("estimated_seconds"));
    }
  }
  EXPECT_EQ(steps[2]["phase"], "prefill");
}

void expect_refused(std::vector<std::string> args, const std::string& names) {
  TempDir dir;
  const fs::path html = dir / "out.html";
  args.insert(args.begin(), "llm");
  args.insert(args.end(), {"--html", html.string()});
  const CliResult r = run_cli(args);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(one_line(r.err)) << r.err;
  EXPECT_NE(r.err.find(names), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_FALSE(fs::exists(html));
}

TEST(CliLlm, BadConfigsAreRefused) {
  expect_refused({"--config", (kData / "not_json.json").string(), "--results", kResults}, "truncated JSON");
  expect_refused({"--config", (kData / "missing_field.json").string(), "--results", kResults}, "'intermediate_size' is missing");
  expect_refused({"--config", (kData / "heads_not_dividing.json").string(), "--results", kResults}, "does not divide hidden_size");
  expect_refused({"--config", (kData / "kv_not_dividing.json").string(), "--results", kResults}, "does not divide num_attention_heads");
  expect_refused({"--config", (kData / "zero_layers.json").string(), "--results", kResults}, "positive integer, not 0");
  expect_refused({"--config", (kData / "negative_vocab.json").string(), "--results", kResults}, "positive integer, not -5");
  expect_refused({"--config", "no-such-model", "--results", kResults}, "nor a shipped models name (available in");
}

TEST(CliLlm, BadFlagsAreRefused) {
  const std::vector<std::string> base{"--config", "llama-2-7b", "--results", kResults};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  expect_refused(with({"--weights", "fp8"}), "--weights 'fp8': expected bf16, fp32 or int8");
  expect_refused(with({"--kv", "fp64"}), "--kv 'fp64'");
  expect_refused(with({"--batches", "0"}), "--batches");
  expect_refused(with({"--batches", "1,x"}), "not an integer");
  expect_refused(with({"--context", "-4"}), "--context");
  expect_refused(with({"--prompt", ""}), "--prompt");
  expect_refused(with({"--threads", "3"}), "no DRAM memory ceiling at 3 threads");
  expect_refused(with({"--roof", "datasheet"}), "--roof");
}

TEST(CliLlm, ResultsWithoutTheNeededCeilingsAreRefused) {
  expect_refused({"--config", "llama-2-7b", "--results", (kData / "results_no_bf16.json").string()},
                 "no bf16 compute ceiling at 2 threads; measure it with `roofline run --suites compute");
  expect_refused({"--config", "llama-2-7b", "--results", (kData / "results_no_dram.json").string()}, "no DRAM memory ceiling");
  expect_refused({"--config", "llama-2-7b", "--results", (kData / "no-such.json").string()}, "no such file");
  expect_refused({"--config", "llama-2-7b", "--results", (kData / "tiny.json").string()}, "not a results file");
}

TEST(CliLlm, SaysHowToMakeAResultsFileWhenThereIsNone) {
  // The tests run in the build's tests folder, which has no results/ of its own.
  ASSERT_FALSE(fs::exists("results"));
  expect_refused({"--config", "llama-2-7b"}, "no results file in results/: make one with `roofline run`");
}

}  // namespace
}  // namespace roofline::testing
