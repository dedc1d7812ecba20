// OpenCL device facts (issue 22), no OpenCL needed: a recorded GPU's facts read back from tests/data/opencl/,
// rendered and compared with the expected text (golden), JSON round trip, bad input, extension matching.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "roofline/common/errors.hpp"
#include "roofline/opencl/device_facts.hpp"
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

}  // namespace
}  // namespace roofline::opencl
