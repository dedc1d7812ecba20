// allocate_large: alignment by size class, and the huge-page advice on large buffers, read back from the
// kernel's own record of this process's mappings (VmFlags "hg" in /proc/self/smaps); the pool of mappings kept for
// reuse (issue 46): a kept mapping that fits is handed out again, a larger request grows the largest kept one with
// its contents in place, page sizes never mix, and a limit of 0 keeps nothing.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "roofline/common/huge_pages.hpp"
#include "support/page_advice.hpp"

namespace roofline {
namespace {

using testing::page_advice_is_dropped;
using testing::vm_flags_of;

TEST(HugePages, SmallBuffersKeepTheirAlignment) {
  void* p = allocate_large(1000, 64);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 64, 0u);
  std::memset(p, 1, 1000);
  free_large(p);
  void* empty = allocate_large(0, 4096);  // 0 bytes is one byte, never nullptr for a size of 0
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(empty) % 4096, 0u);
  free_large(empty);
}

TEST(HugePages, LargeBuffersAreHugePageAlignedAndAdvised) {
  const std::size_t bytes = kHugePageThreshold + 12345;
  void* p = allocate_large(bytes, 4096);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % kHugePageBytes, 0u);
  std::memset(p, 1, bytes);
  const std::string flags = vm_flags_of(p);
  if (flags.empty()) {
    free_large(p);
    GTEST_SKIP() << "/proc/self/smaps is not readable here";
  }
  if (page_advice_is_dropped(MADV_HUGEPAGE, " hg")) {
    free_large(p);
    GTEST_SKIP() << "madvise(MADV_HUGEPAGE) returned 0 but a fresh mapping's VmFlags lack hg: page advice never reaches "
                    "the kernel here (qemu-user drops it)";
  }
  EXPECT_NE(flags.find(" hg"), std::string::npos) << flags;
  free_large(p);
}

// Every pool test starts from an empty pool with room for what it keeps, and leaves it empty.
struct PoolLimit {
  explicit PoolLimit(std::uint64_t bytes) {
    release_kept_mappings();
    set_mapping_pool_limit(bytes);
  }
  ~PoolLimit() { set_mapping_pool_limit(0); }
};

TEST(MappingPool, AKeptMappingThatFitsIsHandedOutAgain) {
  const PoolLimit limit(64ull << 20);
  std::size_t length = 0;
  void* p = take_mapping(8u << 20, PageSize::huge_2m, &length);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(length, 8u << 20);
  std::memset(p, 1, length);
  give_mapping(p);
  EXPECT_EQ(mapping_pool_counts().kept_bytes, 8u << 20);
  const MappingPoolCounts before = mapping_pool_counts();
  std::size_t again = 0;
  void* q = take_mapping(5u << 20, PageSize::huge_2m, &again);
  EXPECT_EQ(q, p);
  EXPECT_EQ(again, 8u << 20);  // the kept mapping, larger than asked for
  EXPECT_EQ(mapping_pool_counts().fresh_bytes, before.fresh_bytes);
  EXPECT_EQ(mapping_pool_counts().reused_bytes, before.reused_bytes + (8u << 20));
  give_mapping(q);
}

TEST(MappingPool, ALargerRequestGrowsTheLargestKeptMappingWithItsContents) {
  const PoolLimit limit(64ull << 20);
  void* p = take_mapping(8u << 20, PageSize::huge_2m, nullptr);
  ASSERT_NE(p, nullptr);
  auto* bytes = static_cast<unsigned char*>(p);
  for (std::size_t i = 0; i < (8u << 20); i += 4096) bytes[i] = static_cast<unsigned char>(i >> 12);
  give_mapping(p);
  const MappingPoolCounts before = mapping_pool_counts();
  std::size_t length = 0;
  auto* q = static_cast<unsigned char*>(take_mapping(20u << 20, PageSize::huge_2m, &length));
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(length, 20u << 20);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(q) % kHugePageBytes, 0u);
  // The touched pages moved, not copied nor zeroed; only the growth is fresh.
  for (std::size_t i = 0; i < (8u << 20); i += 4096) ASSERT_EQ(q[i], static_cast<unsigned char>(i >> 12)) << i;
  EXPECT_EQ(mapping_pool_counts().fresh_bytes, before.fresh_bytes + (12u << 20));
  std::memset(q + (8u << 20), 2, 12u << 20);
  give_mapping(q);
}

