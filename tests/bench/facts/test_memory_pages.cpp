// The page record (roofline/facts/memory.hpp): /proc/self/smaps parsed on recorded text (tests/data/smaps: three
// 66 MiB arrays of a Zen 4 VM with THP madvise, one granted 2 MiB pages, one half, one MADV_NOHUGEPAGE'd),
// the THP mode's files, and one live record of a mapping this test touches.
#include <sys/mman.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "roofline/facts/memory.hpp"
#include "support/page_advice.hpp"

namespace roofline {
namespace {

constexpr std::uint64_t kKiB = 1024;

std::string recorded_smaps() {
  std::ifstream in(std::string(ROOFLINE_SOURCE_DIR) + "/tests/data/smaps/zen4-vm-three-arrays.smaps");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The three arrays of the recording.
constexpr AddressRange kGranted{0x7f9a32a00000, 0x7f9a36c00000};
constexpr AddressRange kNotGranted{0x7f9a2e800000, 0x7f9a32a00000};
constexpr AddressRange kPartly{0x7f9a2a600000, 0x7f9a2e800000};

SmapsTotals totals_of(std::initializer_list<AddressRange> ranges) {
  const std::vector<AddressRange> v(ranges);
  return parse_smaps(recorded_smaps(), v);
}

TEST(Smaps, GrantedHugePages) {
  const SmapsTotals t = totals_of({kGranted});
  EXPECT_EQ(t.mappings, 1);
  EXPECT_EQ(t.mapped_bytes, 67584 * kKiB);
  EXPECT_EQ(t.resident_bytes, 67584 * kKiB);
  EXPECT_EQ(t.huge_bytes, 67584 * kKiB);
  EXPECT_TRUE(t.advised_huge);
  EXPECT_FALSE(t.advised_no_huge);
}

TEST(Smaps, PartlyGranted) {
  const SmapsTotals t = totals_of({kPartly});
  EXPECT_EQ(t.mappings, 1);
  EXPECT_EQ(t.resident_bytes, 67584 * kKiB);
  EXPECT_EQ(t.huge_bytes, 32768 * kKiB);
}

TEST(Smaps, NotGranted) {
  const SmapsTotals t = totals_of({kNotGranted});
  EXPECT_EQ(t.mappings, 1);
  EXPECT_EQ(t.resident_bytes, 67584 * kKiB);
  EXPECT_EQ(t.huge_bytes, 0u);
  EXPECT_TRUE(t.advised_no_huge);
  EXPECT_FALSE(t.advised_huge);
}

TEST(Smaps, NoMappingFound) {
  const SmapsTotals t = totals_of({{0x1000, 0x2000}});
  EXPECT_EQ(t.mappings, 0);
  EXPECT_EQ(t.resident_bytes, 0u);
  EXPECT_EQ(parse_smaps("", std::vector<AddressRange>{kGranted}).mappings, 0);
}

TEST(Smaps, SeveralBuffersAndPartialOverlapsCountEachMappingOnce) {
  // Two buffers inside one mapping, and one straddling the next: two mappings, each counted whole.
  const SmapsTotals t = totals_of({{kPartly.begin, kPartly.begin + 4096},
                                   {kPartly.begin + 8192, kPartly.begin + 12288},
                                   {kNotGranted.end - 4096, kNotGranted.end + 4096}});
  EXPECT_EQ(t.mappings, 3);  // partly, not granted (its last page), granted (its first page)
  EXPECT_EQ(t.resident_bytes, 3 * 67584 * kKiB);
  EXPECT_EQ(t.huge_bytes, (32768 + 67584) * kKiB);
}

TEST(PageRecord, SaysWhyThereIsNone) {
  const std::vector<AddressRange> granted{kGranted};
  const PageRecord unreadable = page_record_from(std::nullopt, granted, PageSize::huge_2m);
  EXPECT_FALSE(unreadable.recorded);
  EXPECT_EQ(unreadable.source, "/proc/self/smaps could not be read");
  const std::vector<AddressRange> nowhere{{0x1000, 0x2000}};
  const PageRecord missing = page_record_from(recorded_smaps(), nowhere, PageSize::huge_2m);
  EXPECT_FALSE(missing.recorded);
  EXPECT_EQ(missing.source, "no mapping of /proc/self/smaps holds the buffers");
  EXPECT_EQ(missing.huge_fraction(), 0.0);
}

TEST(PageRecord, HugeFractionOfTheRecordedArrays) {
  const std::vector<AddressRange> granted{kGranted}, partly{kPartly}, not_granted{kNotGranted};
  EXPECT_DOUBLE_EQ(page_record_from(recorded_smaps(), granted, PageSize::huge_2m).huge_fraction(), 1.0);
  EXPECT_NEAR(page_record_from(recorded_smaps(), partly, PageSize::huge_2m).huge_fraction(), 32768.0 / 67584.0, 1e-12);
  const PageRecord small = page_record_from(recorded_smaps(), not_granted, PageSize::base_4k);
  EXPECT_TRUE(small.recorded);
  EXPECT_EQ(small.requested, PageSize::base_4k);
  EXPECT_EQ(small.source, "/proc/self/smaps");
  EXPECT_EQ(small.huge_fraction(), 0.0);
}

TEST(Thp, SelectedWordOfTheSettingFiles) {
  EXPECT_EQ(parse_thp_setting("always [madvise] never\n"), "madvise");
  EXPECT_EQ(parse_thp_setting("always defer defer+madvise [madvise] never\n"), "madvise");
  EXPECT_EQ(parse_thp_setting("[always] madvise never"), "always");
  EXPECT_EQ(parse_thp_setting("always madvise [never]"), "never");
  EXPECT_FALSE(parse_thp_setting("always madvise never").has_value());
  EXPECT_FALSE(parse_thp_setting("").has_value());
  EXPECT_FALSE(parse_thp_setting("[]").has_value());
  // The live machine: a mode, or a source saying the file is absent.
  const ThpMode mode = detect_thp();
  EXPECT_FALSE(mode.source.empty());
  if (mode.enabled.empty()) {
    EXPECT_NE(mode.source.find("absent"), std::string::npos) << mode.source;
  }
}

// A live mapping, touched: found in this process's smaps, with every touched page resident. Whether its
// pages are huge depends on the machine's THP mode: not asserted.
TEST(PageRecord, LiveMappingIsFound) {
  const std::size_t bytes = 8u << 20;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  madvise(p, bytes, MADV_NOHUGEPAGE);
  std::memset(p, 1, bytes);
  const auto begin = reinterpret_cast<std::uintptr_t>(p);
  const std::vector<AddressRange> ranges{{begin, begin + bytes}};
  const PageRecord r = page_record(ranges, PageSize::base_4k);
  munmap(p, bytes);
  ASSERT_TRUE(r.recorded) << r.source;
  EXPECT_GE(r.totals.resident_bytes, bytes);
  if (testing::page_advice_is_dropped(MADV_NOHUGEPAGE, " nh")) {
    GTEST_SKIP() << "madvise(MADV_NOHUGEPAGE) returned 0 but a fresh mapping's VmFlags lack nh: page advice never "
                    "reaches the kernel here (qemu-user drops it)";
  }
  EXPECT_TRUE(r.totals.advised_no_huge);
  EXPECT_EQ(r.totals.huge_bytes, 0u);
}

}  // namespace
}  // namespace roofline
