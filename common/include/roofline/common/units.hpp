// Quantities with SI (and for bytes, binary) prefixes: parsing what users type ("100T", "2 TB/s",
// "64KiB") and formatting values for people ("20.0 TFLOP/s"). All values are held in base units.
#pragma once

#include <string>
#include <string_view>

namespace roofline {

enum class Quantity {
  compute_rate,  // FLOP/s or OP/s; accepts "100T", "100 TFLOP/s", "100TOP/s", "100 TFLOPS", "100 TOPS"
  byte_rate,     // B/s; accepts "2T", "2 TB/s", "2TiB/s"
  bytes,         // B; accepts "64k", "64 KiB", "2MB", "1G"
  plain,         // a bare number with an optional SI prefix ("10", "1.5k"), e.g. FLOP/byte
};

// Parses `text` as a strictly positive, finite quantity of the given kind and returns it in base units.
// Throws InputError with a one-line message naming the text and what is accepted.
double parse_quantity(std::string_view text, Quantity kind);

// The unit of a value that is a fraction of something (a point's share of its roof): formatted as a percentage.
inline constexpr std::string_view kFractionUnit = "fraction";

// Formats a base-unit value with an SI prefix and 3 significant digits, e.g. (2e13, "FLOP/s") ->
// "20.0 TFLOP/s"; a kFractionUnit value as a percentage (0.873 -> "87.3%"). Zero, negative and non-finite
// values are printed plainly.
std::string format_si(double value, std::string_view unit, int significant_digits = 3);

// Formats a byte count with a binary prefix: 32768 -> "32 KiB", 3.5*2^20 -> "3.5 MiB".
std::string format_bytes(double bytes);

}  // namespace roofline
