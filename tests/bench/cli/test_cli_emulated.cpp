// End-to-end (issue 62): a results file of a real run under qemu-user (ARM64 kernels emulated on this x86-64 machine,
// tests/data/emulated/, its context.machine.emulated true) reads back through every command on this build: report
// (text and HTML), compare and history, the report saying before its first figure that the run was emulated, so that
// none of its figures passes for a ceiling of the CPU, and llm, whose estimate says the same.
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace roofline::testing {
namespace {
namespace fs = std::filesystem;

// The stored file, unpacked into `dir` (a .json.gz keeps the repository small); empty when gzip is missing.
fs::path unpack_emulated(const TempDir& dir) {
  const fs::path gz = fs::path(ROOFLINE_TEST_DATA_DIR) / "emulated" / "arm64-qemu-sve256_quick.json.gz";
  const fs::path to = dir / "q.json";
  if (std::system(("gzip -dc '" + gz.string() + "' > '" + to.string() + "'").c_str()) != 0) return {};
  return to;
}

TEST(CliEmulated, TheStoredFileSaysItWasEmulatedAndEveryKernelValidated) {
  TempDir dir;
  const fs::path q = unpack_emulated(dir);
  if (q.empty()) GTEST_SKIP() << "no gzip";
  const nlohmann::json j = nlohmann::json::parse(read_file(q));
  const nlohmann::json& machine = j.at("context").at("machine");
  EXPECT_EQ(machine.at("emulated"), true);
  EXPECT_NE(machine.at("emulation").get<std::string>().find("aarch64"), std::string::npos);
  ASSERT_FALSE(j.at("benchmarks").empty());
  std::set<std::string> rows;
  for (const nlohmann::json& b : j.at("benchmarks")) {
    EXPECT_FALSE(b.value("error_occurred", false)) << b.value("name", "") << ": " << b.value("error_message", "");
    const std::string name = b.value("name", "");
    rows.insert(name.substr(0, name.find("/threads")));
  }
  // Every ARM64 peak and the NEON+SDOT dequant kernels ran (QEMU_CPU=max,sve256=on has every extension).
  for (const char* row : {"compute/fma/fp64/neon/bits:128", "compute/fma/fp16/neon/bits:128",
                          "compute/fma/fp64/sve/bits:256", "compute/fma/fp16/sve/bits:256", "compute/dot/int8/sve/bits:256",
                          "compute/dot/int8/neon/bits:128", "compute/mmla/int8/neon/bits:128",
                          "compute/dot/bf16/neon/bits:128", "compute/mmla/bf16/neon/bits:128",
                          "compute/dequant_dot/q4_k/neon_dotprod/level:L1"}) {
    EXPECT_EQ(rows.count(row), 1u) << row;
  }
}

TEST(CliEmulated, ReadsBackThroughReportCompareLlmAndHistory) {
  TempDir dir;
  const fs::path q = unpack_emulated(dir);
  if (q.empty()) GTEST_SKIP() << "no gzip";
  const CliResult text = run_cli({"report", q.string(), "--text"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  // The warning is the first paragraph after the title, before every table.
  ASSERT_NE(text.out.find("\n\nEMULATED RUN"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("\n\nEMULATED RUN"), text.out.find("\n\n")) << text.out;

  const fs::path html = dir / "q.html";
  const CliResult page = run_cli({"report", q.string(), "--html", html.string()});
  ASSERT_EQ(page.exit_code, 0) << page.err;
  const std::string h = read_file(html);
  EXPECT_NE(h.find("id=\"emulated\""), std::string::npos);
  EXPECT_LT(h.find("id=\"emulated\""), h.find("<section id=\"roofline\">"));

  // The emulator's curve is flat (one speed at every size), so the levels are the reported caches', main memory past
  // the last of them, each said to come from the report and the note saying why (analysis/model/memory_ceilings.cpp).
  const CliResult rederived = run_cli({"report", q.string(), "--text", "--rederive"});
  ASSERT_EQ(rederived.exit_code, 0) << rederived.err;
  EXPECT_NE(rederived.out.find("emulated run: the 'read' curve is the emulator's speed at every size"),
            std::string::npos) << rederived.out;
  for (const char* level : {"L1", "L2", "L3", "DRAM"}) {
    EXPECT_NE(rederived.out.find(fmt::format("        1 {:<5} ", level)), std::string::npos) << level << rederived.out;
  }

  const CliResult cmp = run_cli({"compare", q.string(), q.string()});
  EXPECT_EQ(cmp.exit_code, 0) << cmp.out << cmp.err;

  // llm reads it: the emulated run's levels come from the reported caches (the flat curve cannot place them), so
  // there is a DRAM ceiling, and the estimate says before its figures that the roofs are the emulator's.
  const CliResult llm = run_cli({"llm", "--results", q.string(), "--config", "llama-3-8b"});
  EXPECT_EQ(llm.exit_code, 0) << llm.out << llm.err;
  EXPECT_NE(llm.out.find("emulated run"), std::string::npos) << llm.out;

  const std::string db = (dir / "history.db").string();
  const CliResult add = run_cli({"history", "add", q.string(), "--db", db});
  ASSERT_EQ(add.exit_code, 0) << add.err;
  const CliResult show = run_cli({"history", "show", "--db", db});
  EXPECT_EQ(show.exit_code, 0) << show.err;
  EXPECT_FALSE(show.out.empty());
}

}  // namespace
}  // namespace roofline::testing
