// ARM64's STREAM steps and dispatch (cmake/arch/arm64.cmake): NEON's loops move a pair of q registers (4 doubles) a
// step, read two blocks of eight such vectors; the streaming stores are STNP, and every kernel runs on NEON.
#include <gtest/gtest.h>

#include "host_features.hpp"
#include "roofline/kernels/cpu/stream.hpp"

namespace roofline {
namespace {
using testing::features_for;

TEST(StreamStep, NeonReadsTwoBlocksOfEightPairsOthersOnePair) {
  EXPECT_EQ(stream_step_elements(StreamKernel::read, features_for(Isa::neon)), 64u);
  EXPECT_EQ(stream_step_elements(StreamKernel::triad, features_for(Isa::neon)), 4u);
  EXPECT_EQ(stream_step_elements(StreamKernel::copy_nt, features_for(Isa::neon)), 4u);
}

TEST(StreamStep, EveryKernelRunsOnNeon) {
  for (const StreamKernelInfo& k : stream_kernels()) {
    EXPECT_EQ(stream_kernel_isa(k.kernel, features_for(Isa::neon)), Isa::neon) << k.name;
    EXPECT_EQ(k.needs_isa, k.non_temporal ? Isa::neon : Isa::scalar) << k.name;
  }
}

}  // namespace
}  // namespace roofline
