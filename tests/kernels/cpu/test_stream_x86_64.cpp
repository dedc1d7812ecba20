// x86-64's STREAM steps (cmake/arch/x86_64.cmake): the loops' vector widths per ISA level, as stream_loops.hpp unrolls them.
#include <gtest/gtest.h>

#include "host_features.hpp"
#include "roofline/kernels/cpu/stream.hpp"

namespace roofline {
namespace {
using testing::features_for;

TEST(StreamStep, ReadUnrollsTwoBlocksOfEightVectorsOthersOneVector) {
  EXPECT_EQ(stream_step_elements(StreamKernel::read, features_for(Isa::avx512)), 128u);
  EXPECT_EQ(stream_step_elements(StreamKernel::read, features_for(Isa::avx2)), 64u);
  EXPECT_EQ(stream_step_elements(StreamKernel::read, features_for(Isa::sse)), 32u);
  EXPECT_EQ(stream_step_elements(StreamKernel::triad, features_for(Isa::avx512)), 8u);
  EXPECT_EQ(stream_step_elements(StreamKernel::copy, features_for(Isa::avx2)), 4u);
}

}  // namespace
}  // namespace roofline
