// The OpenCL target's DeviceWork (issue 22) on the first OpenCL device (PoCL's CPU device in CI), at small sizes
// and without the harness: every batch runs and validates, the facts become TargetFacts, a device lost mid-run
// is TargetLost naming it, and allocations above the device's limit are capped and said. Skipped, with the
// reason, when no OpenCL device exists.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "roofline/harness/runner.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/opencl/device_plan.hpp"
#include "roofline/opencl/discovery.hpp"
#include "roofline/opencl/provider.hpp"
#include "roofline/opencl/work.hpp"

namespace roofline::opencl {
namespace {

std::shared_ptr<Session> open_first(std::string& why_not, bool force_dot = false) {
  const DeviceList list = discover_devices();
  if (list.devices.empty()) {
    why_not = list.notes.empty() ? "no OpenCL device" : list.notes.front();
    return nullptr;
  }
  DeviceFacts d = list.devices.front();
  if (force_dot) d.integer_dot_product = true;  // the kernel emulates the dot where the device lacks it
  return std::make_shared<Session>(d);
}

#define REQUIRE_DEVICE(s, ...)                                \
  std::string why_not;                                        \
  std::shared_ptr<Session> s = open_first(why_not, ##__VA_ARGS__); \
  if (s == nullptr) GTEST_SKIP() << why_not;

WorkOptions quick() {
  WorkOptions o;
  o.gemm_m = 64;
  o.gemm_k = 96;
  o.batches = {1, 3, 8};
  return o;
}

void run_all(const std::vector<DeviceWork>& works, std::size_t expected) {
  ASSERT_EQ(works.size(), expected);
  for (const DeviceWork& w : works) {
    EXPECT_GT(run_and_validate(w, 2), 0) << w.name;
    EXPECT_EQ(w.labels.value("suite", ""), w.name.substr(0, w.name.find('/'))) << w.name;
  }
}

TEST(OpenClWork, BandwidthBatchesValidateInEveryWidth) {
  REQUIRE_DEVICE(s);
  std::vector<std::string> notes;
  // The sweep's smallest size fills every kernel.
  const std::uint64_t smallest = device_sweep_start(s->facts());
  for (MemoryKernel k : kMemoryKernels) EXPECT_NO_THROW(bandwidth_work(s, k, smallest, quick(), notes)) << to_string(k);
  for (MemoryKernel k : kMemoryKernels) {
    const std::vector<DeviceWork> works = bandwidth_work(s, k, 3 * 64 * 1024, quick(), notes);
    run_all(works, kVectorWidths.size());
    EXPECT_EQ(works.front().labels["width"], 1);
    EXPECT_EQ(works.back().labels["width"], 16);
    EXPECT_GT(works.front().working_set_bytes, 0);
  }
  EXPECT_TRUE(notes.empty());
}

TEST(OpenClWork, ComputeBatchesValidate) {
  REQUIRE_DEVICE(s, true);
  std::vector<std::string> notes;
  for (ComputeKind k : kComputeKinds) {
    if (!supports(s->facts(), k)) continue;
    const std::vector<DeviceWork> works = compute_work(s, k, quick(), notes);
    run_all(works, kVectorWidths.size());
    const bool integer = k == ComputeKind::int32 || k == ComputeKind::int8;
    EXPECT_GT(integer ? works.front().op : works.front().flop, 0) << to_string(k);
  }
}

TEST(OpenClWork, TransferLatencyAndGemmValidate) {
  REQUIRE_DEVICE(s);
  std::vector<std::string> notes;
  const std::vector<DeviceWork> transfers = transfer_work(s, 1 << 20, quick(), notes);
  run_all(transfers, 4);
  EXPECT_EQ(transfers[1].labels["memory"], "pageable");
  const std::vector<DeviceWork> latency = latency_work(s, quick());
  run_all(latency, 1);
  EXPECT_FALSE(latency.front().device_timed);
  if (!have_clblast()) GTEST_SKIP() << "built without CLBlast";
  const std::vector<DeviceWork> gemm = gemm_work(s, "fp32", quick(), notes);
  run_all(gemm, 3);
  EXPECT_EQ(gemm.front().labels["kernel"], "gemv");
  EXPECT_EQ(gemm.back().labels["backend"], "clblast");
  EXPECT_EQ(gemm.back().flop, 2.0 * 64 * 96 * 8);
}

TEST(OpenClWork, LostDeviceIsTargetLostNamingIt) {
  REQUIRE_DEVICE(s);
  std::vector<std::string> notes;
  const std::vector<DeviceWork> works = bandwidth_work(s, MemoryKernel::copy, 64 * 1024, quick(), notes);
  s->simulate_loss_after(1);
  try {
    works.front().run(4);
    FAIL() << "no error";
  } catch (const TargetLost& e) {
    EXPECT_NE(std::string(e.what()).find("opencl:0.0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("CL_DEVICE_NOT_AVAILABLE"), std::string::npos) << e.what();
  }
}

// Through the harness: the Runner catches the work's throw (the entry fails), and the suite then ends the target
// with TargetLost naming it, so the run keeps the other targets' results.
TEST(OpenClWork, TargetLostMidSuiteIsNamed) {
  std::vector<std::string> notes;
  const std::vector<TargetFacts> targets = list_targets(notes);
  if (targets.empty()) GTEST_SKIP() << (notes.empty() ? "no OpenCL device" : notes.front());
  ::setenv("ROOFLINE_TEST_OPENCL_LOSE_AFTER", "3", 1);
  std::unique_ptr<Target> target = open_target(targets.front(), HostCaches{});
  ::unsetenv("ROOFLINE_TEST_OPENCL_LOSE_AFTER");
  ASSERT_EQ(target->suites().back(), "latency");
  Runner runner;
  SuiteOutput out;
  RunConfig config;
  try {
    target->run_suite("latency", config, runner, out);
    FAIL() << "no error";
  } catch (const TargetLost& e) {
    EXPECT_NE(std::string(e.what()).find(targets.front().target), std::string::npos) << e.what();
  }
  EXPECT_FALSE(runner.failures().empty());
  EXPECT_THROW(target->run_suite("nonsense", config, runner, out), InputError);
}

TEST(OpenClWork, AllocationAboveTheLimitIsCappedAndSaid) {
  REQUIRE_DEVICE(s);
  DeviceFacts small = s->facts();
  small.max_allocation_bytes = 256 * 1024;
  auto capped = std::make_shared<Session>(small);
  std::vector<std::string> notes;
  const std::vector<DeviceWork> works = bandwidth_work(capped, MemoryKernel::read, 4 << 20, quick(), notes);
  EXPECT_EQ(works.front().working_set_bytes, 256 * 1024);
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes.front().find("capped at the device's max allocation"), std::string::npos) << notes.front();
  notes.clear();
  run_all(transfer_work(capped, 1 << 20, quick(), notes), 4);
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes.front().find("capped"), std::string::npos) << notes.front();
}

TEST(OpenClWork, DevicesAreListedAsTargets) {
  std::vector<std::string> notes;
  const std::vector<TargetFacts> targets = list_targets(notes);
  if (targets.empty()) GTEST_SKIP() << (notes.empty() ? "no OpenCL device" : notes.front());
  const TargetFacts& t = targets.front();
  EXPECT_EQ(t.target, "opencl:0.0");
  EXPECT_EQ(t.api, "opencl");
  EXPECT_GT(t.compute_units, 0);
  ASSERT_FALSE(t.memory_levels.empty());
  EXPECT_EQ(t.memory_levels.back().name, "global");
  EXPECT_EQ(device_from_json(t.details).name, t.name);
  if (t.kind == "cpu") {  // PoCL: the host's own vector model
    EXPECT_EQ(t.peak_model, "units_clock");
    EXPECT_GT(t.ops_per_unit_per_clock.value("fp32/vector", 0.0), 0);
  }
}

}  // namespace
}  // namespace roofline::opencl
