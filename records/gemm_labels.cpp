// The GEMM labels' one reader over an entry's typed labels: see gemm_labels.hpp.
#include "roofline/records/gemm_labels.hpp"

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace roofline {
namespace {

// A positive whole number: the typed member, else a number the file wrote there in another kind; 0 otherwise.
template <class T>
std::int64_t positive_integer(const std::optional<T>& member, const EntryLabels& labels, const char* key) {
  double v = 0.0;
  if (member) {
    v = static_cast<double>(*member);
  } else if (const auto it = labels.extra.find(key); it != labels.extra.end() && it->is_number()) {
    v = it->template get<double>();
  }
  return std::isfinite(v) && v > 0.0 && v == std::floor(v) ? static_cast<std::int64_t>(v) : 0;
}

}  // namespace

std::optional<GemmLabels> read_gemm_labels(const EntryLabels& labels) {
  GemmLabels g;
  g.shape.m = positive_integer(labels.m, labels, "m");
  g.shape.k = positive_integer(labels.k, labels, "k");
  g.shape.n = positive_integer(labels.batch, labels, "batch");
  if (g.shape.n == 0) g.shape.n = positive_integer(labels.n, labels, "n");
  if (g.shape.m == 0 || g.shape.k == 0 || g.shape.n == 0) return std::nullopt;
  g.element = {static_cast<int>(positive_integer(labels.a_bytes, labels, "a_bytes")),
               static_cast<int>(positive_integer(labels.b_bytes, labels, "b_bytes")),
               static_cast<int>(positive_integer(labels.c_bytes, labels, "c_bytes"))};
  return g;
}

}  // namespace roofline
