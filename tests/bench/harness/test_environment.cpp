// The environment guard's /proc parsers (roofline/harness/environment.hpp) on recorded text, and the canary size.
#include <gtest/gtest.h>

#include "roofline/harness/environment.hpp"

namespace roofline {
namespace {

TEST(Environment, ParsesProcStat) {
  const auto t = parse_proc_stat(
      "cpu  100 5 50 800 20 3 2 7 0 0\ncpu0 50 2 25 400 10 1 1 3 0 0\nintr 12345\n");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->total, 100u + 5 + 50 + 800 + 20 + 3 + 2 + 7);
  EXPECT_EQ(t->steal, 7u);
  EXPECT_EQ(t->idle, 820u);
  EXPECT_FALSE(parse_proc_stat("intr 1\n").has_value());
  EXPECT_FALSE(parse_proc_stat("cpu  1 2\n").has_value());
}

TEST(Environment, ParsesLoadavg) {
  const auto l = parse_loadavg("0.52 1.25 3.00 2/345 6789\n");
  ASSERT_TRUE(l.has_value());
  EXPECT_DOUBLE_EQ((*l)[0], 0.52);
  EXPECT_DOUBLE_EQ((*l)[2], 3.0);
  EXPECT_FALSE(parse_loadavg("").has_value());
}

TEST(Environment, CanaryGoesBeyondTheCachesWithinTheBudget) {
  MachineFacts m;
  m.caches.push_back(CacheInfo{});
  m.caches.back().size_bytes = 32ull << 20;
  RunConfig c;
  c.memory_budget_bytes = 8ull << 30;
  EXPECT_EQ(canary_bytes(m, c), 256ull << 20);  // 8x the L3, at least 256 MiB
  m.caches.back().size_bytes = 1ull << 30;
  EXPECT_EQ(canary_bytes(m, c), 1ull << 30);     // at most 1 GiB
  c.memory_budget_bytes = 100ull << 20;
  EXPECT_EQ(canary_bytes(m, c), 50ull << 20);
}

// The canaries our code cannot move (issue 59): glibc's memcpy in L2 and over a working set, measured and validated
// (a wrong copy throws), and written beside ours in the shape of ours.
TEST(Environment, LibcCanariesMeasureMemcpyAndAreWrittenBesideOurs) {
  EXPECT_GT(measure_libc_core_canary(1), 0.0);
  EXPECT_GT(measure_libc_canary(16ull << 20, 1), 0.0);
  EXPECT_EQ(libc_canary_slice_bytes(16ull << 20, 2), 4ull << 20);
  EXPECT_EQ(libc_canary_slice_bytes(100, 2), 64u);  // at least a cache line
  EnvironmentSample start, end;
  start.libc_canary_bytes_per_second = 20e9;
  end.libc_canary_bytes_per_second = 22e9;
  start.libc_core_canary_bytes_per_second = 100e9;
  end.libc_core_canary_bytes_per_second = 100e9;
  const std::vector<CanaryCheckpoint> checkpoints{{"cpu/compute", 5.0, 30e9, 300e9, 21e9, 99e9}};
  const nlohmann::json env = environment_json(start, end, 256ull << 20, 2, checkpoints);
  const nlohmann::json& dram = env["libc_canary"];
  EXPECT_EQ(dram["kernel"], "memcpy");
  EXPECT_EQ(dram["working_set_bytes"], 256ull << 20);
  EXPECT_EQ(dram["threads"], 2);
  EXPECT_EQ(dram["passes"], kLibcCanaryPasses);
  EXPECT_NEAR(dram["drift"].get<double>(), 0.1, 1e-12);
  ASSERT_EQ(dram["checkpoints"].size(), 1u);
  EXPECT_EQ(dram["checkpoints"][0]["bytes_per_second"], 21e9);
  const nlohmann::json& core = env["libc_core_canary"];
  EXPECT_EQ(core["kernel"], "memcpy");
  EXPECT_EQ(core["working_set_bytes"], 2 * kCoreCanaryBytesPerThread);
  EXPECT_EQ(core["samples"], kLibcCoreCanarySamples);
  EXPECT_EQ(core["checkpoints"][0]["bytes_per_second"], 99e9);
  // Not measured: not written (ours alone, as in files before issue 59).
  EXPECT_FALSE(environment_json(EnvironmentSample{}, EnvironmentSample{}, 256ull << 20, 2).contains("libc_canary"));
}

}  // namespace
}  // namespace roofline
