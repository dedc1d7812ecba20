// Parsing of the run flags: every bad value is an InputError naming the flag.
#include <gtest/gtest.h>

#include "roofline/common/errors.hpp"
#include "roofline/harness/run_config.hpp"

namespace roofline {

TEST(RunConfig, ThreadLists) {
  EXPECT_EQ(parse_thread_list("1,2", 2), (std::vector<int>{1, 2}));
  EXPECT_EQ(parse_thread_list("2,1,2", 4), (std::vector<int>{1, 2}));
  EXPECT_EQ(parse_thread_list("all", 8), (std::vector<int>{8}));
  EXPECT_EQ(parse_thread_list("1,all", 8), (std::vector<int>{1, 8}));
  for (const char* bad : {"", ",", "0", "-1", "3", "1,x", "1.5", "2abc"}) {
    EXPECT_THROW(parse_thread_list(bad, 2), InputError) << bad;
  }
}

TEST(RunConfig, SizeLists) {
  EXPECT_EQ(parse_size_list("64KiB,1MiB", 1ull << 30), (std::vector<std::uint64_t>{65536, 1048576}));
  EXPECT_THROW(parse_size_list("", 1ull << 30), InputError);
  EXPECT_THROW(parse_size_list("0", 1ull << 30), InputError);
  EXPECT_THROW(parse_size_list("-4KiB", 1ull << 30), InputError);
  EXPECT_THROW(parse_size_list("2GiB", 1ull << 30), InputError);  // larger than memory allows
  EXPECT_THROW(parse_size_list("12", 1ull << 30), InputError);    // below the minimum
  EXPECT_THROW(parse_size_list("1XB", 1ull << 30), InputError);
}

TEST(RunConfig, GemmShapeAndBatches) {
  EXPECT_EQ(parse_gemm_shape("8192,4096"), (std::pair<std::int64_t, std::int64_t>{8192, 4096}));
  for (const char* bad : {"", "8192", "0,5", "-1,5", "a,b", "1,2,3", "4.5,2"}) {
    EXPECT_THROW(parse_gemm_shape(bad), InputError) << bad;
  }
  EXPECT_EQ(parse_batches("16,1,4"), (std::vector<int>{1, 4, 16}));
  for (const char* bad : {"", "0", "-2", "x", "1,,2"}) EXPECT_THROW(parse_batches(bad), InputError) << bad;
}

TEST(RunConfig, ProfilesBindingAndNames) {
  EXPECT_EQ(parse_profile("quick"), Profile::quick);
  EXPECT_EQ(parse_profile("full"), Profile::full);
  EXPECT_EQ(parse_profile("gate"), Profile::gate);
  EXPECT_THROW(parse_profile("fast"), InputError);
  EXPECT_EQ(parse_bind_policy("spread"), BindPolicy::spread);
  EXPECT_THROW(parse_bind_policy("scatter"), InputError);
  EXPECT_EQ(parse_name_list("eigen, onednn,eigen", "--backends"), (std::vector<std::string>{"eigen", "onednn"}));
  EXPECT_THROW(parse_name_list("", "--backends"), InputError);
  RunConfig c;
  EXPECT_TRUE(c.wants_suite("gemm"));
  c.suites = {"compute"};
  EXPECT_FALSE(c.wants_suite("gemm"));
  EXPECT_TRUE(c.wants_suite("compute"));
}

}  // namespace roofline
