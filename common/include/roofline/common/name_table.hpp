// Tables of an enum's printed names, (value, name) pairs, and the two lookups over them: the vocabulary's
// enums (vocabulary.cpp) and any other enum that results files spell out (AMX status).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace roofline {

template <typename Enum, std::size_t N>
using NameTable = std::array<std::pair<Enum, std::string_view>, N>;

// The name of `value`; `fallback` when the table lacks it.
template <typename Enum, std::size_t N>
constexpr std::string_view name_of(const NameTable<Enum, N>& table, Enum value, std::string_view fallback = "unknown") {
  for (const auto& [v, name] : table) {
    if (v == value) return name;
  }
  return fallback;
}

// The value named `name`; nullopt when no entry has that name.
template <typename Enum, std::size_t N>
constexpr std::optional<Enum> value_of(const NameTable<Enum, N>& table, std::string_view name) {
  for (const auto& [v, n] : table) {
    if (n == name) return v;
  }
  return std::nullopt;
}

}  // namespace roofline
