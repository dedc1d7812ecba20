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

}  // namespace
}  // namespace roofline
