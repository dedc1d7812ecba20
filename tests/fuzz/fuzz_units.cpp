// Fuzz target: the quantity parser behind `roofline model --peak/--bandwidth/--ai`, the byte-size flags and
// spec files (parse_quantity, every kind), and the formatting of whatever value it accepts.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "roofline/common/units.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using roofline::Quantity;
  const std::string_view text = roofline::fuzz::as_text(data, size);
  for (const Quantity kind : {Quantity::compute_rate, Quantity::byte_rate, Quantity::bytes, Quantity::plain}) {
    roofline::fuzz::expect_only_input_errors([&] {
      const double value = roofline::parse_quantity(text, kind);
      (void)roofline::format_si(value, "B/s");
      (void)roofline::format_bytes(value);
    });
  }
  return 0;
}
