// Parsing and formatting of quantities with SI/binary prefixes.
#include <gtest/gtest.h>

#include "roofline/common/errors.hpp"
#include "roofline/common/units.hpp"

namespace roofline {

TEST(Units, ComputeRates) {
  EXPECT_DOUBLE_EQ(parse_quantity("100T", Quantity::compute_rate), 100e12);
  EXPECT_DOUBLE_EQ(parse_quantity("100 TFLOP/s", Quantity::compute_rate), 100e12);
  EXPECT_DOUBLE_EQ(parse_quantity("1.5GFLOP/s", Quantity::compute_rate), 1.5e9);
  EXPECT_DOUBLE_EQ(parse_quantity("400 TOPS", Quantity::compute_rate), 400e12);
  EXPECT_DOUBLE_EQ(parse_quantity("2POP/s", Quantity::compute_rate), 2e15);
  EXPECT_DOUBLE_EQ(parse_quantity("5e9", Quantity::compute_rate), 5e9);
  EXPECT_DOUBLE_EQ(parse_quantity("3k", Quantity::compute_rate), 3e3);
}

TEST(Units, ByteRatesAndBytes) {
  EXPECT_DOUBLE_EQ(parse_quantity("2T", Quantity::byte_rate), 2e12);
  EXPECT_DOUBLE_EQ(parse_quantity("60 GB/s", Quantity::byte_rate), 60e9);
  EXPECT_DOUBLE_EQ(parse_quantity("1GiB/s", Quantity::byte_rate), 1073741824.0);
  EXPECT_DOUBLE_EQ(parse_quantity("64KiB", Quantity::bytes), 65536.0);
  EXPECT_DOUBLE_EQ(parse_quantity("2MB", Quantity::bytes), 2e6);
  EXPECT_DOUBLE_EQ(parse_quantity("1Mi", Quantity::bytes), 1048576.0);
  EXPECT_DOUBLE_EQ(parse_quantity("4096", Quantity::bytes), 4096.0);
}

TEST(Units, RejectsBadInput) {
  for (const char* bad : {"", "  ", "abc", "10Q", "10 TB/s", "-5T", "0", "nan", "inf", "0x10", "1e400", "10 FLOP/s/s"}) {
    EXPECT_THROW(parse_quantity(bad, Quantity::compute_rate), InputError) << bad;
  }
  EXPECT_THROW(parse_quantity("2 TFLOP/s", Quantity::byte_rate), InputError);
  EXPECT_THROW(parse_quantity("1Ki", Quantity::compute_rate), InputError);  // binary prefixes only for bytes
  EXPECT_THROW(parse_quantity("10 B", Quantity::plain), InputError);
}

TEST(Units, ErrorNamesTheTextAndTheUnit) {
  try {
    parse_quantity("10Q", Quantity::compute_rate);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown unit 'Q'"), std::string::npos) << e.what();
  }
}

TEST(Units, Formatting) {
  EXPECT_EQ(format_si(2e13, "FLOP/s"), "20.0 TFLOP/s");
  EXPECT_EQ(format_si(66.4e9, "B/s"), "66.4 GB/s");
  EXPECT_EQ(format_si(123.4e9, "B/s"), "123 GB/s");
  EXPECT_EQ(format_si(999.9e9, "B/s"), "1.00 TB/s");
  EXPECT_EQ(format_si(5.0, "FLOP/byte"), "5.00 FLOP/byte");
  EXPECT_EQ(format_bytes(32768), "32 KiB");
  EXPECT_EQ(format_bytes(3.5 * 1048576), "3.5 MiB");
  EXPECT_EQ(format_bytes(100), "100 B");
  EXPECT_EQ(format_bytes(1023.7 * 1024), "1024 KiB");  // never "1.02e+03 KiB"
  EXPECT_EQ(format_bytes(1000.2 * 1024), "1000 KiB");
}

}  // namespace roofline
