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
  args.insert(args.end(), {"--json", "-"});
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

TEST(CliLlm, MeasuresATinyMoeLayerBesideTheRoofOfTheMoment) {
  TempDir dir;
  const nlohmann::json a = run_json({"--config", (kData / "tiny_moe.json").string(), "--results", kResults, "--threads", "1",
                                     "--batches", "1,4", "--context", "64", "--prompt", "32", "--measure",
                                     "--out", (dir / "moe.json").string()});
  const auto& m = a["measured"];
  ASSERT_TRUE(m.contains("memory_roof_moment"));
  EXPECT_GT(m["memory_roof_moment"]["before"].get<double>(), 0.0);
  EXPECT_GT(m["memory_roof_moment"]["after"].get<double>(), 0.0);
  for (const auto& s : m["steps"]) {
    EXPECT_GT(s["measured_seconds"].get<double>(), 0.0);
    EXPECT_TRUE(s["residual_moment"].is_number());
    bool experts = false;
    for (const auto& op : s["ops"]) {
      EXPECT_GT(op["measured_seconds"].get<double>(), 0.0) << op["name"];
      experts = experts || op["name"] == "expert_up_proj";
    }
    EXPECT_TRUE(experts);
  }
}

TEST(CliLlm, MeasuresATinyLayer) {
  TempDir dir;
  const fs::path out = dir / "tiny.json";
  const nlohmann::json a = run_json({"--config", (kData / "tiny.json").string(), "--results", kResults, "--threads", "1",
                                     "--batches", "1,2", "--context", "64", "--prompt", "32", "--measure", "--out", out.string()});
  ASSERT_TRUE(a.contains("measured"));
  EXPECT_EQ(a["measured"]["results_file"], out.string());
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
  // The results file: the run's context with the environment guard, one entry set per step, the llm section.
  const nlohmann::json doc = nlohmann::json::parse(read_file(out));
  EXPECT_TRUE(doc["context"]["environment"].contains("canary"));
  // The canaries our code cannot move (issue 59): glibc's memcpy, beside ours.
  EXPECT_EQ(doc["context"]["environment"]["libc_canary"]["kernel"], "memcpy");
  EXPECT_GT(doc["context"]["environment"]["libc_core_canary"]["start"].get<double>(), 0.0);
  EXPECT_EQ(doc["context"]["threads"], nlohmann::json::array({1}));
  EXPECT_EQ(doc["context"]["binding"]["policy"], "compact");
  EXPECT_EQ(doc["context"]["suites"]["llm"]["estimate_from"], kResults);
  int medians = 0;
  for (const auto& e : doc["benchmarks"]) {
    EXPECT_EQ(e["labels"]["suite"], "llm");
    EXPECT_TRUE(e["labels"]["estimated_seconds"].is_number());
    medians += e.value("aggregate_name", "") == "median" ? 1 : 0;
  }
  EXPECT_EQ(medians, 3);
  EXPECT_TRUE(doc["roofline"].is_object());
  // Written by the harness's measure() as every `run` file (issue 47): the CPU target's facts, the plan of the
  // steps fixed before the first measurement, the suite's times and the run's, every entry's target.
  const nlohmann::json& ctx = doc["context"];
  ASSERT_EQ(ctx["targets"].size(), 1u);
  EXPECT_EQ(ctx["targets"][0]["target"], "cpu");
  EXPECT_EQ(ctx["plan"]["entries"], 3);
  EXPECT_EQ(ctx["plan"]["suites"]["llm"]["entries"], 3);
  EXPECT_GT(ctx["suites"]["llm"]["memory_roof_moment"]["before"].get<double>(), 0.0);
  EXPECT_GT(ctx["suites"]["llm"]["timed_seconds"].get<double>(), 0.0);
  EXPECT_GT(ctx["wall_seconds"].get<double>(), 0.0);
  EXPECT_TRUE(ctx.contains("time_budget") && ctx.contains("mapping_pool"));
  for (const auto& e : doc["benchmarks"]) EXPECT_EQ(e["labels"]["target"], "cpu");
  // It reads back as a run's file does: report renders it, compare gates it against itself.
  const CliResult report = run_cli({"report", out.string(), "--text"});
  EXPECT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(run_cli({"compare", out.string(), out.string()}).exit_code, 0);
}

void expect_refused(std::vector<std::string> args, const std::string& names);

