// Parsing and formatting of quantities. Hand-written because no Debian-packaged library parses SI-prefixed
// engineering units with the dimension checks we need (Boost.Units works on types, not on user text).
#include "roofline/common/units.hpp"

#include <array>
#include <cctype>
#include <cerrno>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"

namespace roofline {
namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

// Multiplier of a prefix, or 0 when `p` is not a prefix. Binary prefixes (Ki, Mi, ...) only for bytes.
double prefix_multiplier(std::string_view p, bool allow_binary) {
  static constexpr std::array<std::pair<std::string_view, double>, 11> kSi{{
      {"", 1.0}, {"k", 1e3}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15},
      {"m", 1e-3}, {"u", 1e-6}, {"n", 1e-9}, {"E", 1e18},
  }};
  static constexpr std::array<std::pair<std::string_view, double>, 5> kBinary{{
      {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0}, {"Ti", 1099511627776.0},
      {"Pi", 1125899906842624.0},
  }};
  for (const auto& [name, mult] : kSi) {
    if (name == p) return mult;
  }
  if (allow_binary) {
    for (const auto& [name, mult] : kBinary) {
      if (name == p) return mult;
    }
  }
  return 0.0;
}

std::string_view accepted(Quantity kind) {
  switch (kind) {
    case Quantity::compute_rate: return "a number with an optional k/M/G/T/P prefix and unit FLOP/s or OP/s, e.g. 100T or 1.5 TFLOP/s";
    case Quantity::byte_rate: return "a number with an optional k/M/G/T/P (or Ki/Mi/Gi/Ti) prefix and unit B/s, e.g. 2T or 60 GB/s";
    case Quantity::bytes: return "a number with an optional k/M/G/T (or Ki/Mi/Gi/Ti) prefix and unit B, e.g. 64KiB or 2MB";
    case Quantity::plain: return "a number with an optional k/M/G/T/P prefix, e.g. 10 or 1.5k";
  }
  return "";
}

// Splits "<prefix><unit>" into prefix and unit, trying the units this kind allows.
bool split_unit(std::string_view rest, Quantity kind, std::string_view& prefix) {
  static constexpr std::array<std::string_view, 6> kCompute{"FLOP/s", "FLOPS", "OP/s", "OPS", "flop/s", "op/s"};
  static constexpr std::array<std::string_view, 2> kByteRate{"B/s", "Bps"};
  static constexpr std::array<std::string_view, 1> kBytes{"B"};
  auto try_units = [&](auto const& units) {
    for (std::string_view u : units) {
      if (rest.size() >= u.size() && rest.substr(rest.size() - u.size()) == u) {
        prefix = rest.substr(0, rest.size() - u.size());
        return true;
      }
    }
    prefix = rest;  // no unit: the whole rest must be a prefix
    return true;
  };
  switch (kind) {
    case Quantity::compute_rate: return try_units(kCompute);
    case Quantity::byte_rate: return try_units(kByteRate);
    case Quantity::bytes: return try_units(kBytes);
    case Quantity::plain: prefix = rest; return true;
  }
  return false;
}

}  // namespace

double parse_quantity(std::string_view text, Quantity kind) {
  const std::string s = trim(text);
  if (s.empty()) throw InputError(fmt::format("empty value; expected {}", accepted(kind)));
  const char* begin = s.c_str();
  char* end = nullptr;
  errno = 0;
  const double number = std::strtod(begin, &end);
  if (end == begin) {
    throw InputError(fmt::format("'{}' is not a number; expected {}", s, accepted(kind)));
  }
  // strtod accepts "inf", "nan" and hex floats: reject anything that is not a plain finite decimal.
  const std::string_view number_text(begin, static_cast<std::size_t>(end - begin));
  if (number_text.find_first_not_of("0123456789.eE+-") != std::string_view::npos || !std::isfinite(number)) {
    throw InputError(fmt::format("'{}' is not a finite decimal number; expected {}", s, accepted(kind)));
  }
  const std::string rest = trim(std::string_view(end));
  std::string_view prefix;
  split_unit(rest, kind, prefix);
  const double mult = prefix_multiplier(prefix, kind == Quantity::bytes || kind == Quantity::byte_rate);
  if (mult == 0.0) {
    throw InputError(fmt::format("unknown unit '{}' in '{}'; expected {}", rest, s, accepted(kind)));
  }
  const double value = number * mult;
  if (!(value > 0.0) || !std::isfinite(value)) {
    throw InputError(fmt::format("'{}' must be greater than zero", s));
  }
  return value;
}

std::string format_si(double value, std::string_view unit, int significant_digits) {
  if (unit == kFractionUnit && std::isfinite(value)) {
    const double pct = 100.0 * value;
    const int int_digits = std::fabs(pct) >= 100 ? 3 : std::fabs(pct) >= 10 ? 2 : 1;
    return fmt::format("{:.{}f}%", pct, std::max(0, significant_digits - int_digits));
  }
  if (!std::isfinite(value) || value <= 0.0) return fmt::format("{:g} {}", value, unit);
  static constexpr std::array<std::pair<double, std::string_view>, 9> kPrefixes{{
      {1e18, "E"}, {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1.0, ""}, {1e-3, "m"}, {1e-6, "u"},
  }};
  for (const auto& [scale, name] : kPrefixes) {
    if (value >= scale * 0.9995 || scale == 1e-6) {
      const double scaled = value / scale;
      const int int_digits = scaled >= 100 ? 3 : scaled >= 10 ? 2 : 1;
      const int decimals = std::max(0, significant_digits - int_digits);
      return fmt::format("{:.{}f} {}{}", scaled, decimals, name, unit);
    }
  }
  return fmt::format("{:g} {}", value, unit);
}

std::string format_bytes(double bytes) {
  static constexpr std::array<std::string_view, 6> kNames{"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  std::size_t i = 0;
  while (bytes >= 1024.0 && i + 1 < kNames.size()) {
    bytes /= 1024.0;
    ++i;
  }
  if (std::fabs(bytes - std::round(bytes)) < 1e-9 || bytes >= 100.0) return fmt::format("{:.0f} {}", bytes, kNames[i]);
  return fmt::format("{:.3g} {}", bytes, kNames[i]);
}

}  // namespace roofline
