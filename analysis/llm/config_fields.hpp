// Reading one config.json's fields with one-line errors naming the file and the field (private to
// analysis/llm: config.cpp reads the shape every architecture shares, architectures.cpp the rest).
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "roofline/llm/config.hpp"

namespace roofline::llm::detail {

// Upper bounds on what a config may say, far above any published model (hidden 16384, intermediate
// 53248, vocab 256000, 126 layers, 256 experts), so that every count stays well inside 64 bits: a width
// times a width times layers times experts is at most 2^60.
inline constexpr std::int64_t kMaxWidth = std::int64_t{1} << 18;   // hidden, intermediate, expert widths
inline constexpr std::int64_t kMaxVocab = std::int64_t{1} << 22;
inline constexpr std::int64_t kMaxCount = std::int64_t{1} << 12;   // layers, heads, head_dim, experts
inline constexpr std::int64_t kMaxWindow = std::int64_t{1} << 30;  // tokens

struct Fields {
  const nlohmann::json& doc;
  const std::string& source;

  [[noreturn]] void fail(const std::string& what) const;
  // Present and not null.
  [[nodiscard]] bool has(const char* key) const;
  // A required (or, with fallback >= 0, optional) strictly positive integer, at most `max`.
  [[nodiscard]] std::int64_t positive(const char* key, std::int64_t max, std::int64_t fallback = -1) const;
  // An optional non-negative integer at most `max` (fallback when absent).
  [[nodiscard]] std::int64_t count(const char* key, std::int64_t max, std::int64_t fallback) const;
  // An optional boolean (fallback when absent).
  [[nodiscard]] bool flag(const char* key, bool fallback) const;
};

// Refuses the architecture when it is not modelled, and any field that is neither read for it nor known
// not to change the counts; then reads the architecture's own fields into `c` (whose shared shape is
// already read).
void read_architecture(const Fields& f, const std::string& architecture, ModelConfig& c);

}  // namespace roofline::llm::detail
