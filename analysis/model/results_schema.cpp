// Field rules of the roofline section, as one table (see results_schema.hpp). A rule names a field, what
// it must be, and whether every entry must have it; results/README.md documents the same fields.
#include "roofline/analysis/results_schema.hpp"

#include <cmath>
#include <initializer_list>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/common/vocabulary.hpp"

namespace roofline {
namespace {
using json = nlohmann::json;

enum class Kind { text, precision, level, engine, pages, positive_integer, non_negative, fraction, roof };

struct Rule {
  const char* field;
  Kind kind;
  bool required;
};

struct ArrayRules {
  const char* array;
  std::initializer_list<Rule> rules;
};

const ArrayRules kRules[] = {
    {"compute_ceilings",
     {{"precision", Kind::precision, true}, {"threads", Kind::positive_integer, true}, {"value", Kind::non_negative, true},
      {"isa", Kind::text, false}, {"engine", Kind::engine, false}, {"unit", Kind::text, false},
      {"theoretical", Kind::non_negative, false}, {"clock_hz", Kind::non_negative, false}}},
    {"memory_ceilings",
     {{"level", Kind::level, true}, {"kernel", Kind::text, true}, {"threads", Kind::positive_integer, true},
      {"value", Kind::non_negative, true}, {"min_bytes", Kind::non_negative, false}, {"max_bytes", Kind::non_negative, false},
      {"plateau_median", Kind::non_negative, false}, {"pages", Kind::pages, false},
      {"huge_page_fraction", Kind::fraction, false}}},
    // Optional (files from before page sizes lack it); its rows are memory_ceilings' on another page size.
    {"page_size_ceilings",
     {{"level", Kind::level, true}, {"kernel", Kind::text, true}, {"threads", Kind::positive_integer, true},
      {"value", Kind::non_negative, true}, {"pages", Kind::pages, true}, {"min_bytes", Kind::non_negative, false},
      {"max_bytes", Kind::non_negative, false}, {"plateau_median", Kind::non_negative, false},
      {"huge_page_fraction", Kind::fraction, false}}},
    {"ridge_points",
     {{"precision", Kind::precision, true}, {"level", Kind::level, true}, {"threads", Kind::positive_integer, true},
      {"ai", Kind::non_negative, true}, {"engine", Kind::engine, false}, {"pages", Kind::pages, false}}},
    {"placements",
     {{"backend", Kind::text, true}, {"precision", Kind::precision, true}, {"batch", Kind::positive_integer, true},
      {"threads", Kind::positive_integer, true}, {"value", Kind::non_negative, true}, {"ai", Kind::non_negative, false},
      {"attainable", Kind::non_negative, false}, {"efficiency", Kind::non_negative, false},
      {"m", Kind::positive_integer, false}, {"k", Kind::positive_integer, false},
      {"latency_seconds", Kind::non_negative, false}, {"resident_level", Kind::level, false}, {"roof", Kind::roof, false}}},
};

// Empty when `v` satisfies `kind`, else what is wrong with it.
std::string problem(const json& v, Kind kind) {
  switch (kind) {
    case Kind::text: return v.is_string() ? "" : "is not a string";
    case Kind::precision:
      if (!v.is_string()) return "is not a string";
      return parse_precision(v.get<std::string>()) ? "" : fmt::format("'{}' is not a precision", v.get<std::string>());
    case Kind::level:
      if (!v.is_string()) return "is not a string";
      return parse_level(v.get<std::string>()) ? "" : fmt::format("'{}' is not a memory level", v.get<std::string>());
    case Kind::engine:
      if (!v.is_string()) return "is not a string";
      return parse_engine(v.get<std::string>()) ? "" : fmt::format("'{}' is not an engine (vector, matrix)", v.get<std::string>());
    case Kind::pages:
      if (!v.is_string()) return "is not a string";
      return parse_page_size(v.get<std::string>()) ? "" : fmt::format("'{}' is not a page size (2M, 4K)", v.get<std::string>());
    case Kind::fraction:
      if (!v.is_number()) return "is not a number";
      return v.get<double>() >= 0.0 && v.get<double>() <= 1.0 ? "" : "is not between 0 and 1";
    case Kind::positive_integer:
      return v.is_number_integer() && v.get<long long>() >= 1 ? "" : "is not a positive integer";
    case Kind::non_negative:
      if (!v.is_number()) return "is not a number";
      return std::isfinite(v.get<double>()) && v.get<double>() >= 0.0 ? "" : "is negative or not finite";
    case Kind::roof: {
      if (!v.is_object()) return "is not an object";
      for (const auto& [field, sub] :
           {std::pair{"engine", Kind::engine}, std::pair{"level", Kind::level}, std::pair{"pages", Kind::pages}}) {
        if (!v.contains(field)) continue;
        if (std::string p = problem(v[field], sub); !p.empty()) return fmt::format(".{} {}", field, p);
      }
      return "";
    }
  }
  return "";
}

}  // namespace

void check_roofline_fields(const json& roofline, const std::string& file) {
  for (const ArrayRules& a : kRules) {
    if (!roofline.contains(a.array)) continue;  // presence of the arrays is checked by classify_results
    const json& entries = roofline[a.array];
    if (!entries.is_array()) throw InputError(fmt::format("{}: roofline.{} is not an array", file, a.array));
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const json& e = entries[i];
      if (!e.is_object()) throw InputError(fmt::format("{}: roofline.{}[{}] is not an object", file, a.array, i));
      for (const Rule& r : a.rules) {
        if (!e.contains(r.field) || e[r.field].is_null()) {
          if (r.required) throw InputError(fmt::format("{}: roofline.{}[{}].{} is missing", file, a.array, i, r.field));
          continue;
        }
        const std::string p = problem(e[r.field], r.kind);
        if (!p.empty()) {
          const std::string sep = p.front() == '.' ? "" : " ";
          throw InputError(fmt::format("{}: roofline.{}[{}].{}{}{}", file, a.array, i, r.field, sep, p));
        }
      }
    }
  }
}

}  // namespace roofline