TEST(MappingPool, AFarLargerKeptMappingIsSplitAndItsPiecesJoinedWhenGivenBack) {
  const PoolLimit limit(256ull << 20);
  void* whole = take_mapping(96u << 20, PageSize::huge_2m, nullptr);
  ASSERT_NE(whole, nullptr);
  std::memset(whole, 7, 96u << 20);
  give_mapping(whole);
  const MappingPoolCounts before = mapping_pool_counts();
  // 40 MiB leaves 56 to spare: a piece of 40 at the start, the rest kept; 50 more fit in the rest, touched already.
  std::size_t first_length = 0, second_length = 0;
  auto* first = static_cast<unsigned char*>(take_mapping(40u << 20, PageSize::huge_2m, &first_length));
  auto* second = static_cast<unsigned char*>(take_mapping(50u << 20, PageSize::huge_2m, &second_length));
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(first, whole);
  EXPECT_EQ(first_length, 40u << 20);
  EXPECT_EQ(second, first + (40u << 20));
  EXPECT_EQ(second_length, 56u << 20);  // 6 to spare: not split again
  EXPECT_EQ(second[0], 7);
  EXPECT_EQ(mapping_pool_counts().fresh_bytes, before.fresh_bytes);
  // Given back, the pieces are one mapping again: a request of the whole size takes it, nothing fresh.
  give_mapping(second);
  give_mapping(first);
  EXPECT_EQ(mapping_pool_counts().kept_bytes, 96u << 20);
  std::size_t again_length = 0;
  void* again = take_mapping(90u << 20, PageSize::huge_2m, &again_length);
  EXPECT_EQ(again, whole);
  EXPECT_EQ(again_length, 96u << 20);
  EXPECT_EQ(mapping_pool_counts().fresh_bytes, before.fresh_bytes);
  // A piece grown past its neighbour moves to a mapping of its own; the pieces left still work and are unmapped alike.
  give_mapping(again);
  auto* piece = static_cast<unsigned char*>(take_mapping(20u << 20, PageSize::huge_2m, nullptr));
  auto* rest = static_cast<unsigned char*>(take_mapping(70u << 20, PageSize::huge_2m, nullptr));
  ASSERT_NE(piece, nullptr);
  ASSERT_NE(rest, nullptr);
  give_mapping(piece);
  std::size_t grown_length = 0;
  auto* grown = static_cast<unsigned char*>(take_mapping(30u << 20, PageSize::huge_2m, &grown_length));
  ASSERT_NE(grown, nullptr);
  EXPECT_EQ(grown_length, 30u << 20);
  EXPECT_EQ(grown[0], 7);  // the piece's pages moved with it
  std::memset(grown, 1, 30u << 20);
  std::memset(rest, 2, 70u << 20);
  give_mapping(grown);
  give_mapping(rest);
}

TEST(MappingPool, PageSizesNeverMix) {
  const PoolLimit limit(64ull << 20);
  void* huge = take_mapping(8u << 20, PageSize::huge_2m, nullptr);
  ASSERT_NE(huge, nullptr);
  give_mapping(huge);
  void* small = take_mapping(4u << 20, PageSize::base_4k, nullptr);
  ASSERT_NE(small, nullptr);
  EXPECT_NE(small, huge);
  std::memset(small, 3, 4u << 20);
  const std::string flags = vm_flags_of(small);
  if (!flags.empty() && !page_advice_is_dropped(MADV_NOHUGEPAGE, " nh")) {
    EXPECT_NE(flags.find(" nh"), std::string::npos) << flags;
  }
  give_mapping(small);
}

TEST(MappingPool, ALimitOfZeroKeepsNothing) {
  const PoolLimit limit(0);
  void* p = allocate_large(6u << 20, 4096);
  ASSERT_NE(p, nullptr);
  free_large(p);
  EXPECT_EQ(mapping_pool_counts().kept_bytes, 0u);
  const PoolLimit some(16ull << 20);
  void* a = take_mapping(12u << 20, PageSize::huge_2m, nullptr);
  void* b = take_mapping(12u << 20, PageSize::huge_2m, nullptr);
  give_mapping(a);
  give_mapping(b);  // a went when given back (with b in use, 24 MiB > 16 MiB); b is kept
  EXPECT_EQ(mapping_pool_counts().kept_bytes, 12u << 20);
}

TEST(MappingPool, MappingsInUseAndKeptStayWithinTheLimit) {
  const PoolLimit limit(20ull << 20);
  void* a = take_mapping(12u << 20, PageSize::huge_2m, nullptr);
  void* b = take_mapping(8u << 20, PageSize::huge_2m, nullptr);  // 20 MiB in use: the limit, never refused
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  give_mapping(a);  // kept, 12 MiB beside b's 8 would be 20: within
  EXPECT_EQ(mapping_pool_counts().kept_bytes, 12u << 20);
  void* c = take_mapping(10u << 20, PageSize::base_4k, nullptr);  // a fresh 10 MiB: a goes to make room
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(mapping_pool_counts().kept_bytes, 0u);
  give_mapping(b);
  give_mapping(c);
  EXPECT_EQ(mapping_pool_counts().kept_bytes, 18u << 20);
}

}  // namespace
}  // namespace roofline
