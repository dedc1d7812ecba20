// The history's text helpers, private to analysis/history: a run's commit and date shortened for a table or a
// chart, and the aligned terminal table that `history calibrate` and `history changes` print.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace roofline::history_format {

// Keeps "-dirty" (a build from uncommitted changes) visible when shortening a long hash.
inline std::string short_revision(const std::string& rev) {
  if (rev.empty()) return "-";
  if (rev.size() <= 18) return rev;
  const bool dirty = rev.ends_with("-dirty");
  return rev.substr(0, 12) + (dirty ? "-dirty" : "");
}

// "2024-05-01T12:34:56+00:00" -> "2024-05-01 12:34"; anything else as it is.
inline std::string short_date(const std::string& date) {
  if (date.size() >= 16 && date[10] == 'T') return date.substr(0, 10) + " " + date.substr(11, 5);
  return date.empty() ? "-" : date;
}

// Rows (the first the header, underlined with dashes) in columns two spaces apart, the first `left_columns` columns
// aligned left and the others right; no trailing spaces.
inline std::string aligned_table(const std::vector<std::vector<std::string>>& rows, std::size_t left_columns = 1) {
  if (rows.empty()) return "";
  std::vector<std::size_t> width(rows.front().size(), 0);
  for (const auto& r : rows) {
    for (std::size_t i = 0; i < r.size() && i < width.size(); ++i) width[i] = std::max(width[i], r[i].size());
  }
  std::string out;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line;
    for (std::size_t i = 0; i < rows[r].size() && i < width.size(); ++i) {
      line += i < left_columns ? fmt::format("{:<{}}  ", rows[r][i], width[i]) : fmt::format("{:>{}}  ", rows[r][i], width[i]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
    if (r == 0) out += std::string(line.size(), '-') + "\n";
  }
  return out;
}

}  // namespace roofline::history_format
