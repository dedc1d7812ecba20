// The one STREAM kernel table (roofline/common/stream_kernels.hpp): every row's words read and written and FLOPs per
// element pinned to STREAM's counts (copy 2 words, triad 3 and 2 FLOP), the write-allocate counts derived from it, and
// the lookups by kernel and by name. Every target's byte and FLOP counts come from these rows.
#include <gtest/gtest.h>

#include <string>

#include "roofline/common/stream_kernels.hpp"

namespace roofline {
namespace {

TEST(StreamKernelTable, RowsPinStreamsCounts) {
  struct Expected {
    StreamKernel kernel;
    const char* name;
    int read, written, flops, write_allocate;
    bool non_temporal;
  };
  const Expected rows[] = {
      {StreamKernel::copy, "copy", 1, 1, 0, 3, false},         {StreamKernel::scale, "scale", 1, 1, 1, 3, false},
      {StreamKernel::add, "add", 2, 1, 1, 4, false},           {StreamKernel::triad, "triad", 2, 1, 2, 4, false},
      {StreamKernel::read, "read", 1, 0, 1, 1, false},         {StreamKernel::write, "write", 0, 1, 0, 2, false},
      {StreamKernel::copy_nt, "copy_nt", 1, 1, 0, 2, true},    {StreamKernel::triad_nt, "triad_nt", 2, 1, 2, 3, true},
      {StreamKernel::write_nt, "write_nt", 0, 1, 0, 1, true},
  };
  ASSERT_EQ(kStreamKernelRows.size(), std::size(rows));
  for (const Expected& e : rows) {
    SCOPED_TRACE(e.name);
    const StreamKernelRow& r = stream_kernel_row(e.kernel);
    EXPECT_EQ(r.kernel, e.kernel);
    EXPECT_EQ(std::string(r.name), e.name);
    EXPECT_EQ(r.words_read, e.read);
    EXPECT_EQ(r.words_written, e.written);
    EXPECT_EQ(r.flops_per_element, e.flops);
    EXPECT_EQ(r.non_temporal, e.non_temporal);
    EXPECT_EQ(stream_words_per_element(e.kernel), e.read + e.written);
    EXPECT_EQ(stream_words_write_allocate(e.kernel), e.write_allocate);
    EXPECT_EQ(stream_kernel_named(e.name), e.kernel);
    EXPECT_FALSE(r.formula.empty());
  }
}

TEST(StreamKernelTable, LookupsAreConstantExpressionsAndUnknownNamesAreNone) {
  static_assert(stream_words_per_element(StreamKernel::triad) == 3);
  static_assert(stream_kernel_row(StreamKernel::copy).name == "copy");
  static_assert(stream_kernel_named("triad_nt") == StreamKernel::triad_nt);
  EXPECT_FALSE(stream_kernel_named("stream").has_value());
  EXPECT_FALSE(stream_kernel_named("").has_value());
}

}  // namespace
}  // namespace roofline
