// The report's tables whose columns are not fixed (best backends, and whatever a section holds): columns from the
// keys, each value formatted by its key (table_cells.hpp).
#include <algorithm>

#include "section_tables.hpp"
#include "table_cells.hpp"

namespace roofline {
using nlohmann::json;

namespace report_detail {

std::string seconds(double s) {
  if (!(s > 0)) return "n/a";
  if (s >= 1.0) return fmt::format("{:.3g} s", s);
  if (s >= 1e-3) return fmt::format("{:.3g} ms", s * 1e3);
  if (s >= 1e-6) return fmt::format("{:.3g} us", s * 1e6);
  return fmt::format("{:.3g} ns", s * 1e9);
}

// Formats one value of a generic table by its key (see generic_table).
std::string format_by_key(const std::string& key, const json& v, const json& row) {
  if (v.is_null()) return "n/a";
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    std::string out;
    for (const json& e : v) out += (out.empty() ? "" : ", ") + format_by_key(key, e, row);
    return out;
  }
  if (v.is_object()) return v.dump();
  const double d = v.get<double>();
  auto ends = [&](const char* s) { const std::string suf(s); return key.size() >= suf.size() && key.compare(key.size() - suf.size(), suf.size(), suf) == 0; };
  if (ends("_bytes") || key == "bytes") return d > 0 ? format_bytes(d) : "n/a";
  if (ends("_hz")) return format_si(d, "Hz");
  if (key == "bandwidth" || ends("_bandwidth") || key == "memory_ceiling") return format_si(d, "B/s");
  if (ends("_seconds")) return seconds(d);
  if (key == "efficiency" || ends("_ratio")) return percent(d);
  if (key.find("percent") != std::string::npos) return fmt::format("{:.1f} %", d);
  if (key == "value" || key == "attainable" || key == "theoretical" || key == "peak" || key == "compute_ceiling" ||
      ends("_per_second")) {
    const std::string unit = ends("bytes_per_second") ? "B/s" : rate_unit_of_row(row);
    return format_si(d, unit);
  }
  if (v.is_number_integer()) return fmt::format("{}", v.get<long long>());
  return fmt::format("{:.4g}", d);
}

namespace {

bool numeric_column(const json& array, const std::string& key) {
  for (const json& r : array) {
    if (r.is_object() && r.contains(key) && !r[key].is_null()) return r[key].is_number();
  }
  return false;
}


}  // namespace

ReportTable generic_table(const std::string& id, const std::string& title, const json& array) {
  ReportTable t{id, title, {}, {}, {}, ""};
  if (!array.is_array()) return t;
  for (const json& r : array) {
    if (!r.is_object()) continue;
    for (auto it = r.begin(); it != r.end(); ++it) {
      if (it.key() == "unit" || it.key() == "target") continue;  // shown with the values; each target its own tables
      if (std::find(t.columns.begin(), t.columns.end(), it.key()) == t.columns.end()) t.columns.push_back(it.key());
    }
  }
  // Identity columns first (JSON objects come back with their keys sorted), the measured values after.
  static const std::vector<std::string> kFirst{"level", "kernel", "backend", "precision", "isa", "threads", "batch"};
  std::stable_sort(t.columns.begin(), t.columns.end(), [](const std::string& a, const std::string& b) {
    auto rank = [](const std::string& k) { return std::find(kFirst.begin(), kFirst.end(), k) - kFirst.begin(); };
    return rank(a) < rank(b);
  });
  for (const std::string& c : t.columns) t.right_aligned.push_back(numeric_column(array, c));
  for (const json& r : array) {
    if (!r.is_object()) continue;
    std::vector<std::string> row;
    for (const std::string& c : t.columns) row.push_back(r.contains(c) ? format_by_key(c, r[c], r) : "");
    t.rows.push_back(row);
  }
  return t;
}

}  // namespace report_detail
}  // namespace roofline