// A quantized layer and lm_head timed with our dequant-dot kernels (issue 48): the step beside the estimate, each
// operation's bound named, batch 64 and prefill said not measured; the file reads back through report and compare.
TEST(CliLlm, MeasuresATinyQuantizedLayerAndItsLmHead) {
  TempDir dir;
  const fs::path out = dir / "q4_0.json";
  const nlohmann::json a = run_json({"--config", (kData / "tiny_quant.json").string(), "--results", kResults, "--threads", "1",
                                     "--weights", "q4_0", "--batches", "1,2,64", "--context", "64", "--prompt", "32",
                                     "--measure", "--out", out.string()});
  const auto& m = a["measured"];
  const auto& steps = m["steps"];
  ASSERT_EQ(steps.size(), 2u);  // decode 1 and 2; 64 and the prefill are said not measured
  for (const auto& s : steps) {
    EXPECT_EQ(s["format"], "q4_0");
    EXPECT_GT(s["step"]["measured_seconds"].get<double>(), s["measured_seconds"].get<double>());
    EXPECT_GT(s["step"]["ratio"].get<double>(), 0.0);
    EXPECT_TRUE(s["step"]["bound"].is_string());
    EXPECT_EQ(s["level"], "DRAM");  // the rotated copies stream past the caches
    bool head = false;
    for (const auto& op : s["ops"]) {
      EXPECT_GT(op["measured_seconds"].get<double>(), 0.0) << op["name"];
      EXPECT_TRUE(op["bound"].is_string());
      if (op["weight_bytes"].get<double>() > 0.0) { EXPECT_EQ(op["format"], "q4_0") << op["name"]; }
      head = head || op["name"] == "lm_head";
    }
    EXPECT_TRUE(head);
  }
  const std::string notes = m["notes"].dump();
  EXPECT_NE(notes.find("decode at batch 64 not measured"), std::string::npos) << notes;
  EXPECT_NE(notes.find("prefill of 32 tokens not measured"), std::string::npos) << notes;
  const CliResult text = run_cli({"llm", "--config", (kData / "tiny_quant.json").string(), "--results", kResults, "--threads", "1",
                                  "--weights", "q4_0", "--batches", "1", "--context", "64", "--measure", "--out",
                                  (dir / "text.json").string()});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("step (layers x layer + lm_head)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("step: estimated / measured"), std::string::npos) << text.out;
  // The file reads back: llm --measured sets it beside the estimate again, the same answer without measuring;
  // another format's, a file that is no llm measurement and --measured with --measure are refused.
  const std::vector<std::string> back{"--config", (kData / "tiny_quant.json").string(), "--results", kResults, "--threads", "1",
                                      "--weights", "q4_0", "--batches", "1,2,64", "--context", "64", "--prompt", "32"};
  std::vector<std::string> read = back;
  read.insert(read.end(), {"--measured", out.string()});
  EXPECT_EQ(run_json(read)["measured"], m);
  read[7] = "q8_0";
  expect_refused(read, "it measured tiny_quant with q4_0 weights and a bf16 KV cache");
  read = back;
  read.insert(read.end(), {"--measured", kResults});
  expect_refused(read, "not a results file of `roofline llm --measure`");
  read = back;
  read.insert(read.end(), {"--measured", out.string(), "--measure"});
  expect_refused(read, "--measured reads back a file --measure wrote");
  // The file reads back: report renders it, compare gates it against itself.
  const CliResult report = run_cli({"report", out.string()});
  EXPECT_EQ(report.exit_code, 0) << report.err;
  const CliResult same = run_cli({"compare", out.string(), out.string()});
  EXPECT_NE(same.exit_code, 2) << same.out << same.err;
  EXPECT_NE(same.out.find("llm/tiny_quant/q4_0/kv:bf16/decode/batch:1/context:64/threads:1"), std::string::npos) << same.out;
}

// The file `llm --measure` writes, its environment made quiet and one layer made slower by hand.
nlohmann::json slowed(nlohmann::json doc, const std::string& step, double factor) {
  auto& env = doc["context"]["environment"];
  env["steal_fraction"] = 0.0;
  env["other_busy_fraction"] = 0.0;
  env["canary"]["end"] = env["canary"]["start"];
  // The canaries the gate weighs against (issue 59), steady too.
  for (const char* libc : {"libc_canary", "libc_core_canary"}) {
    if (!env.contains(libc)) continue;
    env[libc]["end"] = env[libc]["start"];
    env[libc].erase("checkpoints");
  }
  for (auto& e : doc["benchmarks"]) {
    if (e["labels"]["step"] == step && e.contains("layer_seconds")) e["layer_seconds"] = e["layer_seconds"].get<double>() * factor;
  }
  return doc;
}

TEST(CliLlm, MeasuredResultsGateInCompareAndHistoryAndAreNeverOverwritten) {
  TempDir dir;
  const fs::path out = dir / "run.json";
  const std::vector<std::string> measure{"llm", "--config", (kData / "tiny.json").string(), "--results", kResults, "--threads", "1",
                                         "--batches", "1", "--context", "64", "--prompt", "16", "--measure", "--out", out.string()};
  const CliResult first = run_cli(measure);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("results  " + out.string()), std::string::npos) << first.out;
  const std::string written = read_file(out);
  const CliResult again = run_cli(measure);  // refused before anything is measured
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_TRUE(one_line(again.err)) << again.err;
  EXPECT_NE(again.err.find("--force"), std::string::npos) << again.err;
  EXPECT_EQ(read_file(out), written);

  const nlohmann::json doc = nlohmann::json::parse(written);
  write_file(dir / "base.json", slowed(doc, "", 1.0).dump());
  write_file(dir / "slow.json", slowed(doc, "decode-b1", 1.3).dump());
  const CliResult same = run_cli({"compare", (dir / "base.json").string(), (dir / "base.json").string()});
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  const CliResult slow = run_cli({"compare", (dir / "base.json").string(), (dir / "slow.json").string()});
  EXPECT_EQ(slow.exit_code, 1) << slow.out << slow.err;
  EXPECT_NE(slow.out.find("llm/tiny/bf16/kv:bf16/decode/batch:1/context:64/threads:1"), std::string::npos) << slow.out;
  EXPECT_NE(slow.out.find("REGRESSION"), std::string::npos) << slow.out;

  const std::string db = (dir / "history.db").string();
  const CliResult added = run_cli({"history", "add", out.string(), "--db", db});
  EXPECT_EQ(added.exit_code, 0) << added.err;
  // 2 layers and the canaries kept beside them: ours (DRAM) and, since issue 59, the two libc ones.
  EXPECT_NE(added.out.find("(5 key figures)"), std::string::npos) << added.out;
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
  expect_refused(with({"--weights", "q3_k"}), "--weights 'q3_k': expected bf16, fp32, int8, q8_0, q4_0");
  expect_refused(with({"--weights", "int4-g7"}), "--weights 'int4-g7'");
  expect_refused(with({"--keep", "norms=fp32"}), "--keep 'norms=fp32'");
  expect_refused(with({"--keep", "lm_head=q9"}), "--keep lm_head 'q9'");
  expect_refused(with({"--routing", "best"}), "--routing: llama-2-7b is not a mixture of experts");
  expect_refused({"--config", "llama-3.2-1b", "--results", kResults, "--keep", "lm_head=q8_0"},
                 "--keep lm_head: llama-3.2-1b ties lm_head to the embeddings; keep embed instead");
  expect_refused(with({"--observed", "decode=fast"}), "--observed 'decode=fast'");
  expect_refused(with({"--observed", "decode=20"}), "--observed decode=: give the one batch");
  expect_refused(with({"--draft", "llama-3.2-1b"}), "--draft, --accept and --draft-tokens go together");
  expect_refused(with({"--draft", "llama-3.2-1b", "--accept", "1.5", "--draft-tokens", "4"}), "--accept '1.5'");
  expect_refused(with({"--draft", "llama-3.2-1b", "--accept", "0.7", "--draft-tokens", "0"}), "--draft-tokens");
  expect_refused(with({"--target", "cuda:0"}), "--target 'cuda:0': ");
  expect_refused(with({"--weights", "fp8", "--measure"}), "--weights fp8: --measure has no dequant-dot kernel for it");
  expect_refused(with({"--weights", "int4-g16", "--measure"}), "--weights int4-g16: --measure has no dequant-dot kernel");
  expect_refused(with({"--weights", "q3_k", "--measure"}), "--weights 'q3_k': expected bf16, fp32, int8, q8_0, q4_0");
  expect_refused(with({"--weights", "q4_0", "--keep", "embed=q8_0", "--measure"}), "--keep: --measure times every weight");
  expect_refused(with({"--kv", "fp64"}), "--kv 'fp64'");
  expect_refused(with({"--batches", "0"}), "--batches");
  expect_refused(with({"--batches", "1,x"}), "not an integer");
  expect_refused(with({"--context", "-4"}), "--context");
  expect_refused(with({"--prompt", ""}), "--prompt");
  expect_refused(with({"--threads", "3"}), "no DRAM memory ceiling at 3 threads");
  expect_refused(with({"--roof", "datasheet"}), "--roof");
  expect_refused(with({"--out", "x.json"}), "--out, --profile, --bind and --backends go with --measure");
  expect_refused(with({"--profile", "full"}), "--out, --profile, --bind and --backends go with --measure");
  expect_refused(with({"--measure", "--bind", "sideways"}), "--bind");
  expect_refused(with({"--measure", "--backends", "nope"}), "--backends: 'nope' is not a GEMM backend");
  expect_refused(with({"--measure", "--profile", "slow"}), "--profile");
  expect_refused(with({"--measure", "--out", ""}), "--out: empty value");
}

