// End-to-end: `roofline devices` lists the CPU and every OpenCL device (issue 22), or says why there is none.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace roofline::testing {
using nlohmann::json;

TEST(CliDevices, ListsTheCpuAndSaysWhatOfOpenCl) {
  const CliResult r = run_cli({"devices"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("cpu  ", 0), 0u) << r.out;
  // Either devices (each with its id and the extensions that decide what can be measured) or a reason.
  const bool devices = r.out.find("opencl:0.0  ") != std::string::npos;
  EXPECT_TRUE(devices || r.out.find("\nopencl: ") != std::string::npos) << r.out;
  if (devices) {
    EXPECT_NE(r.out.find("fp64: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("peak model: "), std::string::npos) << r.out;
  }
}

TEST(CliDevices, JsonListsTargetsWithFacts) {
  const CliResult r = run_cli({"devices", "--json", "-"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_TRUE(j["targets"].is_array());
  EXPECT_EQ(j["targets"][0]["target"], "cpu");
  EXPECT_GT(j["targets"][0]["compute_units"].get<int>(), 0);
  ASSERT_TRUE(j["apis"].is_array());
  bool opencl_said = false;
  for (const json& api : j["apis"]) opencl_said = opencl_said || api["api"] == "opencl";
  EXPECT_TRUE(opencl_said) << r.out;  // built (listing its devices or why none) or not built (how to get it)
  for (std::size_t i = 1; i < j["targets"].size(); ++i) {
    if (j["targets"][i]["api"] != "opencl") continue;
    EXPECT_TRUE(j["targets"][i]["details"].contains("max_allocation_bytes"));
  }
}

TEST(CliDevices, TheTestTargetIsListedThroughItsProvider) {
  const CliResult r = run_test_target_cli({"devices"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("test:0  roofline test target (prepared timings)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("memory levels: L2 4 MiB, HBM"), std::string::npos) << r.out;
}

TEST(CliDevices, NoIcdSaysSo) {
  // An empty vendor folder: the ICD loader finds no platform.
  const TempDir empty;
  const CliResult r = run_cli({"devices"}, {"OCL_ICD_VENDORS=" + empty.path().string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\nopencl: "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("opencl:0.0"), std::string::npos) << r.out;
}

TEST(CliDevices, BadFlagIsOneLine) {
  const CliResult r = run_cli({"devices", "--frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(one_line(r.err)) << r.err;
}

}  // namespace roofline::testing
