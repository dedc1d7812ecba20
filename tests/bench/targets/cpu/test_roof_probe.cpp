// The roof-of-the-moment probe (bench/targets/cpu/roof_probe.hpp, issues 33 and 60): one array for every thread count
// on a machine of one NUMA node, one per thread count on several; a probe asked for right after the last one, on its
// threads and about its size, is that one (the "after" of one point is the "before" of the next), and a later one or
// one of another size or team is measured anew.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <thread>

#include "roof_probe.hpp"

namespace roofline {
namespace {

constexpr std::uint64_t kProbeBytes = 8ull << 20;  // mapped (2 MiB pages from 4 MiB up), quick to read

// The probe keeps references to its machine and configuration: each test holds both.
RunConfig probe_config(std::uint64_t memory_budget = 1ull << 30) {
  RunConfig config;
  config.bind = BindPolicy::none;
  config.memory_budget_bytes = memory_budget;
  return config;
}

MachineFacts machine_of(int numa_nodes) {
  MachineFacts machine;
  machine.numa_nodes = numa_nodes;
  return machine;
}

TEST(RoofProbe, OneArrayServesEveryThreadCountOnOneNumaNode) {
  const MachineFacts machine = machine_of(1);
  const RunConfig config = probe_config();
  RoofProbe probe(machine, config);
  ASSERT_TRUE(probe.reserve(2, kProbeBytes));
  // Both teams read the one array, each the whole size asked (the read's sum validates it).
  for (const int threads : {1, 2}) {
    const nlohmann::json r = probe.measure(threads, kProbeBytes);
    EXPECT_EQ(r.at("threads").get<int>(), threads);
    EXPECT_GE(r.at("working_set_bytes").get<double>(), 0.99 * static_cast<double>(kProbeBytes));
    EXPECT_GT(r.at("bytes_per_second").get<double>(), 0.0);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // not the last one again
  }
}

TEST(RoofProbe, ArrayPerThreadCountOnSeveralNumaNodes) {
  const MachineFacts two_nodes = machine_of(2);
  const RunConfig config = probe_config();
  RoofProbe probe(two_nodes, config);
  ASSERT_TRUE(probe.reserve(1, kProbeBytes));
  ASSERT_TRUE(probe.reserve(2, kProbeBytes));
  // Each its own array: the budget of a quarter of the memory budget counts both.
  const RunConfig tight = probe_config(4 * (kProbeBytes + kProbeBytes / 2));
  RoofProbe limited(two_nodes, tight);
  EXPECT_TRUE(limited.reserve(1, kProbeBytes));
  EXPECT_FALSE(limited.reserve(2, kProbeBytes));
  const MachineFacts one_node = machine_of(1);
  RoofProbe shared(one_node, tight);
  EXPECT_TRUE(shared.reserve(1, kProbeBytes));
  EXPECT_TRUE(shared.reserve(2, kProbeBytes));  // the same array
}

TEST(RoofProbe, TheLastProbeIsReusedOnlyRightAfterItOnItsTeamAndSize) {
  const MachineFacts machine = machine_of(1);
  const RunConfig config = probe_config();
  RoofProbe probe(machine, config);
  const nlohmann::json first = probe.measure(1, kProbeBytes);
  const double spent = probe.seconds();
  // Right after, 1% larger: the same measurement, nothing measured.
  EXPECT_EQ(probe.measure(1, kProbeBytes + kProbeBytes / 100), first);
  EXPECT_EQ(probe.seconds(), spent);
  // Another team: measured.
  probe.measure(2, kProbeBytes);
  EXPECT_GT(probe.seconds(), spent);
  // Another size (half): measured.
  const double before_half = probe.seconds();
  const nlohmann::json half = probe.measure(2, kProbeBytes / 2);
  EXPECT_GT(probe.seconds(), before_half);
  EXPECT_LT(half.at("working_set_bytes").get<double>(), 0.6 * static_cast<double>(kProbeBytes));
  // Later than kProbeReuseSeconds: measured.
  std::this_thread::sleep_for(std::chrono::duration<double>(2 * kProbeReuseSeconds));
  const double before_late = probe.seconds();
  probe.measure(2, kProbeBytes / 2);
  EXPECT_GT(probe.seconds(), before_late);
}

}  // namespace
}  // namespace roofline