TEST(CliLlm, MoeRoutingIsStatedAndChangesTheExpertsRead) {
  const nlohmann::json a = run_json({"--config", "mixtral-8x7b", "--results", kResults, "--batches", "1,8", "--context", "512"});
  EXPECT_EQ(a["model"]["parameters"], 46'702'792'704);
  EXPECT_EQ(a["model"]["active_parameters"], 12'879'925'248);
  EXPECT_NE(a["model"]["moe"]["routing"].get<std::string>().find("E x (1 - (1 - k/E)^T)"), std::string::npos);
  EXPECT_DOUBLE_EQ(a["decode"][0]["experts_touched_per_layer"].get<double>(), 2.0);
  EXPECT_NEAR(a["decode"][1]["experts_touched_per_layer"].get<double>(), 7.199, 1e-3);
  const nlohmann::json best = run_json({"--config", "mixtral-8x7b", "--results", kResults, "--batches", "8", "--routing", "best"});
  EXPECT_DOUBLE_EQ(best["decode"][0]["experts_touched_per_layer"].get<double>(), 2.0);
  expect_refused({"--config", "mixtral-8x7b", "--results", kResults, "--routing", "touched=9"}, "between num_experts_per_tok (2)");
}

TEST(CliLlm, QuantizedWeightsSayTheirBytesPrecisionAndBound) {
  const nlohmann::json a = run_json({"--config", "llama-2-7b", "--results", kResults, "--weights", "q4_0", "--batches", "1",
                                     "--keep", "lm_head=q6_k"});
  EXPECT_EQ(a["model"]["weights"], "q4_0");
  EXPECT_EQ(a["model"]["compute_precision"], "int8");
  EXPECT_EQ(a["model"]["weight_bytes"], 3'825'065'984.0);
  EXPECT_EQ(a["model"]["keep"]["lm_head"], "q6_k");
  EXPECT_EQ(a["decode"][0]["bound"], "memory");
  EXPECT_TRUE(a["conventions"].contains("quantized"));
  const nlohmann::json q6 = run_json({"--config", "llama-2-7b", "--results", kResults, "--weights", "q6_k", "--batches", "1",
                                      "--context", "16"});
  EXPECT_EQ(q6["decode"][0]["bound"], "dequant");
  expect_refused({"--config", "qwen1.5-moe-a2.7b", "--results", kResults, "--weights", "q4_k"}, "experts.down_proj rows of 1408");
}

TEST(CliLlm, ObservedSpeedsGiveMbuMfuAndTheNearestBound) {
  const nlohmann::json a = run_json({"--config", "llama-2-7b", "--results", kResults, "--batches", "1", "--prompt", "512",
                                     "--observed", "decode=2,prefill=100"});
  const auto& d = a["observed"]["decode"];
  // A 500 ms step moving the estimate's bytes: MBU = bytes x 2 / 50 GB/s.
  EXPECT_DOUBLE_EQ(d["mbu"].get<double>(), a["decode"][0]["bytes"].get<double>() * 2.0 / 5e10);
  EXPECT_DOUBLE_EQ(d["mfu"].get<double>(), a["decode"][0]["flops"].get<double>() * 2.0 / 1e12);
  EXPECT_EQ(d["nearest_bound"], "memory");
  const auto& p = a["observed"]["prefill"];
  EXPECT_DOUBLE_EQ(p["mfu"].get<double>(), a["prefill"][0]["flops"].get<double>() / (512.0 / 100.0) / 1e12);
  EXPECT_EQ(p["nearest_bound"], "compute");
  // Faster than the memory roof allows: said, not clamped.
  const nlohmann::json fast = run_json({"--config", "llama-2-7b", "--results", kResults, "--batches", "1", "--observed", "decode=10"});
  EXPECT_GT(fast["observed"]["decode"]["mbu"].get<double>(), 1.0);
  EXPECT_NE(fast["notes"].dump().find("above a roof"), std::string::npos) << fast["notes"];
}

TEST(CliLlm, SpeculativeDecodingBound) {
  const nlohmann::json a = run_json({"--config", "llama-2-7b", "--results", kResults, "--batches", "1", "--context", "512",
                                     "--draft", "llama-3.2-1b", "--accept", "0.8", "--draft-tokens", "4"});
  const auto& row = a["speculative"]["rows"][0];
  EXPECT_EQ(a["speculative"]["draft"], "llama-3.2-1b");
  EXPECT_NEAR(row["tokens_per_cycle"].get<double>(), 3.3616, 1e-12);
  const double draft = row["draft_step_seconds"].get<double>(), target = row["target_step_seconds"].get<double>();
  const double verify = row["verify_step_seconds"].get<double>();
  EXPECT_DOUBLE_EQ(target, a["decode"][0]["seconds_per_token"].get<double>());
  EXPECT_GT(verify, target);  // five tokens per sequence verified
  EXPECT_DOUBLE_EQ(row["speedup"].get<double>(), 3.3616 * target / (4 * draft + verify));
}

TEST(CliLlm, TargetPicksOneTargetsCeilingsAndMemory) {
  TempDir dir;
  nlohmann::json results = nlohmann::json::parse(read_file(kResults));
  nlohmann::json& section = results["roofline"];
  for (const char* key : {"compute_ceilings", "memory_ceilings"}) {
    nlohmann::json extra = nlohmann::json::array();
    for (nlohmann::json e : section[key]) {
      e["target"] = "gpu0";
      e["value"] = e["value"].get<double>() * 10;
      extra.push_back(e);
    }
    for (const auto& e : extra) section[key].push_back(e);
  }
  results["context"]["targets"] = {{{"target", "gpu0"}, {"memory_total_bytes", 16.0 * (1 << 30)}}};
  const fs::path file = dir / "two_targets.json";
  write_file(file, results.dump());
  const nlohmann::json cpu = run_json({"--config", "llama-2-7b", "--results", file.string(), "--batches", "1"});
  const nlohmann::json gpu = run_json({"--config", "llama-2-7b", "--results", file.string(), "--batches", "1", "--target", "gpu0"});
  EXPECT_EQ(cpu["target"], "cpu");
  EXPECT_EQ(gpu["target"], "gpu0");
  EXPECT_NEAR(cpu["decode"][0]["seconds"].get<double>() / gpu["decode"][0]["seconds"].get<double>(), 10.0, 1e-9);
  EXPECT_EQ(gpu["model"]["memory_total_bytes"], 16.0 * (1 << 30));
  EXPECT_EQ(gpu["model"]["weights_fit"], true);
  EXPECT_EQ(gpu["model"]["max_sequences"], 1);  // (16 GiB - 12.55 GiB) / 2 GiB
  const nlohmann::json big = run_json({"--config", "llama-2-70b", "--results", file.string(), "--batches", "1", "--target", "gpu0"});
  EXPECT_EQ(big["model"]["weights_fit"], false);
  EXPECT_EQ(big["model"]["max_sequences"], 0);
}

TEST(CliLlm, ArchitecturesAndFieldsWeDoNotModelAreRefused) {
  expect_refused({"--config", (kData / "mla.json").string(), "--results", kResults},
                 "architecture 'DeepseekV2ForCausalLM' is not modelled");
  expect_refused({"--config", (kData / "unknown_field.json").string(), "--results", kResults},
                 "field 'layer_types' is not modelled for LlamaForCausalLM");
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
