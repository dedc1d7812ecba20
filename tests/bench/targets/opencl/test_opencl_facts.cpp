// OpenCL device facts (issue 22), no OpenCL needed: a recorded GPU's facts read back from tests/data/opencl/,
// rendered and compared with the expected text (golden), JSON round trip, bad input, extension matching.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "roofline/common/errors.hpp"
#include "roofline/opencl/device_facts.hpp"
#include "roofline/opencl/target_facts.hpp"
#include "support/temp_files.hpp"

namespace roofline::opencl {
namespace {
using nlohmann::json;

const std::string kDataDir = std::string(ROOFLINE_TEST_DATA_DIR) + "/opencl/";

json recorded_gpu() { return json::parse(testing::read_file(kDataDir + "amd-rx5700-gfx1010-rocm.json")); }

TEST(OpenClFacts, RecordedGpuRendersAsExpected) {
  const DeviceFacts d = device_from_json(recorded_gpu());
  EXPECT_EQ(d.type, "gpu");
  EXPECT_EQ(d.compute_units, 20);
  EXPECT_TRUE(d.fp64);
  EXPECT_TRUE(d.fp16);
  EXPECT_FALSE(d.integer_dot_product);
  EXPECT_EQ(format_device(d), testing::read_file(kDataDir + "amd-rx5700-gfx1010-rocm.txt"));
}

TEST(OpenClFacts, JsonRoundTrip) {
  const json j = recorded_gpu();
  EXPECT_EQ(to_json(device_from_json(j)), j);
}

TEST(OpenClFacts, MissingOrMistypedFieldIsNamed) {
  json j = recorded_gpu();
  j.erase("max_allocation_bytes");
  try {
    device_from_json(j);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'max_allocation_bytes' is missing"), std::string::npos) << e.what();
  }
  j = recorded_gpu();
  j["compute_units"] = "twenty";
  EXPECT_THROW(device_from_json(j), InputError);
  EXPECT_THROW(device_from_json(json::array()), InputError);
}

TEST(OpenClFacts, ExtensionsMatchWholeWords) {
  const std::string ext = "cl_khr_fp64 cl_khr_fp16_extra cl_khr_integer_dot_product ";
  EXPECT_TRUE(has_extension(ext, "cl_khr_fp64"));
  EXPECT_FALSE(has_extension(ext, "cl_khr_fp16"));
  EXPECT_TRUE(has_extension(ext, "cl_khr_integer_dot_product"));
  EXPECT_EQ(device_type_name(1u << 2), "gpu");
  EXPECT_EQ(device_type_name(1u << 1), "cpu");
  EXPECT_EQ(device_type_name(1u << 3), "accelerator");
  EXPECT_EQ(device_type_name(1u << 4), "other");
}

// The recorded RX 5700 (XT) as a target: RDNA's model (a reported unit is a work-group processor), no global
// cache recorded so global memory is its only level, the device's facts kept as details.
TEST(OpenClFacts, RecordedGpuAsTarget) {
  const json recorded = recorded_gpu();
  const TargetFacts t = target_facts(device_from_json(recorded), HostVectorModel{});
  EXPECT_EQ(t.target, "opencl:0.0");
  EXPECT_EQ(t.kind, "gpu");
  EXPECT_EQ(t.api, "opencl");
  EXPECT_EQ(t.name, "gfx1010");
  EXPECT_EQ(t.compute_units, 20);
  EXPECT_EQ(t.clock_hz, 2.1e9);
  EXPECT_EQ(t.memory_total_bytes, 8573157376u);
  ASSERT_EQ(t.memory_levels.size(), 1u);
  EXPECT_EQ(t.memory_levels[0].name, "global");
  EXPECT_FALSE(t.memory_levels[0].shared);
  EXPECT_EQ(t.peak_model, "units_clock");
  EXPECT_EQ(t.ops_per_unit_per_clock, json({{"fp32/vector", 256}, {"fp16/vector", 512}, {"fp64/vector", 16}}));
  // 20 x 2.1 GHz x 256: 10.75 TFLOP/s fp32, AMD's figure for the RX 5700 XT at that clock.
  EXPECT_DOUBLE_EQ(t.compute_units * t.clock_hz * 256, 10.752e12);
  EXPECT_EQ(t.details, recorded);
}

TEST(OpenClFacts, CacheLevelAndUnknownModelAreSaid) {
  DeviceFacts d = device_from_json(recorded_gpu());
  d.global_cache_bytes = 4u << 20;
  d.vendor = "NVIDIA Corporation";
  d.name = "NVIDIA H200";
  const TargetFacts t = target_facts(d, HostVectorModel{});
  ASSERT_EQ(t.memory_levels.size(), 2u);
  EXPECT_EQ(t.memory_levels[0].name, "L2");
  EXPECT_EQ(t.memory_levels[0].capacity_bytes, 4u << 20);
  EXPECT_EQ(t.peak_model, "");
  bool said = false;
  for (const std::string& n : t.notes) said = said || n.find("theoretical peak unknown") != std::string::npos;
  EXPECT_TRUE(said);
  d.type = "cpu";
  const TargetFacts cpu = target_facts(d, HostVectorModel{512, 1, true, "test"});
  EXPECT_EQ(cpu.kind, "cpu");
  EXPECT_EQ(cpu.memory_levels[0].name, "LLC");
  EXPECT_EQ(cpu.ops_per_unit_per_clock["fp32/vector"], 32);   // 16 lanes x 1 pipe x 2
  EXPECT_EQ(cpu.ops_per_unit_per_clock["fp64/vector"], 16);
  EXPECT_EQ(cpu.ops_per_unit_per_clock["int8/vector"], 128);  // 64 bytes x 1 pipe x 2
}


// A CPU device's global cache is the host's last level. PoCL passes on what the host reports, on a 2-vCPU guest of an
// Emerald Rapids-class host 480 MiB (hwloc: one L3 instance for both vCPUs); the host's verdict holds that size no CPU
// has for two cores, so the device's LLC is listed with no size and the curve places it (with the size the analysis
// took it as ending past 256 MiB: no global memory level at all, and `llm` refused the run). A plausible host keeps it.
TEST(OpenClFacts, ACpuDevicesCacheTakesTheHostsVerdict) {
  DeviceFacts d = device_from_json(recorded_gpu());
  d.type = "cpu";
  d.global_cache_bytes = 480ULL << 20U;
  const TargetFacts implausible = target_facts(d, HostVectorModel{}, HostCaches{4ULL << 20U, true, "hwloc"});
  ASSERT_EQ(implausible.memory_levels.size(), 2u);
  EXPECT_EQ(implausible.memory_levels[0].name, "LLC");
  EXPECT_EQ(implausible.memory_levels[0].capacity_bytes, 0u);
  EXPECT_EQ(implausible.memory_levels[1].name, "global");
  bool said = false;
  for (const std::string& n : implausible.notes) {
    said = said || n.find("global cache of 480 MiB, the host's last level, whose size hwloc reports") != std::string::npos;
  }
  EXPECT_TRUE(said);
  EXPECT_EQ(implausible.details.at("global_cache_bytes"), 480ULL << 20U);  // the driver's figure, as it said it

  d.global_cache_bytes = 32ULL << 20U;
  const TargetFacts plausible = target_facts(d, HostVectorModel{}, HostCaches{32ULL << 20U, false, "hwloc"});
  EXPECT_EQ(plausible.memory_levels[0].capacity_bytes, 32ULL << 20U);
  const TargetFacts unknown_host = target_facts(d, HostVectorModel{});
  EXPECT_EQ(unknown_host.memory_levels[0].capacity_bytes, 32ULL << 20U);
}
}  // namespace
}  // namespace roofline::opencl
