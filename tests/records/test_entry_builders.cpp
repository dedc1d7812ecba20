// The entry builders (issue 61, step 2: the harness's reporter builds entries typed): set_number and set_field put
// a field in its typed member where the entry has one of that kind, else in `extra`, as read_records would have put
// the same field of a file, so that to_json writes what a file read back holds.
#include <gtest/gtest.h>

#include <limits>

#include "roofline/records/results_document.hpp"

namespace roofline {
using nlohmann::json;

TEST(EntryBuilders, ANumberGoesToItsMemberOrExtraAndANonFiniteOneIsNull) {
  BenchmarkEntry e;
  set_number(e, "bytes_per_second", 2.5e9);
  set_number(e, "not_in_the_catalogue", 3.0);
  set_number(e, "huge_page_bytes", std::numeric_limits<double>::quiet_NaN());
  set_number(e, "iterations", 7.0);  // an integer member: a float is another kind, kept as written
  EXPECT_EQ(e.bytes_per_second, 2.5e9);
  EXPECT_FALSE(e.huge_page_bytes.has_value());
  EXPECT_FALSE(e.iterations.has_value());
  EXPECT_EQ(to_json(e).dump(),
            R"({"bytes_per_second":2500000000.0,"huge_page_bytes":null,"iterations":7.0,"not_in_the_catalogue":3.0})");
  set_number(e, "huge_page_bytes", 0.0);  // set again: the member, no longer null in extra
  EXPECT_EQ(e.huge_page_bytes, 0.0);
  EXPECT_FALSE(e.extra.contains("huge_page_bytes"));
}

TEST(EntryBuilders, AJsonFieldIsReadAsTheLenientReaderReadsIt) {
  BenchmarkEntry e;
  const json labels = {{"suite", "gemm"}, {"batch", 8}, {"working_set_bytes", 4096}, {"flavour", "x"}};
  set_field(e, "labels", labels);
  ASSERT_TRUE(e.labels.has_value());
  EXPECT_EQ(e.labels->batch, 8);
  EXPECT_EQ(e.labels->working_set_bytes, 4096.0);
  EXPECT_EQ(to_json(e).at("labels"), labels);  // the integer stays one; the unknown label is kept
  const json measured = {{"before", {{"bytes_per_second", 1e9}, {"threads", 2}}}, {"after", nullptr}, {"error", "e"}};
  set_field(e, "roof_now", measured);
  ASSERT_TRUE(e.roof_now && e.roof_now->before);
  EXPECT_EQ(e.roof_now->before->threads, 2);
  EXPECT_EQ(to_json(e).at("roof_now"), measured);
  set_field(e, "labels", nullptr);  // null: no member, null in the file
  EXPECT_FALSE(e.labels.has_value());
  EXPECT_TRUE(to_json(e).at("labels").is_null());
  set_field(e, "working_set_bytes", 64);
  EXPECT_EQ(to_json(e).at("working_set_bytes").dump(), "64");
}

}  // namespace roofline
