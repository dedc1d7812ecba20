// Run parameters and the parsers of their flags: see run_config.hpp.
#include "roofline/harness/run_config.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/common/name_table.hpp"
#include "roofline/common/units.hpp"

namespace roofline {
namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : text) {
    if (c == sep) {
      parts.push_back(cur);
      cur.clear();
    } else if (c != ' ') {
      cur += c;
    }
  }
  parts.push_back(cur);
  return parts;
}

std::int64_t parse_positive_integer(const std::string& part, const std::string& flag, const std::string& whole) {
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
  if (part.empty() || ec != std::errc() || ptr != part.data() + part.size()) {
    throw InputError(fmt::format("{} '{}': '{}' is not an integer", flag, whole, part));
  }
  if (v <= 0) throw InputError(fmt::format("{} '{}': {} must be positive", flag, whole, v));
  return v;
}

void require_nonempty(const std::string& text, const std::string& flag) {
  if (text.find_first_not_of(" ,") == std::string::npos) throw InputError(fmt::format("{}: the list is empty", flag));
}

}  // namespace

constexpr NameTable<Profile, 3> kProfileNames{{{Profile::quick, "quick"}, {Profile::full, "full"}, {Profile::gate, "gate"}}};

std::string_view to_string(Profile p) { return name_of(kProfileNames, p); }

bool RunConfig::wants_suite(const std::string& name) const {
  return suites.empty() || std::find(suites.begin(), suites.end(), name) != suites.end();
}

Profile parse_profile(const std::string& text) {
  if (const auto p = value_of(kProfileNames, text)) return *p;
  throw InputError(fmt::format("--profile '{}': expected quick, full or gate", text));
}

std::vector<int> parse_thread_list(const std::string& text, int max_threads) {
  require_nonempty(text, "--threads");
  std::vector<int> out;
  for (const std::string& part : split(text, ',')) {
    if (part == "all") {
      out.push_back(max_threads);
      continue;
    }
    const std::int64_t v = parse_positive_integer(part, "--threads", text);
    if (v > max_threads) {
      throw InputError(fmt::format("--threads '{}': {} is more than the {} PUs of this machine", text, v, max_threads));
    }
    out.push_back(static_cast<int>(v));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::uint64_t> parse_size_list(const std::string& text, std::uint64_t budget_bytes) {
  require_nonempty(text, "--sizes");
  std::vector<std::uint64_t> out;
  for (const std::string& part : split(text, ',')) {
    double bytes = 0.0;
    try {
      bytes = parse_quantity(part, Quantity::bytes);
    } catch (const InputError& e) {
      throw InputError(fmt::format("--sizes: {}", e.what()));
    }
    if (bytes < 1024.0) throw InputError(fmt::format("--sizes: '{}' is below the 1 KiB minimum working set", part));
    if (budget_bytes > 0 && bytes > static_cast<double>(budget_bytes)) {
      throw InputError(fmt::format("--sizes: '{}' is larger than the {} this run may use (70% of available memory)",
                                   part, format_bytes(static_cast<double>(budget_bytes))));
    }
    out.push_back(static_cast<std::uint64_t>(bytes));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::pair<std::int64_t, std::int64_t> parse_gemm_shape(const std::string& text) {
  const auto parts = split(text, ',');
  if (parts.size() != 2) throw InputError(fmt::format("--gemm-shape '{}': expected M,K (two positive integers)", text));
  return {parse_positive_integer(parts[0], "--gemm-shape", text), parse_positive_integer(parts[1], "--gemm-shape", text)};
}

std::vector<int> parse_positive_list(const std::string& text, const std::string& flag, std::int64_t max) {
  require_nonempty(text, flag);
  std::vector<int> out;
  for (const std::string& part : split(text, ',')) {
    const std::int64_t v = parse_positive_integer(part, flag, text);
    if (v > max) throw InputError(fmt::format("{} '{}': {} is larger than the {} allowed", flag, text, v, max));
    out.push_back(static_cast<int>(v));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<int> parse_batches(const std::string& text) { return parse_positive_list(text, "--batches", 1 << 20); }

std::vector<std::string> parse_name_list(const std::string& text, const std::string& flag) {
  require_nonempty(text, flag);
  std::vector<std::string> out;
  for (const std::string& part : split(text, ',')) {
    if (part.empty()) throw InputError(fmt::format("{} '{}': empty name in the list", flag, text));
    if (std::find(out.begin(), out.end(), part) == out.end()) out.push_back(part);
  }
  return out;
}

}  // namespace roofline
