// An OpenCL device's plan (issue 46, item 5; roofline/opencl/device_plan.hpp) from fabricated device facts, no
// device needed: the same plan twice, the sweep past the device's last cache (a CPU device's: the host's largest
// plausible cache, 8x it; 1 GiB when none is known, bounded by the device's max allocation), every benchmark name as
// the works will name it, and over a budget a smaller plan, said, instead of work cut at run time.
#include <gtest/gtest.h>

#include <set>

#include "roofline/harness/run_plan.hpp"
#include "roofline/opencl/device_plan.hpp"
#include "roofline/opencl/measure.hpp"

namespace roofline::opencl {
namespace {

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;
const std::vector<std::string> kAllSuites{"bandwidth", "compute", "gemm", "transfer", "latency"};

// PoCL's CPU device on the 2-vCPU Zen 5 guest of issue 46 (it reports no global cache size).
DeviceFacts pocl() {
  DeviceFacts d;
  d.name = "cpu-znver5";
  d.type = "cpu";
  d.compute_units = 2;
  d.global_memory_bytes = 8 * GiB;
  d.max_allocation_bytes = 4 * GiB;
  d.max_work_group_size = 4096;
  d.fp64 = true;
  return d;
}

// The host caches of that guest: one plausible 32 MiB L3.
HostCaches zen5_host() { return {32 * MiB, false, "hwloc"}; }

RunConfig config(Profile profile = Profile::quick) {
  RunConfig c;
  c.profile = profile;
  c.thread_counts = {1, 2};
  c.memory_budget_bytes = 6 * GiB;
  return c;
}

const SuitePlan& suite(const DevicePlan& p, const std::string& name) {
  for (const SuitePlan& s : p.suites) {
    if (s.suite == name) return s;
  }
  throw std::runtime_error("no suite " + name);
}

bool any_note_has(const SuitePlan& s, const std::string& text) {
  for (const std::string& n : s.notes) {
    if (n.find(text) != std::string::npos) return true;
  }
  return false;
}

// The device's memory kernels are rows of the one STREAM table (roofline/common/stream_kernels.hpp): their names and
// the 32-bit words they count per element (read 1, copy 2, triad 3, write 1) come from it.
TEST(OpenClPlan, MemoryKernelsAreTheStreamTablesRows) {
  const std::pair<MemoryKernel, int> counted[] = {
      {MemoryKernel::read, 1}, {MemoryKernel::copy, 2}, {MemoryKernel::triad, 3}, {MemoryKernel::write, 1}};
  for (const auto& [k, words] : counted) {
    EXPECT_EQ(arrays_counted(k), words) << to_string(k);
    EXPECT_EQ(to_string(k), stream_kernel_row(stream_kernel(k)).name);
  }
  EXPECT_EQ(to_string(MemoryKernel::triad), "triad");
}

TEST(OpenClPlan, TheSamePlanTwice) {
  RunPlan a, b;
  a.suites = plan_device(pocl(), zen5_host(), config(), kAllSuites).suites;
  b.suites = plan_device(pocl(), zen5_host(), config(), kAllSuites).suites;
  EXPECT_EQ(a.text(), b.text());
  EXPECT_EQ(a.hash(), b.hash());
  ASSERT_EQ(a.suites.size(), kAllSuites.size());
  std::set<std::string> names;
  for (const SuitePlan& s : a.suites) {
    EXPECT_EQ(s.target, "opencl:0.0");
    for (const PlanEntry& e : s.entries) {
      EXPECT_TRUE(names.insert(e.name).second) << "planned twice: " << e.name;
      EXPECT_GT(e.estimate_s, 0.0) << e.name;
      EXPECT_EQ(e.name.substr(0, e.name.find('/')), s.suite) << e.name;
    }
  }
}

TEST(OpenClPlan, ACpuDeviceSweepsPastTheHostsLastCache) {
  const DevicePlan p = plan_device(pocl(), zen5_host(), config(), kAllSuites);
  EXPECT_EQ(p.last_cache_bytes, 32 * MiB);
  // 16 KiB (triad's 3 buffers of one work-group of 64 x uint16) by octaves to 8x the L3: DRAM holds two octaves.
  EXPECT_EQ(p.sweep.sizes.front(), 16 * KiB);
  EXPECT_EQ(p.sweep.sizes.back(), 256 * MiB);
  EXPECT_EQ(p.sweep.sizes.size(), 15u);
  EXPECT_FALSE(p.sweep.capped);
  EXPECT_TRUE(any_note_has(suite(p, "bandwidth"), "8x the host's largest plausible cache"));
  // The same planned widths at every size (16 and 8 on a CPU device; the quick budget keeps 16 alone here); read and
  // triad at every size, copy and write at some sizes and the last.
  std::set<std::uint64_t> read_sizes, copy_sizes;
  for (const DeviceBandwidthStep& s : p.bandwidth) {
    EXPECT_EQ(s.widths, p.bandwidth.front().widths);
    if (s.kernel == MemoryKernel::read) read_sizes.insert(s.bytes);
    if (s.kernel == MemoryKernel::copy) copy_sizes.insert(s.bytes);
  }
  EXPECT_EQ(p.bandwidth.front().widths.front(), 16);
  EXPECT_EQ(read_sizes.size(), p.sweep.sizes.size());
  EXPECT_LT(copy_sizes.size(), p.sweep.sizes.size());
  EXPECT_TRUE(copy_sizes.count(p.sweep.sizes.back()));
  // The names the works will give (PreparedMemory's rounding): triad at 256 MiB holds 3 whole buffers.
  const std::uint64_t triad = planned_working_set(pocl(), MemoryKernel::triad, 256 * MiB);
  EXPECT_EQ(triad % (3 * 16 * 64 * 4), 0u);
  bool named = false;
  for (const PlanEntry& e : suite(p, "bandwidth").entries) {
    named = named || e.name == "bandwidth/triad/width:16/bytes:" + std::to_string(triad);
  }
  EXPECT_TRUE(named);
  // The GEMV's weights 4x that cache, from the plan, not from this run's curve.
  EXPECT_GE(double(p.gemm_m) * double(p.gemm_k) * 4.0, 4.0 * 32 * MiB);
  EXPECT_EQ(p.gemm_precisions, std::vector<std::string>{"fp32"});
  EXPECT_EQ(p.compute.size(), 3u);  // fp32, fp64, int32: no fp16, no integer dot product
}

TEST(OpenClPlan, WithoutAKnownCacheTheSweepGoesToOneGibibyteWithinTheDevicesLimits) {
  HostCaches unknown = zen5_host();
  unknown.last_unknown = true;  // a guest shown its host's 508 MiB L3
  DevicePlan p = plan_device(pocl(), unknown, config(), {"bandwidth"});
  EXPECT_EQ(p.last_cache_bytes, 0u);
  EXPECT_EQ(p.sweep.sizes.back(), 1 * GiB);
  // A device that cannot hold 1 GiB in one buffer: the sweep ends there, and says main memory may not be reached.
  DeviceFacts small = pocl();
  small.max_allocation_bytes = 128 * MiB;
  p = plan_device(small, unknown, config(), {"bandwidth"});
  EXPECT_TRUE(p.sweep.capped);
  EXPECT_LE(p.sweep.sizes.back(), 128 * MiB);
  EXPECT_TRUE(any_note_has(suite(p, "bandwidth"), "may not be reached"));
  // A GPU: past its own reported L2.
  DeviceFacts gpu = pocl();
  gpu.type = "gpu";
  gpu.global_cache_bytes = 50 * MiB;
  gpu.global_memory_bytes = 141 * GiB;
  gpu.max_allocation_bytes = 35 * GiB;
  p = plan_device(gpu, zen5_host(), config(), {"bandwidth"});
  EXPECT_EQ(p.last_cache_bytes, 50 * MiB);
  EXPECT_GE(p.sweep.sizes.back(), 400 * MiB);
  EXPECT_LT(p.sweep.sizes[p.sweep.sizes.size() - 2], 400 * MiB);
}

TEST(OpenClPlan, OverItsBudgetThePlanIsMadeSmallerAndSaysSo) {
  // The quick sweep of PoCL to 256 MiB in two widths is estimated over the 20 s budget (its small sizes are mostly
  // PoCL's launch work): one width, said. A 128 MiB cache makes the quick GEMM's weights 512 MiB, whose batch 256
  // is estimated over the 18 s budget: the largest batches are left out of the plan, said.
  HostCaches big = zen5_host();
  big.largest_plausible_bytes = 128 * MiB;
  const DevicePlan p = plan_device(pocl(), big, config(), {"bandwidth", "gemm"});
  const SuitePlan& bw = suite(p, "bandwidth");
  EXPECT_TRUE(any_note_has(bw, "over the 20 s budget: planned with width 16 alone")) << bw.notes.back();
  for (const DeviceBandwidthStep& s : p.bandwidth) EXPECT_EQ(s.widths, std::vector<int>{16});
  // The end stays: main memory is still reached (8x the cache).
  EXPECT_EQ(p.sweep.sizes.back(), 1 * GiB);
  const SuitePlan& gemm = suite(p, "gemm");
  EXPECT_EQ(p.gemm_batches, (std::vector<int>{1, 16}));
  EXPECT_TRUE(any_note_has(gemm, "batches 256 left out of the plan"));
  // Deterministic: the same smaller plan twice.
  const DevicePlan again = plan_device(pocl(), big, config(), {"bandwidth", "gemm"});
  EXPECT_EQ(again.sweep.sizes, p.sweep.sizes);
  EXPECT_EQ(again.gemm_batches, p.gemm_batches);
  // --batches is the work asked for: never thinned.
  RunConfig asked = config();
  asked.batches = {1, 16, 256};
  EXPECT_EQ(plan_device(pocl(), big, asked, {"gemm"}).gemm_batches.size(), 3u);
  // The full profile runs every width, at 2 sizes per octave where its budget allows.
  const DevicePlan full = plan_device(pocl(), zen5_host(), config(Profile::full), {"bandwidth"});
  EXPECT_EQ(full.bandwidth.front().widths.size(), kVectorWidths.size());
  EXPECT_EQ(full.sweep.per_octave, 2);
}

}  // namespace
}  // namespace roofline::opencl
