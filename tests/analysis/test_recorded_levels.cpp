// Golden-ish tests on runs recorded on other machines (the recorded AMX run of ../shared/recorded/, copied
// to tests/data/golden/, and the reference run in results/reference/): re-derived, every run has L1, L2, L3
// and DRAM read ceilings at 1 thread and at all threads, in that order of decreasing bandwidth.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "roofline/analysis/memory_ceilings.hpp"
#include "support/gzip_json.hpp"

namespace roofline {
namespace {
using nlohmann::json;

using testing::load_gz;

double read_ceiling(const json& derived, const std::string& level, int threads) {
  for (const json& c : derived["memory_ceilings"]) {
    if (c["level"] == level && c["kernel"] == "read" && c["threads"] == threads) return c["value"].get<double>();
  }
  return 0.0;
}

class RecordedRun : public ::testing::TestWithParam<const char*> {};

TEST_P(RecordedRun, EveryLevelAtEveryThreadCountInOrder) {
  const json results = load_gz(std::string(ROOFLINE_SOURCE_DIR) + "/" + GetParam());
  ASSERT_TRUE(results.is_object()) << GetParam();
  const json derived = derive_memory_ceilings(results);
  for (int threads : {1, 2}) {
    const double l1 = read_ceiling(derived, "L1", threads), l2 = read_ceiling(derived, "L2", threads);
    const double l3 = read_ceiling(derived, "L3", threads), dram = read_ceiling(derived, "DRAM", threads);
    EXPECT_GT(dram, 0.0) << threads;
    EXPECT_GT(l3, dram) << threads;
    EXPECT_GT(l2, l3) << threads;
    EXPECT_GT(l1, l2) << threads;
    int levels = 0;
    for (const json& l : derived["memory_levels"]) levels += l["threads"] == threads;
    EXPECT_EQ(levels, 4) << threads;
  }
  // The VM's DRAM is flat from ~128-256 MiB on, although the L3 it reports (the host's) is 260-300 MiB.
  for (const json& l : derived["memory_levels"]) {
    if (l["level"] == "DRAM") {
      EXPECT_LE(l["min_bytes"].get<double>(), 256.0 * 1024 * 1024) << l.dump();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Recorded, RecordedRun,
                         ::testing::Values("tests/data/golden/emr-2vcpu-amx_quick_a.json.gz",
                                           "results/reference/vm-emerald-rapids-2vcpu_quick.json.gz"));

}  // namespace
}  // namespace roofline
